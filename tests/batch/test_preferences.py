"""The optional preference columns of batch rows (issue #18): each URL's AI-use preferences for the
row's agent, exactly as ``RobotsTxt.usage(url, agent)`` gives them (A1-A7), through the Python API
and the real ``robotrules`` console script; rows without them keep today's schema exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from robotrules import batch, parse
from robotrules.answers import COLUMNS, arrow_schema, token_of
from robotrules.batch.engine import PREFERENCE_COLUMNS, robots_url_of, row_columns
from robotrules.core.usage import CATEGORIES
from tests.batch.conftest import write_answers_warc
from tests.batch.usage_sites import (
    PINNED,
    PREFERENCE_AGENTS,
    PREFERENCE_CAPTURES,
    PREFERENCE_SITES,
    PREFERENCE_URLS,
)
from tests.cli.conftest import Run, console_script  # noqa: F401 (the real console script)

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")
pyarrow = pytest.importorskip("pyarrow", reason="pyarrow (robotrules[batch]) is not installed")


def usage_of(url: str, agent: str) -> tuple[bool | None, ...]:
    """The oracle: what RobotsTxt.usage says for the URL, agent and category, from the body itself."""
    robots = robots_url_of(url) if url else None
    name = robots.split("//", 1)[1].split(".test", 1)[0] if robots else ""
    if name not in PREFERENCE_SITES:
        return (None,) * len(CATEGORIES)  # no rules decide: 404, 503, never captured, no robots.txt
    usage = parse(PREFERENCE_SITES[name]).usage(url, token_of(agent))
    return tuple(usage.preference(category) for category in CATEGORIES)


def plain(value: Any) -> Any:
    """A cell as Python: pandas' NA as None."""
    return None if value is pandas.NA or value is None else value


def test_the_preference_columns_are_what_usage_says_for_each_url_and_agent() -> None:
    """A1-A7 per row: the longest Content-Usage path decides (A2), equal paths combine with any n
    winning (A4), Content-Signal in the group or at the top of the file adds ai-input and
    ai-train (A7), a URL that may not be crawled has none (A3), and a site without rules has none."""
    frame = batch.decide(PREFERENCE_URLS, PREFERENCE_AGENTS, PREFERENCE_CAPTURES, preferences=True, processes=1)
    assert tuple(frame.columns) == (*COLUMNS, "train_ai", "search", "ai_input")
    assert all(str(frame[name].dtype) == "boolean" for name in PREFERENCE_COLUMNS)
    got = {(row.url, row.agent): tuple(plain(getattr(row, name)) for name in PREFERENCE_COLUMNS)
           for row in frame.itertuples(index=False)}
    assert len(got) == len(PREFERENCE_URLS) * len(PREFERENCE_AGENTS)
    for (url, agent), values in got.items():
        assert values == usage_of(url, agent), (url, agent)
    for key, values in PINNED.items():
        assert got[key] == values, key
    assert got["", "*"] == got["mailto:x@y.test", "GPTBot"] == (None, None, None)


READER_BODIES = [
    PREFERENCE_SITES["pref"],
    PREFERENCE_SITES["top"],
    # R3, R4 in Content-Usage paths: percent-encoding, wildcards, the end anchor; G4: merged groups
    (b"User-agent: *\nContent-Usage: /caf%C3%A9/ train-ai=n\nContent-Usage: /*.pdf$ search=n\n"
     b"Content-Usage: /a/*/b train-ai=y\nDisallow: /private\n\nUser-agent: FooBot\nContent-Usage: search=y\n"
     b"\nUser-agent: foobot\nContent-Usage: /x train-ai=n\nContent-Signal: ai-input=no\n"),
    # A5: statements that fail or state nothing; A7 in a group and at the top
    b"Content-Signal: ai-train=no\n\nUser-agent: *\nContent-Usage: Train-AI=n\nContent-Usage: /q train-ai=\"n\"\n",
    b"User-agent: *\nContent-Usage: /robots.txt train-ai=n\nDisallow: /\n",
]
READER_URLS = ["/", "/café/x", "/caf%C3%A9/x", "/doc.pdf", "/doc.pdf?x=1", "/a/1/b", "/a/b", "/private/y",
               "/x/1", "/q", "/open/page", "/mixed/a", "/no/y", "/robots.txt", "https://h.test/a%2fb?c#d"]


