"""robotrules.spark gives the same rows as the in-process decision (Archive.entry + decide_row).

Issue #11: the Spark path runs the same decision code as the local engine (F1-F9 over captures,
S1-S5 for the robots URL, G/R for the rules), with redirects that cross hosts resolved in rounds.
"""

from __future__ import annotations

import io
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from robotrules.answers import COLUMNS
from robotrules.batch import Archive, Capture, decide_row, governing
from robotrules.batch.engine import robots_url_of
from robotrules.core.policy import Policy

pytestmark = pytest.mark.jvm

T = 1_700_000_000.0
HTML = b"<!DOCTYPE html><html><head><title>Not here</title></head><body>Disallow: /</body></html>"

CAPTURES = [
    Capture("https://rules.example/robots.txt", 200, {"content-type": "text/plain"},
            b"User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: FooBot\nDisallow: /\n", T),
    # http -> https on the same host, then the rules
    Capture("http://hop.example/robots.txt", 301, {"location": "https://hop.example/robots.txt"}, b"", T),
    Capture("https://hop.example/robots.txt", 200, {}, b"User-agent: *\nDisallow: /hop\n", T),
    # a chain crossing hosts: a.cross -> b.cross (relative Location) -> c.cross
    Capture("https://a.cross/robots.txt", 302, {"location": "https://b.cross/robots.txt"}, b"", T),
    Capture("https://b.cross/robots.txt", 307, {"location": "/moved/robots.txt"}, b"", T),
    Capture("https://b.cross/moved/robots.txt", 301, {"location": "https://c.cross/robots.txt"}, b"", T),
    Capture("https://c.cross/robots.txt", 200, {}, b"User-agent: barbot\nDisallow: /bar\n", T),
    # a redirect to a target the archive does not hold, and a loop
    Capture("https://lost.example/robots.txt", 301, {"location": "https://nowhere.example/robots.txt"}, b"", T),
    Capture("https://loop.example/robots.txt", 301, {"location": "https://loop2.example/robots.txt"}, b"", T),
    Capture("https://loop2.example/robots.txt", 301, {"location": "https://loop.example/robots.txt"}, b"", T),
    Capture("https://missing.example/robots.txt", 404, {}, b"not found", T),
    Capture("https://down.example/robots.txt", 503, {"retry-after": "60"}, b"", T),
    Capture("https://oops.example/robots.txt", 500, {}, b"", T),
    Capture("https://html.example/robots.txt", 200, {"content-type": "text/html"}, HTML, T),
    Capture("https://silent.example/robots.txt", 0, {}, b"", T, "timeout"),
    # an older capture of a URL loses to the newer one
    Capture("https://twice.example/robots.txt", 200, {}, b"User-agent: *\nDisallow: /\n", T - 100),
    Capture("https://twice.example/robots.txt", 200, {}, b"User-agent: *\nDisallow: /old\n", T),
]
# a chain one hop over the limit (F3: six redirects are treated as a 404)
CAPTURES += [Capture(f"https://long{i}.example/robots.txt", 301, {"location": f"https://long{i + 1}.example/robots.txt"}, b"", T)
             for i in range(6)]
CAPTURES += [Capture("https://long6.example/robots.txt", 200, {}, b"User-agent: *\nDisallow: /\n", T)]

PAGES = ["/", "/private/x", "/private/open/y", "/hop/z", "/bar/q", "/old/p", "/ok"]
HOSTS = ["rules.example", "hop.example", "a.cross", "lost.example", "loop.example", "missing.example",
         "down.example", "oops.example", "html.example", "silent.example", "twice.example", "long0.example",
         "unseen.example"]
SCHEMES = {"hop.example": "http"}
URLS = [f"{SCHEMES.get(h, 'https')}://{h}{p}" for h in HOSTS for p in PAGES] + ["mailto:someone@example.com", "not a url"]
AGENTS = ["*", "FooBot/2.1", "Mozilla/5.0 (compatible; BarBot/1.0; +https://bar.example)"]


def expected_rows(captures: list[Capture], pairs: list[tuple[str, str]], policy: Policy | None = None) -> list[tuple[Any, ...]]:
    """What the in-process decision says: Archive.entry judged as of its capture, then decide_row."""
    policy = policy or Policy()
    archive = Archive(captures)
    rows = []
    for url, agent in pairs:
        robots = robots_url_of(url)
        if robots is None:
            rows.append(decide_row(url, agent, None))
            continue
        entry = archive.entry(robots, policy)
        gov = governing(robots, entry, policy, entry.fetched_at if entry else 0.0)
        rows.append(decide_row(url, agent, gov))
    return sorted(rows, key=repr)


def captures_df(spark: Any, captures: list[Capture]) -> Any:
    return spark.createDataFrame(
        [(c.url, c.status, json.dumps(dict(c.headers)), c.body, c.fetched_at, c.error) for c in captures],
        "url string, status int, headers string, body binary, fetched_at double, error string",
    )


