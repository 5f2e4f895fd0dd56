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

:func:`ldpcode.cells.parameter_defaults` reads a notebook's defaults from its parameters cell with :mod:`ast`, without
running it (literals and arithmetic on them: ``10**6``, ``[0.5] * 3``); :func:`ldpcode.claims.check_stored_params`
compares them with the params stored in data/, so a default moved without its stored numbers fails the tests.

Integers are strict: ``10**6`` is a horizon, ``1e6`` (a float) is refused with a TypeError.
Lists may be given as lists or tuples (papermill passes lists).

Where the rules live: beside the notebooks. Each chapter folder holds ``parameters.py`` (``chapters/ren2020/
parameters.py``), whose ``NOTEBOOKS`` maps each of its notebooks to a :class:`~.rules.Notebook`: the
chapter's own rules, the predicates between its parameters and their messages. A notebook and its rules
change together, in one folder. The library holds only what every chapter shares: the rule types, the checks
between parameters and the shared constants (:mod:`.rules`); the checks that ask the library's own functions
whether they accept a value or fit the limits (:mod:`.library`); and, here, the check of a notebook's values. The
reading of a parameters cell is :mod:`ldpcode.cells`'."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys

from .._paths import repo_root
from .._validate import close_name
from ..cells import injected_names, parameter_names
from .rules import COMMON, Notebook, _show

__all__ = [
    "COMMON",
    "Notebook",
    "check",
    "check_values",
    "notebook_rules",
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


def check(notebook: str, namespace: dict) -> None:
    """The notebook's parameter check: ``ldp.parameters.check("chapters/<ch>/<nb>.ipynb", globals())``.

    Runs in the cell right after the parameters cell (and papermill's injected parameters), before any
    work. A name papermill injected that the notebook does not declare (``-p horizn 100000``: papermill
    only warns, and the notebook would run at its defaults) is a ValueError. Returns None, so the cell
    prints nothing."""
    spec = rules_for(notebook)
    unknown = [n for n in injected_names(namespace) if n not in spec.names]
    if unknown:
        close = close_name(unknown[0], spec.names)
        hint = f" (did you mean {close!r}?)" if close else ""
        raise ValueError(
            f"parameter {unknown[0]} is not a parameter of {notebook}{hint}; its parameters are {', '.join(spec.names)}"
        )
    check_values(notebook, namespace)
