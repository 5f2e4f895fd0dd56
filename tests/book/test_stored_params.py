"""Stored numbers describe the notebook as committed (issue 23, fifth part).

Each chapter notebook stores its numbers in ``data/<chapter>/<name>.json`` with the ``"params"`` they were computed
at. If a default in the notebook's parameters cell moves and the notebook is run without ``nbrun --write``, its own
check compares nothing (other params: "not compared") and passes, nbval too, while data/ describes another
experiment. These tests read every parameters cell with ``ast`` (no notebook is executed:
:func:`ldpcode.cells.parameter_defaults`) and compare it with the stored params
(:func:`ldpcode.claims.check_stored_params`): same names, and the same values with the types JSON keeps (``1`` is
not ``1.0``; a tuple is a list). No exception is needed: every notebook stores exactly the parameters its cell
declares (``tests/book/test_parameters.py`` checks the names too), nothing derived.

The second half shows the check failing, on a copy of a notebook and its data/ file in a temporary book folder,
and ``python -m ldpcode.nbrun`` (without ``--write``) refusing that notebook before any run."""

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from ldpcode import claims as C
from ldpcode import nbrun
from ldpcode import cells

ROOT = Path(__file__).resolve().parents[2]
STORED = sorted(
    nb.relative_to(ROOT).as_posix()
    for nb in (ROOT / "chapters").glob("*/*.ipynb")
    if C.data_path(nb.relative_to(ROOT).as_posix(), ROOT).exists()
)
ADVICE = "re-run `python -m ldpcode.nbrun --write {nb}` and review the diff of data/"


def _cell_source(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    (cell,) = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    return cell.source


def test_every_chapter_notebook_has_stored_numbers():
    notebooks = sorted(nb.relative_to(ROOT).as_posix() for nb in (ROOT / "chapters").glob("*/*.ipynb"))
    assert len(STORED) > 30 and STORED == notebooks


@pytest.mark.parametrize("notebook", STORED)
def test_the_parameters_cell_holds_the_stored_params(notebook):
    C.check_stored_params(notebook, ROOT)  # raises with the message naming the parameter and both values


@pytest.mark.parametrize("notebook", STORED)
def test_reading_the_cell_with_ast_gives_what_running_it_gives(notebook):
    """The reader is exact on the book's cells: the same names, values and types as executing the cell."""
    namespace: dict = {}
    exec(_cell_source(ROOT / notebook), namespace)  # noqa: S102 - our own notebooks
    namespace.pop("__builtins__")
    read = cells.parameter_defaults(notebook, ROOT)
    assert list(read) == list(namespace)
    for name, value in namespace.items():
        assert C.store._same(read[name], value) and type(read[name]) is type(value), name


# --- the check can fail -----------------------------------------------------------------------------------------------

NB = "chapters/heldp/figure1.ipynb"  # horizon = 10 ** 6, runs = 50, epsilons = [0.2, 0.5, 1.0, 2.0], ...


def _copy(tmp_path, notebook=NB, edit=None) -> Path:
    """A temporary book with ``notebook`` and its data/ file; ``edit(source) -> source`` rewrites its parameters
    cell."""
    (tmp_path / "_toc.yml").write_text("root: intro\n")
    for rel in (notebook, C.data_path(notebook, Path(".")).as_posix()):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tmp_path / rel)
    if edit is not None:
        nb = nbformat.read(tmp_path / notebook, as_version=4)
        (cell,) = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
        new = edit(cell.source)
        assert new != cell.source, "the edit changed nothing"
        cell.source = new
        nbformat.write(nb, tmp_path / notebook)
    return tmp_path


def _sub(pattern, repl):
    return lambda src: re.sub(pattern, repl, src, count=1, flags=re.M)


@pytest.mark.parametrize(
    "edit,name,cell_value,stored_value",
    [
        (_sub(r"^horizon = 10\*\*6", "horizon = 10**5"), "horizon", "100000", "1000000"),
        (_sub(r"^runs = 50\b", "runs = 50.0"), "runs", "50.0", "50"),  # an int became a float
        (
            _sub(r"^epsilons = \[0\.2,", "epsilons = [0.25,"),
            "epsilons",
            "[0.25, 0.5, 1.0, 2.0]",
            "[0.2, 0.5, 1.0, 2.0]",
        ),
        (_sub(r"^seed = 2020", "seed = 2 * 1010"), "seed", None, None),  # the same value, written otherwise: passes
        (lambda s: s + "\nextra = [0.5] * 3\n", "extra", "[0.5, 0.5, 0.5]", "absent"),
        (_sub(r"^ratio_horizon = .*$", ""), "ratio_horizon", "absent", "10000000"),
    ],
    ids=["moved", "int-to-float", "list-item", "same-value", "added", "removed"],
)
def test_a_moved_default_fails_with_the_parameter_both_values_and_the_advice(
    tmp_path, edit, name, cell_value, stored_value
):
    root = _copy(tmp_path, edit=edit)
    if cell_value is None:
        C.check_stored_params(NB, root)
        return
    with pytest.raises(ValueError) as e:
        C.check_stored_params(NB, root)
    msg = str(e.value)
    assert NB in msg and f"parameter {name} is " in msg
    line = next(line for line in msg.splitlines() if f"parameter {name} is " in line)
    for value in (cell_value, stored_value):
        assert (value == "absent" and "absent from" in line) or value in line, line
    assert "data/heldp/figure1.json" in line
    assert ADVICE.format(nb=NB) in msg
    assert len(msg.splitlines()) == 3, "one line per differing parameter, no other"


