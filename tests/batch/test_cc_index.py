"""Common Crawl's columnar index as an input: select captures by host or URL, read just their
records by byte range, locally or from a server (issue #20, section 1; robotrules.batch.inputs.ccindex.reading).

The WARC files are the Common Crawl shapes of ``test_cc_shapes`` (plus sites of their own),
written in two files of a ``crawl-data/.../robotstxt/`` tree; the index is a Parquet table in
Common Crawl's layout (``crawl=.../subset=robotstxt/``), its offsets and lengths found by
warcio's iterator as Common Crawl's indexer finds them, its rows sorted by URL (not by file). A
``subset=warc`` partition beside it points at bytes that are no record: reading it would fail.
Ranged reads go to a server on 127.0.0.1 that honours ``Range:`` and keeps every request.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from robotrules import batch
from robotrules.batch import Capture, DamagedArchive, SourceError, archive_of
from robotrules.batch.inputs.ccindex import IndexRecord, select_records
from tests.batch.test_cc_shapes import CAPTURES, EXPECTED, T
from tests.servers.http import Exchange, HTTPServer, respond

pa = pytest.importorskip("pyarrow", reason="pyarrow (robotrules[batch]) is not installed")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("warcio", reason="warcio (robotrules[batch]) is not installed")

from tests.spark.test_spark_engine import write_warc  # noqa: E402 (the WARC writer with WARC-Date)

CRAWL = "CC-MAIN-2024-18"
FOLDER = f"crawl-data/{CRAWL}/segments/1714564800000.0/robotstxt"
NAMES = (f"{FOLDER}/{CRAWL}-20240501120000-00000.warc.gz", f"{FOLDER}/{CRAWL}-20240501120000-00001.warc.gz")
MORE = [Capture(f"https://site{n}.example/robots.txt", 200, {}, b"User-agent: *\nDisallow: /s%d\n" % n, T)
        for n in range(6)]
ALL = [*CAPTURES, *MORE]
AGENTS = ["*", "FooBot/1.0"]
URLS = [*EXPECTED, *(f"https://site{n}.example/s{n}" for n in range(6))]
TIMEOUT = 20.0


@dataclass
class Crawl:
    """A crawl's robots.txt WARC files under ``root`` and its columnar index."""

    root: Path
    index: Path
    records: list[IndexRecord]

    @property
    def warcs(self) -> list[str]:
        return [str(self.root / name) for name in NAMES]

    def ranges_of(self, hosts: set[str]) -> set[tuple[str, int, int]]:
        """(file, first byte, last byte) of every record of ``hosts``."""
        return {(record.warc_filename, record.offset, record.offset + record.length - 1)
                for record in self.records if urlsplit(record.url).hostname in hosts}


def index_rows(root: Path, name: str) -> list[dict[str, Any]]:
    """The index rows of one WARC file, as Common Crawl's indexer makes them (offset and length of each gzip member)."""
    from warcio.archiveiterator import ArchiveIterator

    rows = []
    with (root / name).open("rb") as handle:
        records = ArchiveIterator(handle)
        for record in records:
            if record.rec_type != "response":
                continue
            url = record.rec_headers.get_header("WARC-Target-URI")
            status = int(record.http_headers.get_statuscode())
            location = record.http_headers.get_header("location") or ""
            mime = "text/html" if "html" in (record.http_headers.get_header("content-type") or "") else "text/plain"
            record.content_stream().read()
            rows.append({"url": url, "url_host_name": urlsplit(url).hostname, "fetch_status": status,
                         "fetch_redirect": location and re.sub(r"^/", f"{url.split('/robots.txt')[0]}/", location),
                         "content_mime_detected": mime, "warc_filename": name,
                         "warc_record_offset": records.get_record_offset(),
                         "warc_record_length": records.get_record_length(),
                         "fetch_time": record.rec_headers.get_header("WARC-Date")})
    return rows


