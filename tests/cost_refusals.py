"""Shared by the tests of issue 23's part 6 (tests/audit/test_audit_costs.py, tests/simulation/test_stats_limits.py,
tests/policies/test_reference_limits.py): run absurd calls in a child process capped at 3 GiB of address space,
and check that each was refused at once with the one-message ValueError of :func:`ldpcode.limits.check_limits`.

The cap and the child keep a regression from taking the machine's memory (before the fix most of these calls
asked NumPy for tens of GiB, and the rest ran for minutes: the child's timeout fails the test then)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _lower_memory_limit():
    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))


def run_refused(setup: str, calls: dict, timeout: float = 300) -> dict:
    """Run ``setup`` then each call of ``calls`` ({name: (code, ...)}) in one child process under the cap:
    {name: [exception name or "accepted", message, seconds]}."""
    code = (
        setup
        + f"for name, call in {json.dumps({k: v[0] for k, v in calls.items()})}.items():\n"
        + "    t = time.monotonic()\n"
        + "    try:\n"
        + "        eval(call); got = ['accepted', '', time.monotonic() - t]\n"
        + "    except BaseException as e:\n"
        + "        got = [type(e).__name__, str(e), time.monotonic() - t]\n"
        + "    print(json.dumps({name: got}), flush=True)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=_lower_memory_limit,
    )
    got = {}
    for line in proc.stdout.splitlines():
        got.update(json.loads(line))
    assert set(got) == set(calls), proc.stderr[-3000:]
    return got


def check_refusals(got: dict, calls: dict) -> None:
    """Every call was refused at once (under 5 s on a loaded machine; typically 0.00-0.3 s) by a one-line ValueError that gives the estimate, the ceiling and
    the override, and names ``calls[name][1]`` (the size that drives the cost)."""
    for name, (kind, msg, seconds) in got.items():
        assert kind == "ValueError", (name, kind, msg)
        for part in (calls[name][1], "is estimated at about", "beyond the ceiling of", "limits=ldpcode.Limits("):
            assert part in msg, (name, part, msg)
        assert "\n" not in msg, (name, msg)
        assert seconds < 5.0, (
            name,
            seconds,
        )  # at once: before the fix, a MemoryError or minutes (a loaded CI: generous)
