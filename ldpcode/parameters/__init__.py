"""The parameter rules of every notebook, checked before any work starts.

Each chapter notebook has one cell tagged ``parameters`` (papermill injects a reader's values in a
cell right after it) and, right after those, the cell::

    nb = ldp.book.notebook("chapters/<chapter>/<name>.ipynb", globals())

(:func:`ldpcode.book.notebook`, the notebook contract, which calls :func:`check`), which looks up the notebook's
rules (:func:`notebook_rules`) and checks every parameter listed there against its rule: type, range, finiteness, length, and the consistency between parameters (a horizon at least the
number of arms, a grid whose minimum is below its maximum, ...). A wrong type raises ``TypeError``, a
wrong value ``ValueError``; the message names the parameter, the value received and what is allowed.

Rules are explicit, keyed by parameter name: :data:`COMMON` holds the names that mean the same thing
in every notebook (``horizon``, ``runs``, ``seed``, ``epsilons``, ``delta``, ...), and each notebook's entry
in its chapter's ``NOTEBOOKS`` lists the notebook's own parameters, with a rule for each name :data:`COMMON` does
not cover (or covers with another meaning, such as ``alpha``). ``tests/book/test_parameters.py`` proves that
every parameter of every notebook has a rule and that every notebook's stored defaults pass, so a new
notebook without rules fails the tests.

Every rule refuses what the notebook's body cannot run (a standard error needs two runs, a fit three
points, a checkpoint list a horizon past its first point): the bound says why in the message. Each entry's
``tiny`` values sit at those edges and run the whole body in seconds; ``tests/book/test_notebook_edges_*.py``
runs every notebook there with papermill.

:func:`parameter_defaults` reads a notebook's defaults from its parameters cell with :mod:`ast`, without running
it (literals and arithmetic on them: ``10**6``, ``[0.5] * 3``); :func:`ldpcode.claims.check_stored_params` compares
them with the params stored in data/, so a default moved without its stored numbers fails the tests.

Integers are strict: ``10**6`` is a horizon, ``1e6`` (a float) is refused with a TypeError.
Lists may be given as lists or tuples (papermill passes lists).

Where the rules live: beside the notebooks. Each chapter folder holds ``parameters.py`` (``chapters/ren2020/
parameters.py``), whose ``NOTEBOOKS`` maps each of its notebooks to a :class:`~.rules.Notebook`: the
chapter's own rules, the predicates between its parameters and their messages. A notebook and its rules
change together, in one folder. The library holds only what every chapter shares: the rule types, the checks
between parameters and the shared constants (:mod:`.rules`); the checks that ask the library's own functions
whether they accept a value or fit the limits (:mod:`.library`); and, here, the reading of a parameters cell
and the check of a notebook's values."""

from __future__ import annotations

import ast
import dataclasses
import difflib
import importlib.util
import json
import math
import operator
import sys
from pathlib import Path

from .._paths import repo_root

from .rules import Notebook, _show

__all__ = [
    "COMMON",
    "Notebook",
    "cell_values",
    "check",
    "check_values",
    "notebook_rules",
    "parameter_defaults",
    "rules_for",
]

#: the file beside a chapter's notebooks that holds their rules: ``chapters/<chapter>/parameters.py``
RULES_FILE = "parameters.py"
_RULES: dict = {}


def notebook_rules() -> dict[str, Notebook]:
    """Every notebook's rules, keyed by its path (``chapters/ren2020/figure1.ipynb``): the ``NOTEBOOKS`` of each
    chapter's :data:`RULES_FILE`, beside the notebooks it rules, loaded once. The library holds only the rule
    types (:mod:`.rules`) and the checks that ask the library's own functions (:mod:`.library`); a chapter's
    rules, its private predicates and its messages live with the chapter, so a notebook and its rules change
    together."""
    if not _RULES:
        loaded: dict = {}
        for path in sorted((repo_root() / "chapters").glob(f"*/{RULES_FILE}")):
            name = f"ldpcode_chapter_rules.{path.parent.name}"
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
            loaded.update(module.NOTEBOOKS)
        _RULES.update(sorted(loaded.items()))
    return _RULES


def _unpacked(target) -> list:
    """``a`` -> [a]; ``a, b`` -> [a, b] (a tuple of names, as ``eps_min, eps_max = 0.05, 5.0``)."""
    return list(target.elts) if isinstance(target, ast.Tuple) else [target]