def write_index(folder: Path, rows: list[dict[str, Any]], subset: str = "robotstxt", crawl: str = CRAWL) -> Path:
    part = folder / f"crawl={crawl}" / f"subset={subset}"
    part.mkdir(parents=True, exist_ok=True)
    ordered = sorted(rows, key=lambda row: row["url"])  # Common Crawl sorts by (SURT) URL, not by file
    pq.write_table(pa.Table.from_pylist(ordered), part / "part-00000.parquet", row_group_size=4)
    return folder


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    root = tmp_path_factory.mktemp("commoncrawl")
    (root / FOLDER).mkdir(parents=True)
    half = len(ALL) // 2
    write_warc(root / NAMES[0], ALL[:half])
    write_warc(root / NAMES[1], ALL[half:])
    rows = [row for name in NAMES for row in index_rows(root, name)]
    index = write_index(root / "cc-index", rows)
    decoys = [{**row, "warc_record_offset": row["warc_record_offset"] + 3} for row in rows]  # no record starts there
    write_index(index, decoys, subset="warc")
    records = [IndexRecord(row["url"], row["warc_filename"], row["warc_record_offset"], row["warc_record_length"],
                           row["fetch_redirect"]) for row in rows]
    return Crawl(root, index, records)


def rows_of(robots: Any) -> list[tuple[Any, ...]]:
    pandas = pytest.importorskip("pandas")
    frame = batch.decide(URLS, AGENTS, robots, processes=1)
    return [tuple(None if pandas.isna(value) else value for value in row) for row in frame.itertuples(index=False)]


def hosts_of(captures: list[Capture]) -> list[str]:
    return sorted({urlsplit(capture.url).hostname or "" for capture in captures})


# -- a server of byte ranges ---------------------------------------------------------------------


def ranges(path: Path) -> Any:
    """A handler serving ``path`` as a server of Common Crawl's files does: ``Range: bytes=a-b``
    answered with a 206 and exactly those bytes (a range past the end: 416)."""
    data = path.read_bytes()

    def handler(exchange: Exchange) -> None:
        found = re.fullmatch(r"bytes=(\d+)-(\d*)", exchange.request.headers.get("range", ""))
        if exchange.request.method != "GET" or found is None:
            respond(400, b"ranges only\n")(exchange)
            return
        first = int(found[1])
        last = min(int(found[2]) if found[2] else len(data) - 1, len(data) - 1)
        if first >= len(data):
            respond(416, b"", {"Content-Range": f"bytes */{len(data)}"})(exchange)
            return
        respond(206, data[first:last + 1], {"Content-Range": f"bytes {first}-{last}/{len(data)}"})(exchange)

    return handler


@pytest.fixture
def server(crawl: Crawl) -> Iterator[HTTPServer]:
    with HTTPServer() as running:
        for name in NAMES:
            running.route("/" + name, ranges(crawl.root / name))
        yield running


def asked(server: HTTPServer) -> list[tuple[str, int, int]]:
    """(file, first byte, last byte) of every request the server got."""
    found = []
    for request in server.requests:
        match = re.fullmatch(r"bytes=(\d+)-(\d+)", request.headers.get("range", ""))
        assert request.method == "GET" and match is not None, f"a request without a byte range: {request.raw!r}"
        found.append((request.path.lstrip("/"), int(match[1]), int(match[2])))
    return found


def http_options() -> dict[str, Any]:
    import aiohttp

    return {"client_kwargs": {"timeout": aiohttp.ClientTimeout(total=TIMEOUT)}}


# -- the tests -----------------------------------------------------------------------------------


def test_captures_selected_from_the_index_decide_as_the_whole_warc_files(crawl: Crawl) -> None:
    """F1-F9 unchanged: every site selected by host, read record by record from local files,
    gives exactly the rows (and the audit) of the whole WARC files (several captures of a URL,
    http and https, a chain across records and files, an HTML target, a 503 then a 200, a 200
    then a 404)."""
    archive = batch.captures_from_index(crawl.index, prefix=crawl.root, hosts=hosts_of(ALL))
    assert len(archive) == len({capture.url for capture in ALL})
    assert rows_of(archive) == rows_of(crawl.warcs)
    assert archive.bad_records == ()
    from robotrules.batch import audit

    by_index = audit.table(archive, ["GPTBot", "FooBot"], processes=1)
    assert by_index.equals(audit.table(archive_of(crawl.warcs), ["GPTBot", "FooBot"], processes=1))  # audits alike


