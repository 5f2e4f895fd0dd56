"""Reading a notebook's parameters cell without running it.

Every chapter notebook has one cell tagged ``parameters``: assignments of literals (or arithmetic on them) to
names, which papermill overrides by injecting a cell of its own right after it. This module reads that cell with
:mod:`ast`: :func:`parameter_names` (the names, in order, which the notebook contract
:func:`ldpcode.book.notebook` and :mod:`ldpcode.rerun` take as the notebook's parameters), :func:`parameter_defaults`
and :func:`cell_values` (their values, which :func:`ldpcode.claims.check_stored_params` compares with the params
stored in data/), and :func:`injected_names` (the names papermill injected, read from the kernel's input history).
The rules those values must pass are :mod:`ldpcode.parameters`'."""

from __future__ import annotations

import ast
import json
import math
import operator
from pathlib import Path

from ._paths import repo_root

__all__ = ["cell_values", "injected_names", "parameter_defaults", "parameter_names"]


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