def test_the_comparison_on_a_cell_text():
    """The same check on a cell given as text (the function the test above reaches through the files)."""
    stored = C.load(NB, ROOT)["params"]
    source = _cell_source(ROOT / NB)
    assert C.params_differences(NB, cells.cell_values(source), stored) == []
    moved = source.replace("runs = 50", "runs = 20", 1)
    assert C.params_differences(NB, cells.cell_values(moved), stored) == [
        "parameter runs is 20 in the parameters cell but 50 in data/heldp/figure1.json"
    ]
    # type-aware: tuples and lists are one JSON type, ints and floats are not, nor bools and ints
    assert C.params_differences(NB, {"a": (1, [2.0, 3])}, {"a": [1, [2.0, 3]]}) == []
    assert C.params_differences(NB, {"a": [1, 2]}, {"a": [1.0, 2]}) != []
    assert C.params_differences(NB, {"a": True}, {"a": 1}) != []
    assert C.params_differences(NB, {"a": None}, {"a": None}) == []


def test_a_huge_value_is_cut_short_in_the_message():
    (line,) = C.params_differences(NB, {"a": list(range(10**6))}, {"a": [0]})
    assert len(line) < 200 and "..." in line


@pytest.mark.parametrize(
    "source,message",
    [
        ("horizon = int(5)", "cannot read `int(5)` without running the cell (not a literal)"),
        ("a = 1\nb = c", "c is not a parameter assigned earlier"),
        ("a = [0] * 10 ** 12", "more than 1000000 items"),
        ("a = 10 ** 10 ** 9", "an integer over 4096 bits"),
        ("a = 1 / 0", "division by zero"),
        ("a = 'x' - 1", "Sub of str and int"),
    ],
)
def test_the_reader_refuses_what_it_cannot_read_without_running_it(source, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        cells.cell_values(source, "the parameters cell of chapters/x/y.ipynb")


def test_the_reader_handles_the_cells_simple_expressions():
    src = "a = 10 ** 6\nb = 2 * 10 ** 5\nc = [0.5] * 3\nd, e = -1, (1, 'x')\nf = 3 * [1]\ng = a // 4\nh = {'k': [1e-6]}"
    assert cells.cell_values(src) == {
        "a": 10**6,
        "b": 200000,
        "c": [0.5, 0.5, 0.5],
        "d": -1,
        "e": (1, "x"),
        "f": [1, 1, 1],
        "g": 250000,
        "h": {"k": [1e-6]},
    }


# --- nbrun refuses a stale notebook before any run --------------------------------------------------------------------


@pytest.fixture
def no_run(monkeypatch):
    runs = []
    monkeypatch.setattr(nbrun, "run", lambda path, timeout=3600: runs.append(path) or 0.0)
    monkeypatch.setattr(nbrun, "record", lambda *a, **k: None)
    return runs


def test_nbrun_refuses_a_moved_default_before_any_run(tmp_path, monkeypatch, capsys, no_run):
    root = _copy(tmp_path, edit=_sub(r"^horizon = 10\*\*6", "horizon = 10**5"))
    monkeypatch.setenv("LDPCODE_ROOT", str(root))
    with pytest.raises(SystemExit) as e:
        nbrun.main([str(root / NB)])
    assert e.value.code == 2 and no_run == []
    err = capsys.readouterr().err
    assert "parameter horizon is 100000 in the parameters cell but 1000000 in data/heldp/figure1.json" in err
    assert ADVICE.format(nb=NB) in err


def test_nbrun_runs_an_unchanged_notebook_and_write_runs_a_moved_one(tmp_path, monkeypatch, no_run):
    root = _copy(tmp_path)
    monkeypatch.setenv("LDPCODE_ROOT", str(root))
    assert nbrun.main([str(root / NB)]) == 0 and len(no_run) == 1
    _copy(tmp_path, edit=_sub(r"^horizon = 10\*\*6", "horizon = 10**5"))
    assert nbrun.main(["--write", str(root / NB)]) == 0 and len(no_run) == 3  # stores, then runs
    assert json.loads((root / "data/heldp/figure1.json").read_text())["params"]["horizon"] == 10**6  # run is faked
