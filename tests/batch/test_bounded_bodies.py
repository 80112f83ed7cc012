"""WARC bodies are read in bounded memory and kept as the size limit keeps them (issue #16-M4, F9).

A "zip bomb" archive of a few hundred kilobytes holds bodies that decode to 64 MiB each: under a
``Content-Encoding: gzip``, under record-level gzip only, chunked and gzipped, and brotli. Reading
it must hold no more than a few megabytes (measured with tracemalloc in a fresh interpreter), and
each body must decide as its first 512,000 bytes do, with a reason that says the rest was ignored.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from robotrules.batch import Capture, decide, read_captures
from robotrules.batch.inputs.warc import read_warc
from robotrules.core.lexer import SIZE_LIMIT
from tests.batch.warcs import FILLER, Record, bomb_body, chunked, gzipped, write
from tests.cli.conftest import Run

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")

HEAD = b"User-agent: *\nDisallow: /early\n# "
TAIL = b"\nDisallow: /late\n"
MEGABYTES = 64
CUT_NOTE = "(only its first 512,000 bytes count: the rest is ignored)"


def _brotli_bomb() -> Record | None:
    """A ``br`` body of 64 MiB, when brotli has a bounded decoder (1.2 or later)."""
    try:
        import brotli  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        return None
    if not hasattr(brotli.Decompressor(), "can_accept_more_data"):
        return None
    packer = brotli.Compressor(quality=1)
    data = b"".join([packer.process(part) for part in bomb_body(HEAD, MEGABYTES, TAIL)] + [packer.finish()])
    return Record("http://br.test/robots.txt", [data], len(data), headers=[("Content-Encoding", "br")])


@pytest.fixture(scope="module")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A small .warc.gz whose bodies decode to 64 MiB each; the sites it holds."""
    gz = gzipped(bomb_body(HEAD, MEGABYTES, TAIL))
    size = len(HEAD) + MEGABYTES * len(FILLER) + len(TAIL)
    records = [
        Record("http://gzip.test/robots.txt", [gz], len(gz), headers=[("Content-Encoding", "gzip")]),
        Record("http://plain.test/robots.txt", bomb_body(HEAD, MEGABYTES, TAIL), size),
        Record.of("http://chunked.test/robots.txt", chunked(gz, 65536),
                  headers=[("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip")]),
    ]
    extra = _brotli_bomb()
    if extra is not None:
        records.append(extra)
    path = tmp_path_factory.mktemp("bomb") / "bomb.warc.gz"
    write(path, records)
    return path, [record.url.removesuffix("/robots.txt") for record in records]


PEAK = """
import importlib, json, sys, tracemalloc
from robotrules.batch.inputs import read_captures
for name in ("robotrules.batch.inputs.warc.reading", "robotrules.fetch.http", "warcio.archiveiterator", "brotli"):
    try:  # imported before counting: modules are not what is measured
        importlib.import_module(name)
    except ImportError:
        pass
tracemalloc.start()
found = [(c.url, c.status, len(c.body)) for c in read_captures(sys.argv[1])]
print(json.dumps({"peak": tracemalloc.get_traced_memory()[1], "captures": found}))
"""


def test_a_zip_bomb_warc_is_read_in_bounded_memory(bomb: tuple[Path, list[str]]) -> None:
    """#16-M4, F9: bodies that decode to 64 MiB each (record-level gzip, a gzip Content-Encoding,
    chunked, brotli) are read holding a few MiB at most, each kept to the limit and one byte."""
    path, sites = bomb
    assert path.stat().st_size < 2 * 1024 * 1024
    done = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["captures"] == [[f"{site}/robots.txt", 200, SIZE_LIMIT + 1] for site in sites]
    assert found["peak"] < 16 * 1024 * 1024, found["peak"]  # one decoded body alone would be 64 MiB


def test_a_zip_bomb_decides_as_its_first_512000_bytes_and_says_the_rest_was_ignored(
        robotrules: Run, bomb: tuple[Path, list[str]], tmp_path: Path) -> None:
    """#16-M4, F9: through the command line, a rule inside the first 512,000 bytes decides, one after
    them does not, and the reason says the body was cut."""
    path, sites = bomb
    (tmp_path / "urls.txt").write_text("".join(f"{site}/early\n{site}/late\n" for site in sites))
    done = robotrules("batch", "--urls", "urls.txt", "--robots", str(path), "--output", "out.csv", timeout=120)
    assert done.returncode == 1, done.stderr
    frame = pandas.read_csv(tmp_path / "out.csv")
    assert frame["allowed"].tolist() == [False, True] * len(sites)
    assert frame["rule"].fillna("").tolist() == ["Disallow: /early", ""] * len(sites)
    assert all(reason == f"200: rules from the body {CUT_NOTE}" for reason in frame["reason"]), frame["reason"]


def _one(path: Path, record: Record, gz: bool = True) -> Capture:
    write(path, [record], gz=gz)
    (capture,) = read_warc(str(path))
    return capture


