"""robotrules installs as its users install it, and what they get passes the suites.

Every build here is the one a user runs: a clean copy of the source (what ``git`` tracks, no
build state), a fresh virtual environment, pip's or ``build``'s isolated build environment
(never ``--no-build-isolation``, which once hid an install that failed for every user), and
nothing of the test environment visible to the build. The installed package is then imported
from that environment, and the conformance, spec, core and property suites run against it.

Slow (each build compiles the core with mypyc): marked ``packaging``; deselect with
``-m "not packaging"`` for a quick run. Needs network access to the package index, or its cache.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import robotrules

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[2]
SUITES = ["tests/conformance", "tests/spec", "tests/core", "tests/properties"]
RUNNER = ["pytest>=8", "hypothesis>=6.100", "jwm.robotstxt>=1.0.8", "http-sf>=1.5"]
"""What the suites above need beside robotrules itself (a subset of the ``test`` extra)."""

BUILD_TIMEOUT = 900
PROBE = (
    "import importlib.metadata as m, importlib.util as u, json, robotrules, robotrules.core.matcher as c;"
    "print(json.dumps({'compiled': robotrules.core.COMPILED, 'version': robotrules.__version__,"
    "'metadata': m.version('robotrules'), 'core': c.__file__, 'build': robotrules.core.CORE_BUILD,"
    "'httpx': u.find_spec('httpx') is not None}))"
)


def _user_env(**extra: str) -> dict[str, str]:
    """The environment of a user's shell: none of this run's virtualenv or Python path, and
    Python keeping its bytecode as it does by default (the fresh environments' pip compiles none
    when the run's ``PIP_COMPILE=0`` says so: each module is compiled once, when first imported)."""
    drop = {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "ROBOTRULES_PURE", "ROBOTRULES_EXPECT_COMPILED", "PIP_NO_BUILD_ISOLATION",
            "PYTHONDONTWRITEBYTECODE"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return env | extra


def _run(args: list[str | Path], *, cwd: Path | None = None, env: dict[str, str] | None = None,
         timeout: int = BUILD_TIMEOUT) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env or _user_env(), capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done


def _clean_copy(destination: Path) -> Path:
    """What a fresh clone holds: the files git knows (tracked or new, not ignored), no build state."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=False)
    if listed.returncode != 0:  # not a git checkout (an unpacked sdist): copy without build state
        shutil.copytree(ROOT, destination, ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache", "*.so"))
        return destination
    for name in listed.stdout.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, destination / name)
    return destination


class Venv:
    """A fresh virtual environment, as ``python -m venv`` makes it for a user, without a pip of its
    own: this run's pip installs into it (``pip --python``, as ``build`` does for its isolated
    environments). The install is the same, pip's isolated builds run on the environment's Python;
    seeding a copy of pip into each environment (ensurepip) cost about 5 CPU-seconds apiece."""

    def __init__(self, path: Path) -> None:
        _run([sys.executable, "-m", "venv", "--without-pip", path])
        self.path = path
        self.python = path / "bin" / "python"

    def pip(self, *args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """This run's pip, run by the environment's Python on the environment (``--python``)."""
        return _run([sys.executable, "-m", "pip", "--python", self.python, "--disable-pip-version-check", *args],
                    env=env)

    def probe(self) -> dict[str, object]:
        """What the installed package says of itself, imported from outside any source tree."""
        done = _run([self.python, "-c", PROBE], cwd=self.path)
        found: dict[str, object] = json.loads(done.stdout)
        return found

    def command(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        """The installed ``robotrules`` console script, whatever its exit code."""
        return subprocess.run([str(self.path / "bin" / "robotrules"), *args], cwd=cwd or self.path, env=_user_env(),
                              capture_output=True, text=True, timeout=120, check=False)

    def run_suites(self) -> str:
        """The suites, run by this environment's Python against its installed robotrules."""
        # The quick Hypothesis profile, every 6th corpus link (about 115,000 comparisons with
        # the reference, whose parse of the file for each one is most of this run's time) and a
        # quarter of the generated differential cases: the outer run already runs all of them on
        # the same code (pure); this run proves the compiled build passes the same tests.
        env = _user_env(ROBOTRULES_EXPECT_COMPILED="1", HYPOTHESIS_PROFILE="quick",
                        ROBOTRULES_CORPUS_STRIDE=os.environ.get("ROBOTRULES_CORPUS_STRIDE", "6"),
                        ROBOTRULES_DIFF_CASES=os.environ.get("ROBOTRULES_DIFF_CASES", "25000"))
        # "-o addopts=": not the project's "-n auto" (pytest-xdist is not in this environment)
        done = subprocess.run([str(self.python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                               "-m", "not packaging", *SUITES],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800, check=False)
        tail = done.stdout[-4000:] + done.stderr[-2000:]
        assert done.returncode == 0, tail  # tests/conftest.py fails the run when the core is not the compiled one
        return tail


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _clean_copy(tmp_path_factory.mktemp("clean") / "robotrules")


@pytest.fixture
def source(clean: Path, tmp_path: Path) -> Path:
    """A clean copy of the source for one build: setuptools builds in the tree (``build/``), and
    a second build in the same tree would reuse the first one's compiled modules."""
    return Path(shutil.copytree(clean, tmp_path / "robotrules"))


@pytest.fixture(scope="module")
def built(clean: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``python -m build``: the sdist, then the wheel built from that sdist (both isolated)."""
    pytest.importorskip("build", reason="the 'build' package (test extra) runs the sdist round trip")
    source = Path(shutil.copytree(clean, tmp_path_factory.mktemp("build") / "robotrules"))
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--outdir", dist, source], cwd=source)
    return dist


def test_pip_install_dot_gives_the_pure_core_one_version_and_a_command_for_local_files(source: Path,
                                                                                       tmp_path: Path) -> None:
    """``ROBOTRULES_PURE=1 pip install .`` (pip's isolated build from the source tree, no extras)
    installs the pure-Python core without trying mypyc, and one source for the version:
    ``robotrules --version``, ``robotrules.__version__`` and the installed metadata agree, and
    ``--version`` says which core runs and why. The bare install's ``robotrules`` command works
    for local files (lint and test with their exit codes, demo); ``check``, which fetches, asks
    for the ``cli`` extra in one line with exit code 2 before any fetch."""
    venv = Venv(tmp_path / "venv")
    done = venv.pip("install", "-v", source, env=_user_env(ROBOTRULES_PURE="1"))
    assert "could not be built" not in done.stdout + done.stderr
    found = venv.probe()
    assert found["compiled"] is False
    assert str(found["core"]).endswith(".py")
    assert found["version"] == found["metadata"] == robotrules.__version__
    assert found["httpx"] is False, "a bare install brings no httpx"
    shown = venv.command("--version")
    assert shown.stdout == f"robotrules {robotrules.__version__} (pure-Python core: ROBOTRULES_PURE=1 at build)\n"
    (tmp_path / "robots.txt").write_text("user-agent: *\ndisallow: /private/\n")
    (tmp_path / "bad.txt").write_text("disallow: /x\nuser-agent: *\n")  # a rule before any group: an error
    assert venv.command("lint", "robots.txt", cwd=tmp_path).returncode == 0
    linted = venv.command("lint", "bad.txt", cwd=tmp_path)
    assert linted.returncode == 1 and "rule-outside-group" in linted.stdout, linted
    assert venv.command("test", "robots.txt", "/public", cwd=tmp_path).returncode == 0
    assert venv.command("test", "robots.txt", "/private/x", cwd=tmp_path).returncode == 1
    assert venv.command("diff", "robots.txt", "bad.txt", cwd=tmp_path).returncode == 1
    assert venv.command("demo", cwd=tmp_path).returncode == 0
    checked = venv.command("check", "https://127.0.0.1:9/", cwd=tmp_path)
    assert checked.returncode == 2, checked
    assert checked.stderr == "robotrules: error: robotrules check needs httpx: pip install 'robotrules[cli]'\n"
    assert checked.stdout == ""


@pytest.mark.xdist_group("built-dist")  # one worker: one `python -m build` for these three
def test_python_m_build_makes_an_sdist_that_builds_the_compiled_wheel(built: Path) -> None:
    """The sdist holds everything the build needs (the in-tree backend, setup.py, license,
    changelog, py.typed, the web page's files), and the wheel that ``build`` makes from it holds the compiled core."""
    (sdist,) = built.glob("robotrules-*.tar.gz")
    (wheel,) = built.glob("robotrules-*.whl")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in ("_build/backend.py", "setup.py", "pyproject.toml", "LICENSE", "CHANGELOG.md", "README.md",
                   "src/robotrules/py.typed", "src/robotrules/_version.py",
                   "src/robotrules/service/static/index.html", "src/robotrules/service/static/app.js",
                   "src/robotrules/crawlers/ai-robots-txt.json", "src/robotrules/crawlers/ai-robots-txt.LICENSE"):
        assert needed in names, f"the sdist lacks {needed}"
    with zipfile.ZipFile(wheel) as archive:
        files = archive.namelist()
    assert "robotrules/py.typed" in files
    for page in ("index.html", "app.js", "style.css"):  # the web tester page, served by `robotrules serve`
        assert f"robotrules/service/static/{page}" in files, files
    for data in ("ai-robots-txt.json", "ai-robots-txt.LICENSE"):  # the ai.robots.txt snapshot and its licence
        assert f"robotrules/crawlers/{data}" in files, files
    compiled = {Path(name).name.split(".")[0] for name in files if name.startswith("robotrules/core/") and name.endswith(".so")}
    assert {"lexer", "matcher", "model", "robotstxt"} <= compiled, files
    assert "-cp3" in wheel.name, "a compiled wheel is specific to the Python version"


@pytest.mark.xdist_group("built-dist")  # one worker: one `python -m build` for these three
def test_the_wheel_metadata_is_ready_to_publish(built: Path) -> None:
    """Classifiers (Python versions, typing), an SPDX license expression, project URLs, the
    version from the one source, and the extras."""
    (wheel,) = built.glob("robotrules-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        (meta_name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        meta = Parser().parsestr(archive.read(meta_name).decode())
        license_files = [n for n in archive.namelist() if "/licenses/" in n]
    assert meta["Version"] == robotrules.__version__
    assert meta["License-Expression"] == "Apache-2.0"
    assert license_files, "the license text travels with the wheel"
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3.10" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")], "SPDX expression replaces license classifiers"
    urls = {entry.split(",")[0] for entry in meta.get_all("Project-URL") or []}
    assert {"Documentation", "Source", "Issues", "Changelog"} <= urls
    assert meta["Requires-Python"] == ">=3.10"
    assert {"http", "redis", "cli"} <= set(meta.get_all("Provides-Extra") or [])
    # The core needs only the standard library. The one runtime dependency is idna, for
    # robotrules.hosts (outside the core): host names mapped with UTS 46 as browsers and httpx
    # map them (S4); the standard library has only IDNA 2003, which maps some to other domains.
    runtime = [r for r in meta.get_all("Requires-Dist") or [] if "extra ==" not in r]
    # click: a bare install's robotrules command works for local files (lint, test, diff, demo).
    assert runtime == ["idna>=3.7", "click>=8.1"], runtime


@pytest.mark.xdist_group("built-dist")  # one worker: one `python -m build` for these three
def test_the_compiled_wheel_built_from_the_sdist_passes_the_suites(built: Path, tmp_path: Path) -> None:
    """The wheel ``build`` made from the sdist (the isolated build ``pip install`` of the sdist
    runs), installed with extras in a fresh venv, holds the compiled core and the crawler
    registry's data, and the compiled core passes the conformance (100% agreement with the
    reference), spec, core and property suites. (One compile serves the sdist round trip and the
    suites; ``pip install .`` from the tree is the pure install above and the no-compiler one.)"""
    (wheel,) = built.glob("robotrules-*.whl")
    venv = Venv(tmp_path / "venv")
    venv.pip("install", f"{wheel}[http,redis,cli]", *RUNNER)
    found = venv.probe()
    assert found["compiled"] is True, found
    assert found["version"] == found["metadata"] == robotrules.__version__
    assert str(found["core"]).endswith(".so"), found
    assert found["build"] == "compiled core"
    assert venv.command("--version").stdout == f"robotrules {robotrules.__version__} (compiled core)\n"
    done = _run([venv.python, "-c", "from robotrules.crawlers import COMMUNITY; print(len(COMMUNITY))"],
                cwd=tmp_path)
    assert int(done.stdout) == 166
    assert " passed" in venv.run_suites()


def test_without_a_c_compiler_pip_install_falls_back_to_the_pure_core(source: Path, tmp_path: Path) -> None:
    """``CC=false`` (no working C compiler): the install still succeeds, with the pure-Python
    core and one warning line saying why; ``robotrules.core.CORE_BUILD`` and ``robotrules
    --version`` keep the reason, which pip's quiet output hides. The backend finds out before
    it asks for mypy: pip fetches no mypy and runs no mypyc for a build that cannot compile."""
    venv = Venv(tmp_path / "venv")
    done = venv.pip("install", "-v", source, env=_user_env(CC="false"))
    warnings = [line for line in (done.stdout + done.stderr).splitlines()
                if "robotrules: the compiled core could not be built" in line]
    assert len(warnings) == 1, done.stderr[-3000:]
    assert "(false could not compile a test file against Python's headers: exit code 1)" in warnings[0]
    assert "installing the pure-Python core" in warnings[0]
    assert "Collecting mypy" not in done.stdout + done.stderr
    found = venv.probe()
    assert found["compiled"] is False
    # pip hides the warning; the install itself says why its core is pure Python
    assert str(found["build"]).startswith("pure-Python core: the compiled core could not be built: "), found
    shown = venv.command("--version").stdout
    assert shown == f"robotrules {robotrules.__version__} ({found['build']})\n"