def test_ranged_reads_from_a_server_fetch_exactly_the_selected_byte_ranges(crawl: Crawl, server: HTTPServer) -> None:
    """Reading from an fsspec URL (a server on 127.0.0.1): one ranged GET per selected record,
    each for exactly its bytes, nothing else asked for; the rows equal the whole files'."""
    hosts = {"dup.example", "flaky.example", "gone.example", "soft404.example", "site3.example"}
    archive = batch.captures_from_index(crawl.index, prefix=server.url("/"), hosts=hosts, storage_options=http_options())
    got = asked(server)
    assert sorted(got) == sorted(crawl.ranges_of(hosts))  # each range once
    wanted = [url for url in URLS if urlsplit(url).hostname in hosts]
    local = batch.decide(wanted, AGENTS, crawl.warcs, processes=1)
    assert batch.decide(wanted, AGENTS, archive, processes=1).equals(local)


def test_selecting_a_host_reads_only_that_hosts_records_and_its_redirect_targets(crawl: Crawl,
                                                                                  server: HTTPServer) -> None:
    """Selection by host reads that host's records only; a redirect leading to another host (F3)
    reads the target's record too, in a later round, and nothing of any other host."""
    batch.captures_from_index(crawl.index, prefix=server.url("/"), hosts=["flaky.example"],
                              storage_options=http_options())
    assert sorted(asked(server)) == sorted(crawl.ranges_of({"flaky.example"}))
    server.requests.clear()
    archive = batch.captures_from_index(crawl.index, prefix=server.url("/"), hosts=["www.chain.example"],
                                        storage_options=http_options())
    assert sorted(asked(server)) == sorted(crawl.ranges_of({"www.chain.example", "cdn.other.example"}))
    row = batch.decide(["https://www.chain.example/chained"], ["*"], archive, processes=1).iloc[0]
    assert (bool(row["allowed"]), row["rule"]) == (False, "Disallow: /chained")


def test_selecting_by_url_reads_the_robots_url_of_each_and_follows_its_chain(crawl: Crawl) -> None:
    """S1: a page URL selects its robots.txt URL (its scheme's only: http and https are apart);
    the chain it starts is read to its end, an HTML page included (F3)."""
    chain = batch.captures_from_index(crawl.index, prefix=crawl.root, urls=["http://chain.example/some/page"])
    assert sorted(chain.store.urls()) == ["http://chain.example/robots.txt", "https://cdn.other.example/robots/chain.txt",
                                          "https://chain.example/robots.txt", "https://www.chain.example/robots.txt"]
    home = batch.captures_from_index(crawl.index, prefix=crawl.root, urls=["https://home.example/shop"])
    assert sorted(home.store.urls()) == ["https://home.example/", "https://home.example/robots.txt"]
    both = batch.captures_from_index(crawl.index, prefix=crawl.root, urls=["http://both.example/"])
    assert list(both.store.urls()) == ["http://both.example/robots.txt"]


def test_the_selection_reads_only_the_robotstxt_subset_of_the_given_crawl(crawl: Crawl, tmp_path: Path) -> None:
    """The ``subset=warc`` partition (whose offsets are no record) is never read; ``crawls``
    selects the ``crawl=`` partition, and another crawl's rows are left alone."""
    index = write_index(tmp_path / "index", index_rows(crawl.root, NAMES[0]))
    write_index(index, [{**row, "warc_record_offset": row["warc_record_offset"] + 1} for row in index_rows(crawl.root, NAMES[0])],
                crawl="CC-MAIN-2099-01")
    hosts = hosts_of(ALL)
    assert select_records(crawl.index, hosts=hosts) == sorted(crawl.records, key=lambda r: (r.warc_filename, r.offset))
    chosen = select_records(index, hosts=hosts, crawls=[CRAWL])
    assert {record.warc_filename for record in chosen} == {NAMES[0]} and {(r.warc_filename, r.offset) for r in chosen} <= {(r.warc_filename, r.offset) for r in crawl.records}
    assert len(select_records(index, hosts=hosts)) == 2 * len(chosen)