@pytest.mark.parametrize("mode", ["google", "rfc9309", "legacy1994"])
def test_the_preference_reader_gives_what_usage_gives_in_every_mode(mode: str) -> None:
    """A1-A7 (with R3, R4, G2-G4): the batch's reader, which parses each token's rules once, gives
    for every URL and agent what RobotsTxt.usage gives, in every mode (legacy1994: nothing)."""
    from robotrules.answers import Governing
    from robotrules.batch.engine.rows import PreferenceReader

    for body in READER_BODIES:
        robots = parse(body, mode=mode)
        reader = PreferenceReader(Governing("https://h.test/robots.txt", "rules", 200, "200", robots))
        for url in READER_URLS:
            for agent in ("*", "FooBot", "GPTBot", "Other"):
                usage = robots.usage(url, agent)
                want = tuple(usage.preference(category) for category in CATEGORIES)
                assert reader.preferences(url, agent) == want, (body, url, agent)
                assert reader.preferences(url, agent, robots.allowed(url, agent)) == want, (body, url, agent)


def test_without_preferences_the_rows_and_their_schema_are_unchanged(tmp_path: Path) -> None:
    """The default batch output keeps exactly the columns and types of answers.FIELDS, whatever the format."""
    frame = batch.decide(PREFERENCE_URLS, ["*"], PREFERENCE_CAPTURES, processes=1)
    assert tuple(frame.columns) == COLUMNS
    warc = _warc(tmp_path)
    urls = _urls(tmp_path)
    for suffix in ("parquet", "csv", "jsonl"):
        batch.run(urls, tmp_path / f"plain.{suffix}", ["*"], warc, processes=1)
    import pyarrow.parquet as pq

    assert pq.read_schema(tmp_path / "plain.parquet") == arrow_schema(pyarrow)
    assert (tmp_path / "plain.csv").read_text().splitlines()[0] == ",".join(COLUMNS)
    assert tuple(json.loads((tmp_path / "plain.jsonl").read_text().splitlines()[0])) == COLUMNS


def test_every_output_format_carries_the_preference_columns(tmp_path: Path) -> None:
    """Parquet (nullable booleans), CSV (true, false or empty) and JSON Lines (true, false, null)
    hold the same preference values as the DataFrame."""
    warc = _warc(tmp_path)
    urls = _urls(tmp_path)
    want = batch.decide(urls, ["*", "FooBot"], warc, preferences=True, processes=1)
    for suffix in ("parquet", "csv", "jsonl"):
        summary = batch.run(urls, tmp_path / f"out.{suffix}", ["*", "FooBot"], warc, processes=1, preferences=True)
        assert summary.rows == len(want)
    import pyarrow.parquet as pq

    schema = pq.read_schema(tmp_path / "out.parquet")
    assert schema.names == list(row_columns(preferences=True))
    assert all(schema.field(name).type == pyarrow.bool_() for name in PREFERENCE_COLUMNS)
    expected = [tuple(plain(v) for v in row) for row in want[list(PREFERENCE_COLUMNS)].itertuples(index=False)]
    parquet = pandas.read_parquet(tmp_path / "out.parquet")
    assert [tuple(plain(v) for v in row) for row in parquet[list(PREFERENCE_COLUMNS)].itertuples(index=False)] \
        == expected
    lines = (tmp_path / "out.csv").read_text().splitlines()
    assert lines[0] == ",".join(row_columns(preferences=True))
    cells = {"true": True, "false": False, "": None}
    assert [tuple(cells[c] for c in line.rsplit(",", 3)[1:]) for line in lines[1:]] == expected
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [tuple(row[name] for name in PREFERENCE_COLUMNS) for row in rows] == expected