@pytest.fixture(scope="module")
def urls_df(spark: Any) -> Any:
    # half the URLs carry their own agent, the others get every agent of the call
    rows = [(u, AGENTS[i % 3] if i % 2 else None) for i, u in enumerate(URLS)]
    return spark.createDataFrame(rows, "url string, agent string")


def pairs_for(agents: list[str]) -> list[tuple[str, str]]:
    out = []
    for i, url in enumerate(URLS):
        if i % 2:
            out.append((url, AGENTS[i % 3]))
        else:
            out.extend((url, a) for a in agents)
    return out


def test_spark_rows_equal_the_in_process_decision_for_every_status_redirect_and_agent(spark: Any, urls_df: Any) -> None:
    """200, 3xx chains (same host, across hosts, lost target, loop, over the limit), 404, 5xx, a
    response-less capture, an HTML body, an uncaptured site and URLs without a robots.txt (F1-F9)."""
    from robotrules import spark as rs

    result = rs.decide(urls_df, captures_df(spark, CAPTURES), ["*", "FooBot"])
    assert tuple(result.columns) == COLUMNS
    got = rs.collect_rows(result)
    want = expected_rows(CAPTURES, pairs_for(["*", "FooBot"]))
    assert got == want
    by_url = {(r[0], r[1]): r for r in got}
    assert by_url[("https://down.example/", "*")][2] is False  # a captured 503 disallows everything
    assert by_url[("https://missing.example/private/x", "*")][2] is True  # a 404 allows everything
    assert by_url[("https://unseen.example/ok", "*")][2] is None  # nothing captured: unknown


def test_salt_buckets_for_giant_sites_do_not_change_the_rows(spark: Any, urls_df: Any) -> None:
    """Spreading one robots URL's rows over several buckets copies its entry, never changes a row."""
    from robotrules import spark as rs

    three = rs.collect_rows(rs.decide(urls_df, captures_df(spark, CAPTURES), ["*"], buckets=3))
    assert three == expected_rows(CAPTURES, pairs_for(["*"]))


def test_a_redirect_chain_across_hosts_is_resolved_to_the_target_rules(spark: Any) -> None:
    """F3: a.cross -> b.cross -> b.cross/moved -> c.cross: c.cross's rules decide a.cross's URLs."""
    from robotrules import spark as rs

    urls = spark.createDataFrame([("https://a.cross/bar/1", "barbot"), ("https://a.cross/foo", "barbot")], "url string, agent string")
    rows = rs.collect_rows(rs.decide(urls, captures_df(spark, CAPTURES)))
    assert [(r[0], r[2], r[4]) for r in rows] == [("https://a.cross/bar/1", False, "Disallow: /bar"), ("https://a.cross/foo", True, "")]


def write_warc(path: Path, captures: list[Capture]) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=str(path).endswith(".gz"))
        for c in captures:
            if c.status == 0:
                continue  # no response to record
            http = StatusAndHeaders(f"{c.status} X", [*c.headers.items(), ("Content-Length", str(len(c.body)))],
                                    protocol="HTTP/1.1")
            when = datetime.fromtimestamp(c.fetched_at or T, timezone.utc)
            record = writer.create_warc_record(c.url, "response", payload=io.BytesIO(c.body), http_headers=http,
                                               warc_headers_dict={"WARC-Date": when.strftime("%Y-%m-%dT%H:%M:%SZ")})
            writer.write_record(record)