def test_a_range_that_holds_no_whole_record_is_a_damaged_record(crawl: Crawl, tmp_path: Path) -> None:
    """Issue #16 for ranges: a length cut short, a length that runs into the next record, a
    length that holds two records, an offset inside a record and a range past the end of the
    file are each a damaged record, placed in its WARC file; raised by default, listed and
    skipped on request (the other records, the other capture of the same URL included, are read)."""
    rows = index_rows(crawl.root, NAMES[1])
    latest = {row["url"]: row for row in rows}  # of two captures of a URL, the later one (file order)
    cut = latest["https://flaky.example/robots.txt"]  # the 200: the 503 before it stays whole
    cut["warc_record_length"] -= 10
    over = latest["https://soft404.example/robots.txt"]
    over_end = over["warc_record_offset"] + over["warc_record_length"]
    over["warc_record_length"] += 30
    inside = latest["https://gone.example/robots.txt"]  # the 404: the 200 before it stays whole
    inside["warc_record_offset"] += 5
    two = latest["https://site1.example/robots.txt"]  # its range runs over the whole next record (site2)
    two["warc_record_length"] += latest["https://site2.example/robots.txt"]["warc_record_length"]
    size = (crawl.root / NAMES[1]).stat().st_size
    past = {**latest["https://site0.example/robots.txt"], "url": "https://past.example/robots.txt",
            "url_host_name": "past.example", "warc_record_offset": size - 20}
    index = write_index(tmp_path / "index", [*rows, past])
    location = str(crawl.root / NAMES[1])
    hosts = [*hosts_of(ALL), "past.example"]
    with pytest.raises(DamagedArchive) as raised:
        batch.captures_from_index(index, prefix=crawl.root, hosts=hosts)
    assert raised.value.record.path == location
    archive = batch.captures_from_index(index, prefix=crawl.root, hosts=hosts, skip_bad_records=True)
    damaged = {bad.offset: bad.detail for bad in archive.bad_records}
    assert {bad.path for bad in archive.bad_records} == {location}
    assert sorted(damaged) == sorted([cut["warc_record_offset"], over_end, inside["warc_record_offset"], size - 20,
                                      two["warc_record_offset"]])
    assert "holds 2 records, not one" in damaged[two["warc_record_offset"]]
    assert "cut short" in damaged[cut["warc_record_offset"]] and "cut short" in damaged[size - 20]
    assert "make no record" in damaged[over_end]
    assert "no WARC record starts here" in damaged[inside["warc_record_offset"]]
    flaky, gone = archive.get("https://flaky.example/robots.txt"), archive.get("https://gone.example/robots.txt")
    assert (flaky and flaky.status, gone and gone.status) == (503, 200)  # the whole records of those URLs
    assert "https://soft404.example/robots.txt" not in archive
    assert "https://past.example/robots.txt" not in archive
    assert [n for n in range(6) if f"https://site{n}.example/robots.txt" in archive] == [0, 2, 3, 4, 5]


