"""CI exercise of the atheris fuzz target (fuzz/fuzz_robots.py) without atheris.

DESIGN 10 (the parser never raises on any input), SPEC P2/P3: the seeds plus 2,000
deterministic random inputs (raw bytes, mutated and spliced seeds) go through the target.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
SEEDS = sorted((FUZZ_DIR / "seeds").iterdir())


def _load_target(name: str = "fuzz_robots_under_test"):
    spec = importlib.util.spec_from_file_location(name, FUZZ_DIR / "fuzz_robots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def target():
    return _load_target()


def test_fuzz_target_imports_without_atheris(monkeypatch):
    """The target must import cleanly when atheris is absent (it is an optional extra)."""
    monkeypatch.setitem(sys.modules, "atheris", None)  # makes `import atheris` raise ImportError
    module = _load_target("fuzz_robots_without_atheris")
    assert module.atheris is None
    assert callable(module.test_one_input)


def test_there_are_seeds():
    assert len(SEEDS) >= 15


@pytest.mark.parametrize("seed", SEEDS, ids=[p.name for p in SEEDS])
def test_fuzz_target_accepts_seed(target, seed):
    """P2/P3, DESIGN 10: every seed input runs through the target without an exception."""
    target.test_one_input(seed.read_bytes())


def _mutate(rng: random.Random, data: bytes, seeds: list[bytes]) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(5)
        pos = rng.randint(0, len(buf))
        if op == 0:
            buf[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif op == 1 and buf:
            del buf[pos:pos + rng.randint(1, 4)]
        elif op == 2:
            buf[pos:pos] = rng.choice([b"\n", b"\r", b"\r\n", b"*", b"$", b"%", b"#", b":", b"/",
                                       b"\xff\xfe", b"\x1f", b"user-agent:", b"disallow:", b"allow:",
                                       b"\xef\xbb\xbf", b"\xc3", b"index.html", b"%C3%A4"])
        elif op == 3:
            other = rng.choice(seeds)
            a = rng.randint(0, len(other))
            buf[pos:pos] = other[a:a + rng.randint(0, 40)]
        elif buf:
            buf[rng.randrange(len(buf))] = rng.randrange(256)
    return bytes(buf)


def _random_inputs(n: int = 2000) -> list[bytes]:
    rng = random.Random(0xF022)
    seeds = [p.read_bytes() for p in SEEDS]
    out = []
    for i in range(n):
        if i % 3 == 0:
            out.append(bytes(rng.randrange(256) for _ in range(rng.randint(0, 120))))
        else:
            out.append(_mutate(rng, rng.choice(seeds), seeds))
    return out


def test_fuzz_target_survives_2000_deterministic_random_inputs(target):
    """DESIGN 10: 2,000 deterministic random/mutated inputs; the first failing one is
    reported with its bytes so it can become a regression case (kind ``fuzz:``)."""
    for i, data in enumerate(_random_inputs()):
        try:
            target.test_one_input(data)
        except Exception as e:
            pytest.fail(f"input #{i} {data!r} raised {type(e).__name__}: {e}")
