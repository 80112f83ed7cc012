"""One reader for a row of captures, wherever the row is: a table file or a pandas DataFrame (issue #17).

The same capture, given as a CSV file, a JSON Lines file or a pandas DataFrame (as pandas reads
a CSV: missing cells NaN, numbers as floats), is judged alike (F2, F4, F5, F8): status as text
or as a float, a base64 body (``body_encoding``), a free-text error read as its failure kind, and
empty error cells that are no error.
"""

from __future__ import annotations

import base64
import csv
import json
from pathlib import Path

import pytest

from robotrules import batch
from robotrules.batch.inputs.tables import capture_of_row

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")

RULES = b"User-agent: *\nDisallow: /private\n"

ROWS = [  # robots_url, status, body, body_encoding, error
    ("https://a.test/robots.txt", "200", base64.b64encode(RULES).decode(), "base64", ""),
    ("https://b.test/robots.txt", "503.0", "", "", ""),
    ("https://c.test/robots.txt", "", "", "", "connection refused by the peer"),
    ("https://d.test/robots.txt", "404", "", "", ""),
    ("https://e.test/robots.txt", "200", RULES.decode(), "", ""),
]
URLS = [f"https://{host}.test/private/x" for host in "abcdef"]


def _csv(path: Path) -> Path:
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["robots_url", "status", "body", "body_encoding", "error"])
        writer.writerows(ROWS)
    return path


def _jsonl(path: Path) -> Path:
    with path.open("w") as out:
        for url, status, body, encoding, error in ROWS:
            row = {"robots_url": url, "status": status, "body": body, "body_encoding": encoding, "error": error}
            out.write(json.dumps(row) + "\n")
    return path


def _rows(frame: object) -> list[tuple[object, ...]]:
    return [tuple(None if pandas.isna(v) else v for v in row) for row in frame.itertuples(index=False)]  # type: ignore[attr-defined]


def test_the_same_captures_from_a_file_or_a_dataframe_give_the_same_rows(tmp_path: Path) -> None:
    """Issue #17, F2-F8: a CSV file, a JSON Lines file and the DataFrame pandas reads from that CSV
    (NaN cells, float statuses) give the same verdicts and reasons, row for row."""
    csv_path = _csv(tmp_path / "captures.csv")
    from_csv = _rows(batch.decide(URLS, ["FooBot"], robots=[csv_path], processes=1))
    from_jsonl = _rows(batch.decide(URLS, ["FooBot"], robots=[_jsonl(tmp_path / "c.jsonl")], processes=1))
    frame = pandas.read_csv(csv_path)
    assert frame["status"].dtype.kind == "f" and frame["error"].isna().any()  # what pandas really makes of it
    from_frame = _rows(batch.decide(URLS, ["FooBot"], robots=frame, processes=1))
    assert from_csv == from_jsonl == from_frame
    allowed = {row[0]: row[2] for row in from_csv}
    assert allowed == {URLS[0]: False, URLS[1]: False, URLS[2]: False, URLS[3]: True, URLS[4]: False,
                       URLS[5]: None}


@pytest.mark.parametrize(("row", "status", "error", "body"), [
    ({"url": "https://x.test/robots.txt", "status": 503.0, "error": float("nan")}, 503, "", b""),
    ({"url": "https://x.test/robots.txt", "status": "404"}, 404, "", b""),
    ({"url": "https://x.test/robots.txt", "status": None, "error": "read timeout"}, 0, "timeout", b""),
    ({"url": "https://x.test/robots.txt", "status": float("nan")}, 0, "other", b""),
    ({"url": "https://x.test/robots.txt", "status": 200, "body": "QUJD", "body_encoding": "base64"}, 200, "", b"ABC"),
])
def test_a_row_is_read_alike_whatever_its_cells_hold(row: dict[str, object], status: int, error: str,
                                                      body: bytes) -> None:
    """Issue #17, F8: numbers as text or floats, NaN as missing, errors as failure kinds, base64 bodies."""
    capture = capture_of_row(row, "row 1")
    assert (capture.status, capture.error, capture.body) == (status, error, body)
