"""The benchmark scripts (``benchmarks/*.py``) check their arguments before any work: a bad value is one line with
exit status 2, a run beyond the cost ceilings is refused before it starts, and T is printed exactly (the audit of
the command line)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

SCRIPTS = ["bench_event", "bench_event_heldp", "bench_event_klucb", "bench_policies", "bench_global_dp"]


def _script(name):
    return importlib.import_module(name)


def _refused(module, argv, capsys) -> str:
    with pytest.raises(SystemExit) as e:
        module.main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("name", SCRIPTS)
@pytest.mark.parametrize("value", ["1e400", "10**400", "10**99999999", "nan", "inf", "0", "-5", "2.5", "2**53+1"])
def test_a_horizon_that_is_no_positive_integer_up_to_2_53_is_one_line(name, value, capsys):
    """Before: --horizons 1e400 was an OverflowError traceback (and 10**99999999 would have been computed)."""
    flag = "--horizons" if "event" in name else "--horizon"
    assert "expected a positive integer" in _refused(_script(name), [flag, value], capsys)


@pytest.mark.parametrize(("name", "flag"), [("bench_event", "--epsilon"), ("bench_policies", "--epsilon")])
@pytest.mark.parametrize("value", ["nan", "-1", "inf", "0", "x"])
def test_a_privacy_level_that_is_none_is_one_line(name, flag, value, capsys):
    """Before: --epsilon nan, -1 or inf were ValueError tracebacks from make_policy."""
    assert "expected a privacy level" in _refused(_script(name), [flag, value], capsys)


def test_heldp_epsilon_min_beyond_every_user_is_one_line(capsys):
    err = _refused(_script("bench_event_heldp"), ["--epsilon-min", "1000"], capsys)
    assert "no user of 'ren-heldp-discrete' ever reaches epsilon_min=1000" in err


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        ("bench_event", ["--horizons", "10**13"]),
        ("bench_event_heldp", ["--horizons", "10**12"]),
        ("bench_event_klucb", ["--horizons", "1e10"]),
        ("bench_policies", ["--horizon", "1e11"]),
        ("bench_global_dp", ["--horizon", "1e11"]),
    ],
)
def test_a_benchmark_beyond_the_cost_ceiling_is_refused_before_any_work(name, argv, capsys, monkeypatch):
    """Before: bench_event.py --horizons 10**13 started a run of days (its engines' _run checks no limits)."""
    import ldpcode as ldp

    module = _script(name)
    monkeypatch.setattr(ldp, "simulate", lambda *a, **k: pytest.fail("a simulation ran before the cost check"))
    if hasattr(module, "_run"):
        monkeypatch.setattr(module, "_run", lambda *a, **k: pytest.fail("a run started before the cost check"))
    err = _refused(module, argv, capsys)
    assert "beyond the ceiling" in err and "LDPCODE_CPU_SECONDS" in err


def test_bench_sweep_beyond_the_cost_ceiling_is_refused(capsys, monkeypatch):
    module = _script("bench_sweep")
    monkeypatch.setattr(sys, "argv", ["bench_sweep.py", "--horizon", "1e10"])
    monkeypatch.setattr(module.sw, "sweep", lambda *a, **k: pytest.fail("the sweep ran before the cost check"))
    with pytest.raises(SystemExit) as e:
        module.main()
    assert e.value.code == 2 and "beyond the ceiling" in capsys.readouterr().err


def test_bench_event_prints_the_horizon_exactly(capsys):
    """Before: T was printed with '.0e': 1.5e3 as 2e+03 and 1234 as 1e+03, a wrong number in the table."""
    assert _script("bench_event").main(["--horizons", "1.5e3", "1234", "--repeat", "1"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith(("UCB1", "LDP-UCB-B"))]
    assert [r[1] for r in rows] == ["1,500", "1,234", "1,500", "1,234"]
