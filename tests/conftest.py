import os

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


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
