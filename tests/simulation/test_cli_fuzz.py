"""Issue 23, done-when: a fuzz of the command line's argv (hypothesis over names, numbers and paths) finds no
traceback and no write outside ``--out``.

Every drawn command either runs (exit 0) or is refused: exit status 2 with one line on stderr (argparse's own refusals
included). Nothing is written but the table of ``sweep --out`` or the folder of ``rerun --out``, and nothing under
the book's ``chapters/`` or ``data/`` changes. The notebook's kernel and the one-page build are replaced by fakes
(``rerun`` is checked up to the point where it would start them; the real ones are tested in test_cli.py), and every
command ends with ``--cpu-seconds 0.5 --memory 200MB``, so an accepted sweep stays small."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldpcode import rerun as rr
from ldpcode.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
NB = "chapters/ren2020/lemma3_laplace_tail.ipynb"

NAMES = st.sampled_from(
    ["UCB1", "UCB", "ucb1", "LDP-UCB-B", "LDP-UCB-b", "KL-UCB", "HeLDP-UCB-B", "OnePoint-UCB", "", ",", "UCB1,UCB1"]
)
INSTANCES = st.sampled_from(
    ["ren2020-bernoulli", "ren2020-bernouli", "bernoulli", "bernoulli:0.9,0.5", "gaussian:0.5", "bernoulli:2,0.5", ""]
)
NUMBERS = st.one_of(
    st.sampled_from(["0", "1", "2", "-1", "2.5", "1e3", "1e400", "nan", "inf", "-inf", "1e-400", "0x10", "", "1_000"]),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
PATHS = st.sampled_from(
    ["t.csv", "t.parquet", "t.xlsx", "adir", "adir.csv", "nodir/t.csv", "", ".", "..", "rr", "rr/book", "afile"]
    + [str(ROOT / "chapters/ren2020"), str(ROOT / "data"), str(ROOT / "data/t.csv"), str(ROOT)]
)
LEVELS = st.sampled_from(["discrete:0.5,1.5", "constant:1", "constant:", "discret:1", "clipped-gaussian:1", "nan"])
PARAMS = st.sampled_from(["samples", "sample", "seed", "n_values", "b", "horizon", ""])
VALUES = st.one_of(NUMBERS, st.sampled_from(["[1, 4]", "[]", "[1e3]", "{a: 1}", "x", "&a [*a]", "[[[[1]]]]"]))


@st.composite
def sweep_argv(draw):
    argv = ["sweep"]
    for flag, values in [
        ("--policies", NAMES),
        ("--epsilons", st.one_of(NUMBERS, st.sampled_from(["0.5,1", "1,1", "a,b"]))),
        ("--instance", INSTANCES),
        ("--horizon", st.one_of(NUMBERS, st.sampled_from(["100", "1e3", "2e4"]))),
        ("--runs", st.one_of(NUMBERS, st.sampled_from(["2", "3"]))),
        ("--seed", NUMBERS),
        ("--block", NUMBERS),
        ("--checkpoints", NUMBERS),
        ("--levels", LEVELS),
        ("--scheduler", st.sampled_from(["nonsense", "localcluster"])),
        ("--out", PATHS),
    ]:
        required = flag in ("--policies", "--epsilons", "--instance", "--horizon", "--runs", "--out")
        if draw(st.floats(0, 1)) < (0.9 if required else 0.15):
            argv += [flag, draw(values)]
    return argv


@st.composite
def rerun_argv(draw):
    argv = ["rerun", draw(st.sampled_from([NB, "chapters/ren2020/nope.ipynb", "README.md", ""]))]
    for _ in range(draw(st.integers(0, 3))):
        argv += ["-p", draw(PARAMS), draw(VALUES)]
    if draw(st.booleans()):
        argv += ["--out", draw(PATHS)]
    for flag in ("--tiny", "--no-render"):
        if draw(st.booleans()):
            argv.append(flag)
    return argv


def _snapshot(folder: Path) -> dict:
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()}


def _book_snapshot() -> dict:
    return {**_snapshot(ROOT / "chapters"), **_snapshot(ROOT / "data")}


BOOK = _book_snapshot()


def _fake_kernel_and_build(mp):
    import papermill

    def execute(src, dst, **kw):
        Path(dst).write_text(Path(src).read_text())

    def build(root, executed, book):  # the real render_page around it: its checks, its list of what it wrote
        (book / "page.html").write_text("")
        return book / "page.html"

    mp.setattr(papermill, "execute_notebook", execute)
    mp.setattr(rr, "_build", build)


def _allowed(argv: list, cwd: Path) -> Path | None:
    """What ``argv`` may write: the value of its last ``--out`` (rerun's default is ``rerun/``)."""
    outs = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--out"]
    if outs:
        return (cwd / outs[-1]).resolve()
    return (cwd / "rerun").resolve() if argv[0] == "rerun" else None


def _check(argv: list) -> None:
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        cwd = Path(tmp)
        (cwd / "adir").mkdir()
        (cwd / "adir.csv").mkdir()
        (cwd / "afile").write_text("the user's")
        (cwd / "rr" / "book").mkdir(parents=True)
        (cwd / "rr" / "book" / "thesis.tex").write_text("years of work")
        before = _snapshot(cwd)
        mp.chdir(cwd)
        _fake_kernel_and_build(mp)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = main([*argv, "--cpu-seconds", "0.5", "--memory", "200MB"])
            except SystemExit as e:  # argparse
                code = e.code
        text = err.getvalue()
        assert code in (0, 2), (argv, code, text)
        assert "Traceback" not in text, (argv, text)
        if code == 2:
            last = text.splitlines()[-1]
            assert last.startswith("python -m ldpcode") and ": error: " in last, (argv, text)
        allowed = _allowed(argv, cwd)
        after = _snapshot(cwd)
        for path, stamp in after.items():
            if before.get(path) != stamp:
                assert allowed is not None and (path == allowed or allowed in path.parents), (argv, path)
        assert set(before) <= set(after), (argv, set(before) - set(after))
        assert (cwd / "rr" / "book" / "thesis.tex").read_text() == "years of work"
    assert _book_snapshot() == BOOK, argv


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sweep_argv())
def test_fuzzed_sweep_commands_run_or_are_refused_in_one_line(argv):
    _check(argv)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rerun_argv())
def test_fuzzed_rerun_commands_run_or_are_refused_in_one_line(argv):
    _check(argv)


def test_the_fuzz_can_fail():
    """The fuzz's own check refuses a write outside --out (a check that cannot fail is a defect)."""
    with pytest.MonkeyPatch.context() as mp:
        import ldpcode.__main__ as cli

        def writes_outside(args):
            Path("adir/stray.txt").write_text("x")
            return 0

        mp.setattr(cli, "_sweep", writes_outside)
        with pytest.raises(AssertionError, match="stray"):
            _check(
                ["sweep", "--policies", "UCB1", "--epsilons", "1", "--instance", "ren2020-bernoulli"]
                + ["--horizon", "100", "--runs", "2", "--out", "t.csv"]
            )
    assert os.getcwd()