def test_a_record_read_by_range_keeps_to_the_size_limit(tmp_path: Path) -> None:
    """F9 through the index: a record whose body decodes to 16 MiB (gzip in a gzip member), read
    by its range with the bounded reader, counts its first 512,000 bytes only, and says so."""
    from tests.batch.warcs import FILLER, Record, bomb_body, gzipped, write

    head, tail, megabytes = b"User-agent: *\nDisallow: /early\n# ", b"\nDisallow: /late\n", 16
    gz = gzipped(bomb_body(head, megabytes, tail))
    plain_size = len(head) + megabytes * len(FILLER) + len(tail)
    records = [Record("http://gzip.test/robots.txt", [gz], len(gz), headers=[("Content-Encoding", "gzip")]),
               Record("http://plain.test/robots.txt", bomb_body(head, megabytes, tail), plain_size)]
    name = f"{FOLDER}/bomb.warc.gz"
    (tmp_path / FOLDER).mkdir(parents=True)
    offsets = write(tmp_path / name, records)
    ends = [*offsets[1:], (tmp_path / name).stat().st_size]
    rows = [{"url": record.url, "url_host_name": urlsplit(record.url).hostname, "warc_filename": name,
             "warc_record_offset": start, "warc_record_length": end - start}
            for record, start, end in zip(records, offsets, ends, strict=True)]
    index = write_index(tmp_path / "index", rows)
    archive = batch.captures_from_index(index, prefix=tmp_path, hosts=["gzip.test", "plain.test"])
    frame = batch.decide([f"http://{host}/{path}" for host in ("gzip.test", "plain.test") for path in ("early", "late")],
                         ["*"], archive, processes=1)
    assert frame["allowed"].tolist() == [False, True, False, True]
    assert all("only its first 512,000 bytes count" in reason for reason in frame["reason"])


def test_a_server_that_ignores_range_requests_is_a_source_error(crawl: Crawl) -> None:
    """A server answering a ranged GET with the whole file cannot give records by range: a
    SourceError that says so (never a record read from the wrong bytes)."""
    with HTTPServer() as whole:
        for name in NAMES:
            whole.route("/" + name, respond(200, (crawl.root / name).read_bytes()))
        with pytest.raises(SourceError, match="does not honour Range"):
            batch.captures_from_index(crawl.index, prefix=whole.url("/"), hosts=["flaky.example"],
                                      storage_options=http_options())


def test_an_unusable_index_or_prefix_is_a_source_error(crawl: Crawl, tmp_path: Path) -> None:
    """A missing index, an index without the record columns, a WARC file missing under the
    prefix, and no selection at all are SourceErrors that say what is wrong."""
    with pytest.raises(SourceError, match="no such file"):
        batch.captures_from_index(tmp_path / "nothing", prefix=crawl.root, hosts=["dup.example"])
    pq.write_table(pa.table({"url": ["https://dup.example/robots.txt"]}), tmp_path / "thin.parquet")
    with pytest.raises(SourceError, match="warc_filename"):
        batch.captures_from_index(tmp_path / "thin.parquet", prefix=crawl.root, urls=["https://dup.example/"])
    with pytest.raises(SourceError, match="cannot read"):
        batch.captures_from_index(crawl.index, prefix=tmp_path, hosts=["dup.example"])
    with pytest.raises(SourceError, match="hosts or by URLs"):
        batch.captures_from_index(crawl.index, prefix=crawl.root)


# -- the command line --------------------------------------------------------------------------


def test_batch_with_cc_index_writes_the_rows_of_the_whole_warc_files(crawl: Crawl, tmp_path: Path) -> None:
    """``robotrules batch --cc-index``: the captures of the URLs' sites picked from the index and
    read by range from ``--warc-prefix`` (a local folder here) give the rows of ``--robots`` over
    the whole files; ``--host`` picks by host name instead (F1-F9, C1)."""
    pandas = pytest.importorskip("pandas")
    from tests.cli.harness import in_process

    (tmp_path / "urls.txt").write_text("\n".join(URLS) + "\n")
    env = {"ROBOTRULES_CACHE": str(tmp_path / "cache")}
    args = ("batch", "--urls", "urls.txt", "-a", "*", "-a", "FooBot/1.0")
    whole = in_process((*args, *(part for warc in crawl.warcs for part in ("--robots", str(warc))), "--output", "whole.csv"), cwd=tmp_path, env=env)
    picked = in_process((*args, "--cc-index", str(crawl.index), "--warc-prefix", str(crawl.root), "--output",
                         "picked.csv"), cwd=tmp_path, env=env)
    by_host = in_process((*args, "--cc-index", str(crawl.index), "--warc-prefix", str(crawl.root),
                          *(part for host in hosts_of(ALL) for part in ("--host", host)), "--output", "hosts.csv"),
                         cwd=tmp_path, env=env)
    assert whole.returncode == picked.returncode == by_host.returncode == 1, picked.stderr
    tables = [pandas.read_csv(tmp_path / name, keep_default_na=False, dtype=str)
              for name in ("whole.csv", "picked.csv", "hosts.csv")]
    assert tables[0].equals(tables[1]) and tables[0].equals(tables[2])