def test_worker_processes_give_the_same_preference_columns() -> None:
    """The local engine's chunks decided in worker processes come back with the same preferences
    as decided in this process."""
    items = PREFERENCE_URLS * 3
    one = [row for block in batch.rows(items, PREFERENCE_AGENTS, PREFERENCE_CAPTURES, processes=1, chunk_size=7,
                                       preferences=True) for row in block]
    two = [row for block in batch.rows(items, PREFERENCE_AGENTS, PREFERENCE_CAPTURES, processes=2, chunk_size=7,
                                       preferences=True) for row in block]
    assert one == two
    assert [row[:len(COLUMNS)] for row in one] == [row for block in batch.rows(
        items, PREFERENCE_AGENTS, PREFERENCE_CAPTURES, processes=1, chunk_size=7) for row in block]
    assert all(row[len(COLUMNS):] == usage_of(row[0], row[1]) for row in one)


def test_rows_with_their_own_agent_get_that_agents_preferences() -> None:
    """A (url, agent) row is decided, preferences included, for its own agent only."""
    frame = batch.decide([("https://pref.test/", "GPTBot"), "https://top.test/", ("https://pref.test/", "Bingbot")],
                         ["FooBot"], PREFERENCE_CAPTURES, preferences=True, processes=1)
    got = [(row.agent, tuple(plain(getattr(row, name)) for name in PREFERENCE_COLUMNS))
           for row in frame.itertuples(index=False)]
    assert got == [("GPTBot", (None, None, None)), ("FooBot", (False, True, True)), ("Bingbot", (False, True, False))]


def test_batch_preferences_through_the_console_script(console_script: Run, tmp_path: Path) -> None:  # noqa: F811
    """``robotrules batch --preferences`` as a separate process (the installed console script):
    the CSV gains train_ai, search and ai_input with the API's values; without the flag the
    header is today's."""
    warc = _warc(tmp_path)
    urls = _urls(tmp_path)
    done = console_script("batch", "--urls", str(urls), "--robots", str(warc), "-a", "*", "-a", "GPTBot",
                          "--preferences", "--output", "with.csv", timeout=120)
    assert done.returncode == 1, done.stderr  # GPTBot is disallowed on pref.test
    assert "Traceback" not in done.stderr
    table = pandas.read_csv(tmp_path / "with.csv", keep_default_na=False)
    assert list(table.columns) == list(row_columns(preferences=True))
    want = batch.decide(urls, ["*", "GPTBot"], warc, preferences=True, processes=1)
    cells = {True: "true", False: "false", None: ""}
    for name in PREFERENCE_COLUMNS:
        assert [str(v).lower() if isinstance(v, bool) else v for v in table[name]] \
            == [cells[plain(v)] for v in want[name]], name
    plain_run = console_script("batch", "--urls", str(urls), "--robots", str(warc), "--output", "without.csv",
                               timeout=120)
    assert plain_run.returncode == 1, plain_run.stderr
    assert (tmp_path / "without.csv").read_text().splitlines()[0] == ",".join(COLUMNS)
    helped = console_script("batch", "--help")
    assert "--preferences" in helped.stdout


def _warc(tmp_path: Path) -> Path:
    answers: dict[str, Any] = {c.url: (c.status, dict(c.headers), c.body) for c in PREFERENCE_CAPTURES}
    return write_answers_warc(tmp_path / "prefs.warc.gz", answers)


def _urls(tmp_path: Path) -> Path:
    path = tmp_path / "urls.txt"
    path.write_text("".join(url + "\n" for url in PREFERENCE_URLS if url))
    return path


def test_a_crawler_that_ignores_the_global_group_is_decided_without_it_in_batch_rows() -> None:
    """A8: AdsBot-Google obeys only groups naming it: its row is allowed where '*' disallows,
    the reason says why, and its preferences are those of no group (the '*' group's are not its)."""
    from robotrules.answers import Governing
    from robotrules.batch.engine.rows import PreferenceReader, decide_url

    robots = parse(b"User-agent: *\nDisallow: /\nContent-Usage: train-ai=n\n")
    gov = Governing("https://site.test/robots.txt", "rules", 200, "robots.txt found", robots)
    rows = decide_url("https://site.test/page", ("AdsBot-Google", "Googlebot"), gov, reader=PreferenceReader(gov))
    ads, google = rows
    assert ads[2] is True and ads[3] == 0 and ads[7].endswith("AdsBot-Google ignores the group 'user-agent: *'")
    assert ads[len(COLUMNS):] == (None, None, None)
    assert google[2] is False and google[3] == 2
