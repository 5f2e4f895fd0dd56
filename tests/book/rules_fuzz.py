"""A property-based fuzz of each notebook's parameter rules against its tiny body (issue 23, part 6).

For a notebook, hypothesis draws values for one or two of its parameters, around and beyond the edges its rules
know (integers at and past the bounds, floats with inf, nan, huge, tiny and negative, lists of every short length,
wrong types), with every other parameter at the notebook's ``tiny`` set (``ldpcode.parameters.notebook_rules()[...].tiny``,
the values at which the whole body runs in seconds). Each draw must be either

* refused by the rules (:func:`ldpcode.parameters.check_values`, what the notebook's check cell calls) with a
  one-line TypeError or ValueError, or
* accepted, and then the notebook's body runs at it without an exception.

An accepted value whose body fails is a *late failure*: the rules let through what the body cannot run. The body runs
in this process, without a kernel (cheaper than papermill): the notebook's code cells are executed in order in one
namespace, from the notebook's folder, with the drawn values assigned right after the parameters cell (where
papermill injects them), matplotlib on its Agg backend, output discarded, ``LDPCODE_WORKERS=1`` and
``LDPCODE_WRITE_CLAIMS`` unset (a run at other parameters than the stored ones compares and writes nothing). A body
still running after ``--timeout`` seconds is reported as slow, not as a failure (a large value the rules accept may
legitimately take long).

Usage (from the repository's top folder, in its virtual environment)::

    python tests/book/rules_fuzz.py                               # every notebook, 20 examples each
    python tests/book/rules_fuzz.py chapters/azize2022/figure3.ipynb --examples 50 --timeout 60
    python tests/book/rules_fuzz.py azize2022 --rules-only --examples 2000   # no body: the rule-side properties

It prints every late failure (notebook, values, cell, error) and exits 1 if there is one. The process runs under an
address-space limit (``--memory-gib``, default 8): an accepted value whose body would exhaust the machine's memory
(``samples = 10**9`` in lemma3_laplace_tail did, before its rule) fails with MemoryError instead of waking the OOM
killer, which may end another process. The test suite runs only
the cheap part (tests/book/test_rules_fuzz.py): the rule-side properties, which need no body, and a few bodies.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import io
import math
import os
import signal
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import nbformat  # noqa: E402
import hypothesis  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ldpcode import parameters as P  # noqa: E402
from ldpcode.parameters.rules import _is_int, _is_real  # noqa: E402

RULE_SECONDS = 1.0  # a refusal (or an acceptance) by the rules must take less than this (a shared CI machine: generous)


# --- the body, in process ---------------------------------------------------------------------------------------


class BodyTimeout(BaseException):
    """Raised by the alarm in the body's cell (a BaseException: a notebook's ``except Exception`` cannot catch it)."""


@dataclass
class Outcome:
    """What became of one draw: ``refused`` by the rules, ``ran`` (the whole body ran), ``late`` (accepted, and a
    cell of the body raised), ``slow`` (accepted, and the body still ran after the timeout)."""

    kind: str
    values: dict
    error: str = ""
    cell: int | None = None
    seconds: float = 0.0

    def line(self, notebook: str) -> str:
        shown = ", ".join(f"{k}={P._show(v)}" for k, v in self.values.items())
        where = f" in code cell {self.cell}" if self.cell is not None else ""
        return f"{notebook} [{shown}]: {self.kind}{where} after {self.seconds:.1f} s: {self.error}"


_CELLS: dict = {}


def code_cells(notebook: str) -> tuple[list, int]:
    """The notebook's code cells (sources) and the position of the parameters cell among them."""
    if notebook not in _CELLS:
        nb = nbformat.read(ROOT / notebook, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        where = [i for i, c in enumerate(code) if "parameters" in c.metadata.get("tags", [])]
        assert len(where) == 1, f"{notebook}: one cell tagged parameters"
        _CELLS[notebook] = ([c.source for c in code], where[0])
    return _CELLS[notebook]


def defaults(notebook: str) -> dict:
    """The values of the notebook's parameters cell."""
    sources, at = code_cells(notebook)
    namespace: dict = {}
    exec(compile(sources[at], f"<{notebook}: parameters>", "exec"), namespace)  # noqa: S102 - our own notebooks
    return {k: namespace[k] for k in P.rules_for(notebook).names}


def tiny_values(notebook: str) -> dict:
    """Every parameter at the notebook's tiny set (over the parameters cell's defaults)."""
    return {**defaults(notebook), **copy.deepcopy(P.rules_for(notebook).tiny)}


def _alarm(signum, frame):
    raise BodyTimeout()


def _run_cell(source: str, name: str, namespace: dict) -> None:
    """Execute a cell as IPython would: its statements, then its last expression's rich representations (a
    table's HTML is computed, as the kernel computes it for the output)."""
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    if last is not None:
        tree.body = tree.body[:-1]
    exec(compile(tree, name, "exec"), namespace)  # noqa: S102 - our own notebooks
    if last is not None:
        value = eval(compile(ast.Expression(last.value), name, "eval"), namespace)  # noqa: S307
        if value is not None:
            _format(value)


def _format(value) -> None:
    from IPython.core.formatters import DisplayFormatter

    DisplayFormatter().format(value)


def _display(*objs, **kwargs) -> None:
    for obj in objs:
        _format(obj)


@contextlib.contextmanager
def _body_environment(notebook: str):
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    import IPython.display

    saved_env = {k: os.environ.get(k) for k in ("LDPCODE_WORKERS", "LDPCODE_WRITE_CLAIMS", "MPLBACKEND")}
    saved_cwd = os.getcwd()
    saved_display = IPython.display.display
    os.environ["LDPCODE_WORKERS"] = "1"
    os.environ["MPLBACKEND"] = "Agg"
    os.environ.pop("LDPCODE_WRITE_CLAIMS", None)
    os.chdir(ROOT / Path(notebook).parent)
    IPython.display.display = _display
    try:
        with (
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(io.StringIO()),
            warnings.catch_warnings(),
        ):
            warnings.simplefilter("ignore")
            yield
    finally:
        IPython.display.display = saved_display
        os.chdir(saved_cwd)
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        plt.close("all")


def run_body(notebook: str, values: dict, *, timeout: float | None = None) -> tuple[str, int | None, str]:
    """Execute ``notebook``'s code cells in order in one namespace, ``values`` assigned right after its parameters
    cell. Returns ``("ran", None, "")``, ``("late", cell, "Type: message")`` (the first cell that raised, counted
    among the code cells) or ``("slow", cell, ...)`` when ``timeout`` seconds passed."""
    sources, at = code_cells(notebook)
    namespace: dict = {"__name__": "__main__", "display": _display}
    previous = None
    if timeout:
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    cell = None
    try:
        with _body_environment(notebook):
            for cell, source in enumerate(sources):
                _run_cell(source, f"<{notebook}: code cell {cell}>", namespace)
                if cell == at:
                    namespace.update(copy.deepcopy(values))  # papermill's injected cell
        return "ran", None, ""
    except BodyTimeout:
        return "slow", cell, f"still running after {timeout:g} s"
    except Exception as exc:  # noqa: BLE001 - any exception of the body is the finding
        return "late", cell, f"{type(exc).__name__}: {_one_line(str(exc))}"
    finally:
        if timeout:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def _one_line(text: str, width: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


# --- the rules ------------------------------------------------------------------------------------------------


def check_rules(notebook: str, values: dict) -> BaseException | None:
    """The notebook's check on ``values`` (every parameter): None if accepted, else the exception it raised."""
    try:
        P.check_values(notebook, values)
    except BaseException as exc:  # noqa: BLE001 - the caller judges the type
        return exc
    return None


def rule_problem(notebook: str, drawn: dict, values: dict) -> str | None:
    """The rule-side property on one draw: accepted, or refused within RULE_SECONDS by a one-line TypeError or
    ValueError that starts ``parameter`` and names a drawn parameter. Returns what is wrong, or None."""
    start = time.perf_counter()
    exc = check_rules(notebook, values)
    seconds = time.perf_counter() - start
    shown = ", ".join(f"{k}={P._show(v)}" for k, v in drawn.items())
    if seconds >= RULE_SECONDS:
        return f"{notebook} [{shown}]: the rules took {seconds:.2f} s (more than {RULE_SECONDS} s)"
    if exc is None:
        return None
    if type(exc) not in (TypeError, ValueError):
        return f"{notebook} [{shown}]: refused with {type(exc).__name__}, not TypeError/ValueError: {exc}"
    text = str(exc)
    if "\n" in text or len(text) > 1000:
        return f"{notebook} [{shown}]: the refusal is not one line: {text[:300]!r}"
    if not text.startswith(("parameter ", "parameters ")) or not any(_names(text, name) for name in drawn):
        return f"{notebook} [{shown}]: the refusal does not name the drawn parameter: {text}"
    return None


def _names(text: str, name: str) -> bool:
    import re

    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text) is not None


# --- the values drawn ------------------------------------------------------------------------------------------

WRONG_TYPES = st.sampled_from([None, True, "1", b"1", {"a": 1}, 1 + 0j, object])
ODD_FLOATS = st.sampled_from(
    [math.nan, math.inf, -math.inf, 0.0, -0.0, -1.0, 5e-324, 1e-300, 1e-12, 1e-9, 1e300, 1.7976931348623157e308]
)
HUGE_INTS = st.sampled_from([2**31, 2**32, 10**9, 10**12, 2**53, 2**53 + 1, 2**62, 2**63, 2**64, 10**30, -(2**63)])


def _int_values(rule: P.rules.Int, seen: list) -> st.SearchStrategy:
    lo = rule.lo if rule.lo is not None else 0
    edges = {lo - 2, lo - 1, lo, lo + 1, lo + 2, 0, -1, 1, 2, 3}
    if rule.hi is not None:
        edges |= {rule.hi - 1, rule.hi, rule.hi + 1, rule.hi * 2}
    edges |= {int(v) for v in seen if _is_int(v)}
    edges |= {2 * int(v) for v in seen if _is_int(v)} | {int(v) + 1 for v in seen if _is_int(v)}
    hi = rule.hi if rule.hi is not None else 2**62
    return st.one_of(
        st.sampled_from(sorted(edges)),
        st.integers(lo, min(hi, lo + 1000)),
        st.integers(0, 62).map(lambda e: 2**e),  # every order of magnitude, within the range or beyond
        st.integers(0, 18).map(lambda e: 10**e),
        HUGE_INTS,
        st.sampled_from([float(lo), float(lo) + 0.5, 1e6, math.nan, math.inf]),  # integers written as floats
        WRONG_TYPES,
    )


def _real_values(rule: P.rules.Real, seen: list) -> st.SearchStrategy:
    edges = [v for v in seen if _is_real(v)]
    for b in (rule.lo, rule.hi):
        if b is not None:
            edges += [b, math.nextafter(b, math.inf), math.nextafter(b, -math.inf), b + 1e-9, b - 1e-9]
    lo = rule.lo if rule.lo is not None else -1e6
    hi = rule.hi if rule.hi is not None else 1e6
    return st.one_of(
        st.sampled_from([float(v) for v in edges] or [0.0]),
        st.floats(lo, hi, allow_nan=False, allow_infinity=False),
        st.floats(-2.0, 40.0),
        st.integers(-20, 20).map(lambda e: 10.0**e),
        ODD_FLOATS,
        st.integers(-3, 50),
        WRONG_TYPES,
    )


def values_for(rule: P.rules.Rule, seen: list | None = None, depth: int = 0) -> st.SearchStrategy:
    """Values around and beyond the edges of ``rule``, and near ``seen`` (the notebook's default and tiny
    values for the parameter)."""
    seen = seen or []
    if isinstance(rule, P.rules.Optional):
        return st.one_of(st.none(), values_for(rule.rule, seen, depth))
    if isinstance(rule, P.rules.Int):
        return _int_values(rule, seen)
    if isinstance(rule, P.rules.Real):
        return _real_values(rule, seen)
    if isinstance(rule, P.rules.Choice):
        return st.one_of(st.sampled_from(rule.values), st.sampled_from(["", "x", rule.values[0].upper()]), WRONG_TYPES)
    if isinstance(rule, P.rules.Text):
        return st.one_of(
            st.sampled_from([v for v in seen if isinstance(v, str)] or ["x"]), st.text(max_size=8), WRONG_TYPES
        )
    if depth > 1:
        return WRONG_TYPES
    if isinstance(rule, P.rules.Seq):
        items = [x for v in seen if isinstance(v, (list, tuple)) for x in v]
        item = values_for(rule.item, items, depth + 1)
        good = _near(items, item)
        longest = max(rule.min_len + 3, 4) if rule.max_len > 10 else rule.max_len + 1
        return st.one_of(
            st.lists(good, min_size=0, max_size=longest),
            st.lists(good, min_size=max(rule.min_len, 1), max_size=max(rule.min_len, 1) + 2).map(sorted_if(rule)),
            st.lists(good, min_size=rule.min_len, max_size=rule.min_len + 2).map(lambda v: [v[0]] * len(v) if v else v),
            st.lists(item, min_size=0, max_size=longest).map(tuple),
            _sorted_lists(items, rule),
            WRONG_TYPES,
            ODD_FLOATS,
        )
    if isinstance(rule, P.rules.Fields):
        rows = [v for v in seen if isinstance(v, (list, tuple)) and len(v) == len(rule.fields)]
        parts = [values_for(r, [row[i] for row in rows], depth + 1) for i, (_, r) in enumerate(rule.fields)]
        return st.one_of(
            st.tuples(*parts).map(list),
            st.tuples(*parts).map(lambda t: list(t)[:-1]),
            WRONG_TYPES,
        )
    if isinstance(rule, P.rules.Grid):
        rows = [v for v in seen if isinstance(v, (list, tuple)) and len(v) == 3]
        bound = values_for(rule.bound, [x for r in rows for x in r[:2]], depth + 1)
        points = values_for(rule.points, [r[2] for r in rows], depth + 1)
        return st.one_of(
            st.tuples(bound, bound, points).map(list),
            st.tuples(bound, bound, points).map(lambda t: sorted(t[:2], key=_key) + [t[2]]),
            st.tuples(bound, points).map(list),
            WRONG_TYPES,
        )
    raise AssertionError(f"no strategy for {rule!r}")


def _key(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) and v == v else 0


def sorted_if(rule: P.rules.Seq):
    def order(v):
        if rule.increasing:
            try:
                return sorted(set(v))
            except TypeError:
                return v
        return v

    return order


def _near(items: list, strategy: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly the seen items (a list of valid items with one odd entry finds more than a list of odd entries)."""
    return st.one_of(st.sampled_from(items), strategy) if items else strategy


def _sorted_lists(items: list, rule: P.rules.Seq) -> st.SearchStrategy:
    base = [x for x in items if _is_real(x)]
    if not base:
        return st.nothing()
    return st.lists(st.sampled_from(base), min_size=rule.min_len, max_size=rule.min_len + 3).map(sorted_if(rule))


def draws(notebook: str, *, max_parameters: int = 2) -> st.SearchStrategy:
    """A dict {name: value} for one or two of ``notebook``'s parameters."""
    spec = P.rules_for(notebook)
    base, tiny = defaults(notebook), spec.tiny

    def one(name):
        seen = [base[name]] + ([tiny[name]] if name in tiny else [])
        return values_for(spec.rule(name), seen).map(lambda v: (name, v))

    names = st.lists(st.sampled_from(spec.names), min_size=1, max_size=max_parameters, unique=True)
    return names.flatmap(lambda ns: st.tuples(*[one(n) for n in ns])).map(dict)


# --- the fuzz -------------------------------------------------------------------------------------------------


def fuzz(
    notebook: str,
    *,
    examples: int = 20,
    timeout: float = 60.0,
    rules_only: bool = False,
    seed: int = 0,
    log=print,
) -> dict:
    """Draw ``examples`` values for ``notebook`` (one or two parameters over its tiny set). Returns lists of the
    ``late`` and ``slow`` outcomes, the rule-side ``problems`` and counts."""
    tiny = tiny_values(notebook)
    assert check_rules(notebook, tiny) is None, f"{notebook}: the tiny set must pass its rules"
    report: dict = {"late": [], "slow": [], "problems": [], "refused": 0, "ran": 0, "seen": 0}
    done: set = set()

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=False,
        phases=[Phase.generate],  # no shrinking: a body costs seconds; every failure is reported as drawn
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def one(data):
        drawn = data.draw(draws(notebook))
        key = repr(sorted(drawn.items(), key=lambda kv: kv[0]))
        if key in done:
            return
        done.add(key)
        report["seen"] += 1
        values = {**tiny, **copy.deepcopy(drawn)}
        problem = rule_problem(notebook, drawn, values)
        if problem:
            report["problems"].append(problem)
            log("RULES  " + problem)
        if check_rules(notebook, values) is not None:
            report["refused"] += 1
            return
        if rules_only:
            return
        start = time.perf_counter()
        kind, cell, error = run_body(notebook, values, timeout=timeout)
        outcome = Outcome(kind, drawn, error, cell, time.perf_counter() - start)
        if kind == "ran":
            report["ran"] += 1
            log(f"ran    {outcome.line(notebook)}")
        else:
            report[kind].append(outcome)
            log(f"{kind.upper():6s} {outcome.line(notebook)}")

    hypothesis.seed(seed)(one)()
    return report


def _select(args: list) -> list:
    if not args:
        return sorted(P.notebook_rules())
    chosen = []
    for a in args:
        hits = [k for k in sorted(P.notebook_rules()) if a == k or a in k]
        if not hits:
            raise SystemExit(f"rules_fuzz: no notebook matches {a!r}")
        chosen += [h for h in hits if h not in chosen]
    return chosen


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="*", help="notebook paths or parts of them (default: every notebook)")
    ap.add_argument("--examples", type=int, default=20, help="draws per notebook (default 20)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds before a body counts as slow (default 60)")
    ap.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    ap.add_argument("--rules-only", action="store_true", help="check the rule-side properties only, run no body")
    ap.add_argument("--quiet", action="store_true", help="print only late failures, slow bodies and rule problems")
    ap.add_argument(
        "--memory-gib",
        type=float,
        default=8.0,
        help="address-space limit of this process in GiB (default 8): a body that would exhaust the machine's memory "
        "fails with MemoryError instead of waking the OOM killer",
    )
    args = ap.parse_args(argv)
    if args.memory_gib > 0:
        import resource

        limit = int(args.memory_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    notebooks = _select(args.notebooks)
    late, slow, problems = [], [], []
    started = time.perf_counter()
    for nb in notebooks:
        t0 = time.perf_counter()
        log = (
            (lambda s: print(s, flush=True) if not s.startswith("ran") else None)
            if args.quiet
            else (lambda s: print(s, flush=True))
        )
        r = fuzz(nb, examples=args.examples, timeout=args.timeout, rules_only=args.rules_only, seed=args.seed, log=log)
        late += [o.line(nb) for o in r["late"]]
        slow += [o.line(nb) for o in r["slow"]]
        problems += r["problems"]
        print(
            f"== {nb}: {r['seen']} distinct draws, {r['refused']} refused, {r['ran']} ran, {len(r['late'])} late, "
            f"{len(r['slow'])} slow, {len(r['problems'])} rule problems ({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
    print(f"\n{len(notebooks)} notebooks in {time.perf_counter() - started:.0f} s")
    for title, lines in (("LATE FAILURES", late), ("SLOW BODIES", slow), ("RULE PROBLEMS", problems)):
        print(f"{title}: {len(lines)}")
        for line in lines:
            print("  " + line)
    return 1 if late or problems else 0


if __name__ == "__main__":
    sys.exit(main())