def test_audit_with_cc_index_audits_the_sites_asked_about(crawl: Crawl, tmp_path: Path) -> None:
    """``robotrules audit --cc-index --sites``: the sites' captures read by range, audited as the
    whole files audit them (their rows), with Common Crawl's outcome class on each row."""
    pandas = pytest.importorskip("pandas")
    from tests.cli.harness import in_process

    sites = ["https://flaky.example/", "https://gone.example/", "https://soft404.example/"]
    (tmp_path / "sites.txt").write_text("\n".join(sites) + "\n")
    env = {"ROBOTRULES_CACHE": str(tmp_path / "cache")}
    args = ("audit", "--sites", "sites.txt", "-a", "GPTBot")
    whole = in_process((*args, *(part for warc in crawl.warcs for part in ("--robots", str(warc))), "--output", "whole.csv"), cwd=tmp_path, env=env)
    picked = in_process((*args, "--cc-index", str(crawl.index), "--warc-prefix", str(crawl.root),
                         "--output", "picked.csv"), cwd=tmp_path, env=env)
    assert whole.returncode == picked.returncode == 0, picked.stderr
    tables = [pandas.read_csv(tmp_path / name, keep_default_na=False, dtype=str) for name in ("whole.csv", "picked.csv")]
    assert tables[0].equals(tables[1])
    assert dict(zip(tables[1]["site"], tables[1]["outcome"], strict=True)) == {
        "https://flaky.example/robots.txt": "with_rules", "https://gone.example/robots.txt": "allow_all",
        "https://soft404.example/robots.txt": "not_robots_txt"}


@pytest.mark.parametrize(("extra", "words"), [
    (("--robots", "x.warc.gz"), "either by --robots"),
    (("--engine", "spark"), "for the local engine"),
    (("--index", "i.sqlite3"), "--index keeps an index"),
    (("--refresh",), "for live fetching"),
])
def test_cc_index_with_an_option_it_cannot_go_with_is_a_one_line_usage_error(tmp_path: Path, extra: tuple[str, ...],
                                                                           words: str) -> None:
    """Exit code 2, one line, no traceback (the command line's convention)."""
    from tests.cli.conftest import assert_clean_error
    from tests.cli.harness import in_process

    (tmp_path / "urls.txt").write_text("https://a.example/\n")
    (tmp_path / "x.warc.gz").write_bytes(b"")
    done = in_process(("batch", "--urls", "urls.txt", "--cc-index", "index.parquet", *extra, "--output", "o.csv"),
                      cwd=tmp_path, env={"ROBOTRULES_CACHE": str(tmp_path / "cache")})
    assert words in assert_clean_error(done)


def test_host_without_cc_index_is_a_usage_error(tmp_path: Path) -> None:
    from tests.cli.conftest import assert_clean_error
    from tests.cli.harness import in_process

    (tmp_path / "urls.txt").write_text("https://a.example/\n")
    done = in_process(("batch", "--urls", "urls.txt", "--host", "a.example", "--output", "o.csv"), cwd=tmp_path,
                      env={"ROBOTRULES_CACHE": str(tmp_path / "cache")})
    assert "give --cc-index too" in assert_clean_error(done)
