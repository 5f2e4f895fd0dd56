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


# --- the fuzz suite (tests/test_fuzz.py) counts the bad inputs it throws and reports them here -------------
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