def test_warc_parquet_and_jsonl_captures_give_the_same_rows_as_a_dataframe(spark: Any, urls_df: Any, tmp_path: Path) -> None:
    """Captures read from files (WARC read in the executors) decide as the same captures given in memory."""
    pd = pytest.importorskip("pandas")
    from robotrules import spark as rs

    answered = [c for c in CAPTURES if c.status != 0 and c.url != "https://twice.example/robots.txt"]
    first, second = answered[: len(answered) // 2], answered[len(answered) // 2:]
    warc = tmp_path / "robots.warc.gz"
    write_warc(warc, first)
    table = pd.DataFrame({"robots_url": [c.url for c in second], "status": [c.status for c in second],
                          "headers": [json.dumps(dict(c.headers)) for c in second],
                          "body": [c.body.decode("utf-8") for c in second], "fetched_at": [c.fetched_at for c in second]})
    jsonl = tmp_path / "more.jsonl"
    table.iloc[:3].to_json(jsonl, orient="records", lines=True)
    parquet = tmp_path / "rest.parquet"
    table.iloc[3:].to_parquet(parquet)
    got = rs.collect_rows(rs.decide(urls_df, [warc, jsonl, parquet], ["*"]))
    assert got == expected_rows(answered, pairs_for(["*"]))
    from robotrules import batch

    local = batch.decide([(u, AGENTS[i % 3] if i % 2 else None) for i, u in enumerate(URLS)], ["*"],
                         [str(warc), str(jsonl), str(parquet)], processes=1)
    local_rows = sorted((tuple(None if v is pd.NA else v for v in r) for r in local.itertuples(index=False)), key=repr)
    assert [tuple(r) for r in local_rows] == got  # the local engine gives the same rows


def test_run_job_writes_one_output_file_per_format_with_the_batch_columns(spark: Any, tmp_path: Path) -> None:
    """run_job (the spark half of `robotrules batch --engine spark`) writes one .parquet file; write()
    makes .csv and .jsonl files with the same columns."""
    pd = pytest.importorskip("pandas")
    from robotrules import spark as rs

    urls = tmp_path / "urls.txt"
    urls.write_text("# a comment\nhttps://rules.example/private/x\nhttps://down.example/a\n\nhttps://unseen.example/\n")
    warc = tmp_path / "caps.warc"
    write_warc(warc, CAPTURES)
    want = expected_rows(CAPTURES, [(u, "FooBot") for u in
                                    ["https://rules.example/private/x", "https://down.example/a", "https://unseen.example/"]])
    out = tmp_path / "out.parquet"
    assert rs.run_job(urls, [warc], out, ["FooBot"], spark=spark) == 3
    frame = pd.read_parquet(out)
    assert tuple(frame.columns) == COLUMNS
    got = sorted(tuple(None if v is None or v != v else v for v in row) for row in frame.itertuples(index=False))
    assert [(r[0], r[2], r[6]) for r in got] == [(r[0], r[2], r[6]) for r in want]
    small = spark.createDataFrame([tuple(r) for r in want], rs.OUTPUT_SCHEMA)
    for name, read in (("out.csv", pd.read_csv), ("out.jsonl", lambda p: pd.read_json(p, lines=True))):
        rs.write(small, tmp_path / name)
        written = read(tmp_path / name)
        assert tuple(written.columns) == COLUMNS
        assert sorted(written["url"]) == [r[0] for r in want]


def test_a_spark_run_counts_the_rows_it_writes_as_the_local_engine_counts_them(spark: Any, tmp_path: Path) -> None:
    """batch.run(engine="spark") reports the local engine's counts (rows, allowed, disallowed,
    unknown) for every output kind, and run_job for a folder of part files: the rows are counted
    as Spark writes them, not read back from the output."""
    from robotrules import batch

    urls = tmp_path / "urls.txt"
    urls.write_text("".join(url + "\n" for url in URLS))
    warc = tmp_path / "caps.warc"
    write_warc(warc, CAPTURES)
    local = batch.run(urls, tmp_path / "local.csv", AGENTS, str(warc), processes=1)
    assert local.allowed and local.disallowed and local.unknown
    want = {"rows": local.rows, "allowed": local.allowed, "disallowed": local.disallowed, "unknown": local.unknown}
    for name in ("spark.parquet", "spark.csv", "spark.jsonl"):
        on_spark = batch.run(urls, tmp_path / name, AGENTS, [str(warc)], engine="spark")
        assert (on_spark.rows, on_spark.allowed, on_spark.disallowed, on_spark.unknown) == tuple(want.values()), name
    from robotrules import spark as rs

    counted: dict[str, int] = {}  # a folder of part files (what a cluster's file system gets)
    assert rs.run_job(urls, [warc], str(tmp_path / "folder.parquet") + "/", AGENTS, spark=spark,
                      verdicts=counted) == local.rows
    assert counted == want


def test_bad_sources_get_a_clear_error(spark: Any, urls_df: Any, tmp_path: Path) -> None:
    """An unknown format or a table without a url column is a ValueError that says what is wrong."""
    from robotrules import spark as rs

    with pytest.raises(ValueError, match=r"not a robots\.txt source"):
        rs.decide(urls_df, [tmp_path / "robots.xlsx"])
    with pytest.raises(ValueError, match="url"):
        rs.decide(urls_df, spark.createDataFrame([(200,)], "status int"))
    with pytest.raises(ValueError, match=r"no robots\.txt sources given"):
        rs.run_job(tmp_path / "u.txt", [], tmp_path / "o.csv", spark=spark)


def test_now_replays_each_capture_as_of_then_as_the_local_engine_does(spark: Any) -> None:
    """F5-F6: given ``now``, captures are replayed as of ``now`` (as the local engine's
    ArchiveSource does), so a 503 captured 40 days earlier still disallows everything."""
    from robotrules import spark as rs
    from robotrules.batch.engine import ArchiveSource

    captures = [c for c in CAPTURES if c.url in ("https://down.example/robots.txt", "https://rules.example/robots.txt")]
    now = T + 40 * 86400
    pairs = [("https://down.example/a", "*"), ("https://rules.example/private/x", "*")]
    source = ArchiveSource(Archive(captures), Policy(), "google", now)
    want = sorted((decide_row(url, agent, source.governing(robots_url_of(url) or "")) for url, agent in pairs), key=repr)
    urls = spark.createDataFrame(pairs, "url string, agent string")
    assert rs.collect_rows(rs.decide(urls, captures_df(spark, captures), now=now)) == want
    assert want[0][2] is False  # the 503 still disallows: judged as fetched at now, not 40 days stale