def _parameters_source(path: Path) -> str:
    """The source of the one cell of the notebook at ``path`` tagged ``parameters``."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read the notebook {path} for its parameters cell: {exc}") from exc
    cells = [c for c in nb.get("cells", []) if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise ValueError(f"{path} must have exactly one cell tagged 'parameters', it has {len(cells)}")
    return "".join(cells[0]["source"]) if isinstance(cells[0]["source"], list) else cells[0]["source"]


def _assignments(source: str, where) -> list:
    """The statements of a parameters cell (``ast.Assign`` nodes); anything but an assignment to names (or to a
    tuple of names) is a ValueError naming ``where`` and the statement."""
    nodes: list = []
    for node in ast.parse(source).body:
        targets = [t for target in getattr(node, "targets", ()) for t in _unpacked(target)]
        if not isinstance(node, ast.Assign) or not all(isinstance(t, ast.Name) for t in targets):
            raise ValueError(
                f"the parameters cell of {where} must hold only assignments to names, got: {ast.unparse(node)}"
            )
        nodes.append(node)
    return nodes


def _read_parameter_names(path: Path) -> tuple:
    nodes = _assignments(_parameters_source(path), path)
    return tuple(t.id for node in nodes for target in node.targets for t in _unpacked(target))


#: the arithmetic a parameters cell may use in a default (``10**6``, ``2 * 10**5``, ``[0.5] * 3``)
_ARITHMETIC = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_MAX_ITEMS = 10**6  # a repeated list or string longer than this is refused (``[0] * 10**12``)
_MAX_BITS = 4096  # an integer power larger than this is refused (``10**10**9``)


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _evaluate(node, known: dict, where: str):
    """The value of one default, without running any code: literals (numbers, strings, None, booleans, lists,
    tuples, dicts), unary minus, arithmetic on numbers (``10**6``), ``[x] * n`` and ``a + b`` on lists, tuples
    and strings, and the name of a parameter assigned earlier in the cell. Anything else is a ValueError."""

    def fail(why: str):
        raise ValueError(
            f"{where}: cannot read `{ast.unparse(node)[:80]}` without running the cell ({why}); a parameter's "
            "default must be a literal or arithmetic on literals, such as 10**6 or [0.5] * 3"
        )

    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            fail("a starred item")
        items = [_evaluate(e, known, where) for e in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            fail("a ** unpacking")
        return {_evaluate(k, known, where): _evaluate(v, known, where) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Name):
        if node.id in known:
            return known[node.id]
        fail(f"{node.id} is not a parameter assigned earlier in the cell")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _evaluate(node.operand, known, where)
        if not _is_number(value):
            fail("a sign before something that is not a number")
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        a, b = _evaluate(node.left, known, where), _evaluate(node.right, known, where)
        op = _ARITHMETIC[type(node.op)]
        if _is_number(a) and _is_number(b):
            if (
                isinstance(node.op, ast.Pow)
                and isinstance(a, int)
                and isinstance(b, int)
                and abs(a) > 1
                and b * math.log2(abs(a)) > _MAX_BITS
            ):
                fail(f"an integer over {_MAX_BITS} bits")
            try:
                return op(a, b)
            except (ArithmeticError, ValueError) as exc:
                fail(str(exc))
        sequences = (list, tuple, str)
        if isinstance(node.op, ast.Mult) and isinstance(b, sequences) and _is_number(a):
            a, b = b, a
        if isinstance(node.op, ast.Mult) and isinstance(a, sequences) and isinstance(b, int) and _is_number(b):
            if len(a) * max(b, 0) > _MAX_ITEMS:
                fail(f"more than {_MAX_ITEMS} items")
            return a * b
        if isinstance(node.op, ast.Add) and isinstance(a, sequences) and type(a) is type(b):
            return a + b
        fail(f"{type(node.op).__name__} of {type(a).__name__} and {type(b).__name__}")
    fail("not a literal")


def cell_values(source: str, where: str = "the parameters cell") -> dict:
    """The values a parameters cell's ``source`` assigns, read with :mod:`ast` without running it (see
    :func:`_evaluate` for what a default may be), in the cell's order; ``where`` names the cell in errors."""
    values: dict = {}
    for node in _assignments(source, where):
        value = _evaluate(node.value, values, where)
        for target in node.targets:
            if isinstance(target, ast.Tuple):
                if not isinstance(value, (list, tuple)) or len(value) != len(target.elts):
                    raise ValueError(f"{where}: cannot unpack `{ast.unparse(node)[:80]}`")
                values.update({t.id: v for t, v in zip(target.elts, value)})
            else:
                values[target.id] = value
    return values


