import os

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def chapter_book(tmp_path, monkeypatch):
    """A temporary book (LDPCODE_ROOT) with one chapter folder, chapters/x; nbrun's record goes to its data/."""
    (tmp_path / "_toc.yml").write_text("root: intro\n")
    (tmp_path / "chapters" / "x").mkdir(parents=True)
    monkeypatch.setenv("LDPCODE_ROOT", str(tmp_path))
    return tmp_path


@pytest.fixture
def fake_rerun(monkeypatch):
    """``ldpcode.rerun`` without its work: papermill copies the notebook (each output path in the returned list),
    and the page build writes a page, the book's _config.yml and the notebook's copy, as the real build does."""
    from pathlib import Path

    import papermill

    from ldpcode import rerun

    calls = []

    def execute(src, dst, **kw):
        calls.append(dst)
        Path(dst).write_text(Path(src).read_text())

    def build(root, executed, book):
        html = book / "_build" / "html"
        html.mkdir(parents=True)
        (html / f"{executed.stem}.html").write_text("<p>page</p>")
        (book / "_config.yml").write_text("title: x\n")
        (book / executed.name).write_bytes(executed.read_bytes())  # as the real build copies it
        return html / f"{executed.stem}.html"

    monkeypatch.setattr(papermill, "execute_notebook", execute)
    monkeypatch.setattr(rerun, "_build", build)
    return calls


@pytest.fixture
def rng():
    import numpy as np

    return np.random.default_rng(12345)


# --- the fuzz suite (tests/robustness/test_fuzz.py) counts the bad inputs it throws and reports them here -------------
FUZZ_COUNT = {"tried": 0, "escaped": 0}


@pytest.fixture(scope="session")
def fuzz_count():
    return FUZZ_COUNT


def pytest_terminal_summary(terminalreporter):
    if FUZZ_COUNT["tried"]:
        if FUZZ_COUNT["escaped"]:
            line = f"fuzz: {FUZZ_COUNT['tried']} bad inputs, {FUZZ_COUNT['escaped']} NOT refused with a ValueError/TypeError naming its parameter"
        else:
            line = f"fuzz: {FUZZ_COUNT['tried']} bad inputs, every one a ValueError/TypeError naming its parameter"
        terminalreporter.write_line(line)


# Under pytest-xdist (the README's test command runs two workers) each worker counts its own bad inputs;
# the workers hand their counts to the controller, which prints the summary line above.
def pytest_sessionfinish(session):
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["fuzz_count"] = dict(FUZZ_COUNT)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    for key, value in getattr(node, "workeroutput", {}).get("fuzz_count", {}).items():
        FUZZ_COUNT[key] += value


# --- two tiers: `python -m pytest -m "not slow"` is the fast one (the unit tests of ldpcode, a couple of
# minutes on two cores); the README's test command runs everything. Slow: nbval over the chapters, the
# notebook bodies at their edge values, the built book in Chromium, the SIGINT tests (fresh processes),
# and the few unit tests marked @pytest.mark.slow where they are written.
SLOW_FILES = {"test_book_pages.py", "test_interrupt.py"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = os.path.basename(str(item.fspath))
        if name.endswith(".ipynb") or name in SLOW_FILES or name.startswith("test_notebook_edges_"):
            item.add_marker(pytest.mark.slow)
    # Longest first. pytest-xdist (--dist loadfile) hands the files to the two workers in this order, so a long
    # notebook that came last would run alone while the other worker idles (addopts sets --no-loadscope-reorder:
    # xdist's own order is by the number of tests in a file, which puts a notebook of few long cells late).
    weights = _file_seconds()
    items.sort(key=lambda item: -weights.get(os.path.relpath(str(item.fspath), ROOT).replace(os.sep, "/"), 0.0))


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: files whose time data/execution.json does not record: the page tests build the book and load every page
#: (74 s and 72 s of setup in CI on 28 November 2026)
KNOWN_SECONDS = {"tests/book/test_book_pages.py": 150.0}


def _file_seconds() -> dict:
    """Seconds per test file, as far as known: each notebook's last measured run at its paper parameters
    (data/execution.json, written by nbrun), and KNOWN_SECONDS; the rest keep the collection order, after these."""
    import json

    try:
        with open(os.path.join(ROOT, "data", "execution.json"), encoding="utf-8") as f:
            runs = json.load(f)
    except (OSError, ValueError):
        runs = {}
    seconds = {path: float(r.get("paper", {}).get("seconds", 0.0)) for path, r in runs.items() if isinstance(r, dict)}
    return {**seconds, **KNOWN_SECONDS}