def test_a_body_within_the_limit_is_kept_whole_and_not_flagged(tmp_path: Path) -> None:
    """F9: a body of exactly 512,000 bytes is all there; its reason says nothing was ignored."""
    body = b"User-agent: *\nDisallow: /x\n" + b"#" * (SIZE_LIMIT - 28) + b"\n"
    assert len(body) == SIZE_LIMIT
    capture = _one(tmp_path / "a.warc.gz", Record.of("http://a.test/robots.txt", body))
    assert capture.body == body
    frame = decide(["http://a.test/x"], robots=str(tmp_path / "a.warc.gz"), processes=1)
    assert frame["reason"].tolist() == ["200: rules from the body"]


def test_a_compressed_body_cut_short_is_a_protocol_failure_as_for_a_live_fetch(tmp_path: Path) -> None:
    """#16-M4, F8: a gzip body that ends before its end of stream cannot be used: the capture is a
    failed fetch (protocol), so the site is disallowed, as a live fetch of the same bytes is."""
    gz = gzipped([b"User-agent: *\nDisallow: /x\n" * 100])
    capture = _one(tmp_path / "a.warc.gz", Record.of("http://a.test/robots.txt", gz[: len(gz) // 2],
                                                     headers=[("Content-Encoding", "gzip")]))
    assert (capture.status, capture.error) == (0, "protocol")
    frame = decide(["http://a.test/y"], robots=str(tmp_path / "a.warc.gz"), processes=1)
    assert frame["allowed"].tolist() == [False] and "protocol error" in frame["reason"][0]


def test_a_404_with_an_undecodable_body_is_still_a_404(tmp_path: Path) -> None:
    """F4: only a 2xx body is needed; a 404 whose body does not decode still means full allow."""
    capture = _one(tmp_path / "a.warc.gz", Record.of("http://a.test/robots.txt", b"not gzip at all \x00\x01",
                                                     status=404, headers=[("Content-Encoding", "br, zstd")]))
    assert (capture.status, capture.body) == (404, b"")


@pytest.mark.parametrize(("headers", "payload"), [
    ([("Transfer-Encoding", "chunked")], chunked(b"User-agent: *\nDisallow: /x\n", 7)),
    ([("Transfer-Encoding", "chunked")], b"User-agent: *\nDisallow: /x\n"),  # said chunked, stored de-chunked
    ([("Content-Encoding", "gzip")], b"User-agent: *\nDisallow: /x\n"),  # said gzip, stored decoded
    ([("Content-Encoding", "deflate")], gzipped([b"User-agent: *\nDisallow: /x\n"])[10:-8]),  # bare deflate
    ([("Content-Encoding", "x-gzip"), ("Transfer-Encoding", "chunked")],
     chunked(gzipped([b"User-agent: *\nDisallow: /x\n"]), 5)),
], ids=["chunked", "not-really-chunked", "not-really-gzip", "bare-deflate", "chunked-gzip"])
def test_payloads_are_decoded_as_crawlers_store_them(tmp_path: Path, headers: list[tuple[str, str]],
                                                     payload: bytes) -> None:
    """#16-M4: de-chunked and decoded as a stream, with warcio's leniency for payloads stored decoded
    under their original headers."""
    capture = _one(tmp_path / "a.warc.gz", Record.of("http://a.test/robots.txt", payload, headers=headers))
    assert (capture.status, capture.body) == (200, b"User-agent: *\nDisallow: /x\n")


def test_bodies_of_tables_of_captures_are_kept_as_warc_bodies_are(tmp_path: Path) -> None:
    """#16-M4, F9: a table's body over the limit is kept to the limit and one byte, and flagged alike."""
    body = HEAD + b"y" * 600_000 + TAIL
    pandas.DataFrame({"robots_url": ["http://t.test/robots.txt"], "status": [200], "body": [body]}).to_parquet(
        tmp_path / "c.parquet")
    (capture,) = read_captures(str(tmp_path / "c.parquet"))
    assert capture.body == body[: SIZE_LIMIT + 1]
    frame = decide(["http://t.test/early", "http://t.test/late"], robots=str(tmp_path / "c.parquet"), processes=1)
    assert frame["allowed"].tolist() == [False, True]
    assert frame["reason"][0].endswith(CUT_NOTE)


def test_header_lines_past_a_mebibyte_are_a_damaged_record(tmp_path: Path) -> None:
    """#16-M4: a header that decompresses to megabytes is not read into memory: the record is damaged."""
    from robotrules.errors import DamagedArchive

    path = tmp_path / "a.warc.gz"
    offsets = write(path, [Record.of("http://ok.test/robots.txt", b"User-agent: *\nDisallow: /\n"),
                           Record.of("http://big.test/robots.txt", b"", headers=[("X-Big", "z" * (2 << 20))])])
    with pytest.raises(DamagedArchive, match="header lines run past") as raised:
        list(read_warc(str(path)))
    assert raised.value.offset == offsets[1]