def parameter_defaults(notebook: str, root: Path | None = None) -> dict:
    """The defaults of ``notebook`` (``chapters/<chapter>/<name>.ipynb`` under ``root``, by default the book's
    top folder): the values its cell tagged ``parameters`` assigns, read by :func:`cell_values` without running
    the cell. :func:`ldpcode.claims.check_stored_params` compares them with the params stored in data/."""
    path = (root or repo_root()) / notebook
    if not path.is_file():
        raise ValueError(f"notebook {notebook!r} not found under {root or repo_root()}")
    return cell_values(_parameters_source(path), f"the parameters cell of {notebook}")


_NAMES_CACHE: dict = {}


def parameter_names(notebook: str) -> tuple:
    """The parameters of ``notebook``, in order: the names its cell tagged ``parameters`` assigns. That cell is
    the one place a notebook's parameters are declared; read from the notebook file under the book's top
    folder (:func:`ldpcode._paths.repo_root`), once per version of the file."""
    path = repo_root() / notebook
    try:
        stamp = path.stat().st_mtime_ns
    except OSError as exc:
        raise ValueError(f"notebook {notebook!r} not found under {repo_root()}: {exc}") from exc
    key = (str(path), stamp)
    if key not in _NAMES_CACHE:
        _NAMES_CACHE[key] = _read_parameter_names(path)
    return _NAMES_CACHE[key]


def rules_for(notebook: str) -> Notebook:
    """The entry of :data:`NOTEBOOKS` for ``notebook`` (a path like ``chapters/ren2020/figure1.ipynb``), with
    its ``names`` read from the notebook's parameters cell (:func:`parameter_names`)."""
    if not isinstance(notebook, str):
        raise TypeError(f"notebook must be a path string like 'chapters/<chapter>/<name>.ipynb', got {_show(notebook)}")
    key = notebook.replace("\\", "/")
    rules = notebook_rules()
    if key not in rules:
        chapter = key.split("/")[1] if key.count("/") == 2 else "<chapter>"
        raise ValueError(
            f"notebook {notebook!r} has no parameter rules; add an entry to NOTEBOOKS in chapters/{chapter}/{RULES_FILE}"
        )
    return dataclasses.replace(rules[key], names=parameter_names(key))


def check_values(notebook: str, values: dict) -> None:
    """Check ``values`` (a dict holding every parameter of ``notebook``): each rule, then the checks
    between parameters. Raises TypeError or ValueError naming the parameter; returns None."""
    spec = rules_for(notebook)
    if not isinstance(values, dict):
        raise TypeError(f"values must be a dict of the notebook's parameters, got {type(values).__name__}")
    missing = [n for n in spec.names if n not in values]
    if missing:
        raise ValueError(
            f"parameter {missing[0]} of {notebook} is not defined (its parameters: {', '.join(spec.names)})"
        )
    for name in spec.names:
        spec.rule(name)(name, values[name])
    params = {n: values[n] for n in spec.names}
    for c in spec.checks:
        c(params)


INJECTED_MARK = "# Parameters"  # the first line of the cell papermill injects after the parameters cell


def injected_names(namespace: dict) -> list:
    """The names assigned by papermill's injected-parameters cell, read from IPython's input history
    (``_ih`` in the kernel's globals: papermill's cell starts with the line ``# Parameters``). Empty
    outside IPython, or when nothing was injected."""
    history = namespace.get("_ih") if isinstance(namespace, dict) else None
    names: list = []
    for src in history if isinstance(history, list) else []:
        if not isinstance(src, str) or not src.lstrip().startswith(INJECTED_MARK):
            continue
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names


def check(notebook: str, namespace: dict) -> None:
    """The notebook's parameter check: ``ldp.parameters.check("chapters/<ch>/<nb>.ipynb", globals())``.

    Runs in the cell right after the parameters cell (and papermill's injected parameters), before any
    work. A name papermill injected that the notebook does not declare (``-p horizn 100000``: papermill
    only warns, and the notebook would run at its defaults) is a ValueError. Returns None, so the cell
    prints nothing."""
    spec = rules_for(notebook)
    unknown = [n for n in injected_names(namespace) if n not in spec.names]
    if unknown:
        close = difflib.get_close_matches(unknown[0], spec.names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(
            f"parameter {unknown[0]} is not a parameter of {notebook}{hint}; its parameters are {', '.join(spec.names)}"
        )
    check_values(notebook, namespace)
