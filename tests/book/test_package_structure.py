"""The shape of ldpcode: no circle of imports among its modules (sub-packages included), counting the imports
written inside functions too (a lazy import hides a cycle from Python, not from a reader); and no module over
MAX_LINES lines unless its docstring says why (a line starting "Size:")."""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "ldpcode"
MAX_LINES = 600


def _name(path: Path) -> str:
    """The dotted name of a module file relative to ldpcode: 'audit.ratios', 'audit' for its __init__."""
    parts = path.relative_to(PKG).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    mods = {_name(p): p for p in PKG.rglob("*.py") if "__pycache__" not in p.parts}
    mods.pop("", None)  # ldpcode/__init__.py gathers the public names; a room never imports it
    return mods


def _targets(node, me: str, is_package: bool, mods) -> set[str]:
    """The modules of ldpcode that one import statement of module ``me`` loads."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names if a.name.startswith("ldpcode.")]
        return {n.removeprefix("ldpcode.") for n in names}
    if node.level:
        package = me.split(".") if is_package else me.split(".")[:-1]
        base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
        base = ".".join(base)
    elif node.module and node.module.split(".")[0] == "ldpcode":
        base = ""
    else:
        return set()
    module = node.module.removeprefix("ldpcode").lstrip(".") if node.level == 0 else node.module
    where = ".".join(p for p in (base, module) if p)
    found = {where} if node.module and where in mods else set()
    for alias in node.names:  # from . import ratios / from .audit import ratios: the sub-module itself
        sub = ".".join(p for p in (where, alias.name) if p)
        if sub in mods:
            found.add(sub)
    return found


def _imports() -> dict[str, set[str]]:
    mods = _modules()
    graph = {m: set() for m in mods}
    for m, path in mods.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(node, m, is_package, mods):
                    # importing a.b first runs the package a (unless m is inside a already)
                    parts = target.split(".")
                    for i in range(1, len(parts) + 1):
                        t = ".".join(parts[:i])
                        if t != m and t in mods and not m.startswith(t + "."):
                            graph[m].add(t)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (a list of modules, first = last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return stack[stack.index(n) :] + [n]
            if n not in state and (found := visit(n)):
                return found
        state[m] = 2
        stack.pop()
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_import_reader_resolves_relative_imports_in_packages():
    mods = {"audit": 1, "audit.ratios": 1, "audit.gdp": 1, "mechanisms": 1}
    parse = lambda src: ast.parse(src).body[0]  # noqa: E731
    assert _targets(parse("from .ratios import f"), "audit.gdp", False, mods) == {"audit.ratios"}
    assert _targets(parse("from .. import mechanisms"), "audit.gdp", False, mods) == {"mechanisms"}
    assert _targets(parse("from ..mechanisms import CTL"), "audit.gdp", False, mods) == {"mechanisms"}
    assert _targets(parse("from . import gdp, ratios"), "audit", True, mods) == {"audit.gdp", "audit.ratios"}
    assert _targets(parse("from .audit import ratios"), "mechanisms", False, mods) == {"audit", "audit.ratios"}
    assert _targets(parse("from ldpcode.audit.gdp import f"), "mechanisms", False, mods) == {"audit.gdp"}
    assert _targets(parse("import numpy as np"), "mechanisms", False, mods) == set()


def test_no_circle_of_imports():
    graph = _imports()
    assert "parameters" in graph["claims.store"]  # the graph is read (and it has edges)
    assert "audit.ratios" in graph and "audit.ratios" in graph["audit.gdp"]  # sub-packages too
    cycle = _cycle(graph)
    assert cycle is None, "ldpcode's modules import each other in a circle: " + " -> ".join(cycle)


def test_no_module_is_over_the_size_limit_without_a_reason():
    too_long = []
    for m, path in _modules().items():
        n = len(path.read_text().splitlines())
        doc = ast.get_docstring(ast.parse(path.read_text())) or ""
        if n > MAX_LINES and not any(line.startswith("Size:") for line in doc.splitlines()):
            too_long.append(f"{m} ({n} lines)")
    assert not too_long, f"modules over {MAX_LINES} lines with no 'Size:' reason in their docstring: " + ", ".join(
        sorted(too_long)
    )


def test_every_name_a_module_exports_in_all_exists():
    """``from ldpcode.x import *`` and the API pages read ``__all__``: a name listed there that the module does not
    define is an address that leads nowhere (ldpcode.parameters listed COMMON, defined only in its rules)."""
    import importlib

    missing = []
    for name, path in _modules().items():
        if "__all__" not in path.read_text():
            continue
        module = importlib.import_module(f"ldpcode.{name}")
        missing += [f"ldpcode.{name}.{n}" for n in getattr(module, "__all__", []) if not hasattr(module, n)]
    assert missing == []


#: the top level the design card fixes, and the files beside it the README names (CI, citation, contributing guide,
#: licence, the book's intro, bibliography, Sphinx extensions and static files, benchmarks, packaging)
TOP_LEVEL = {"_config.yml", "_toc.yml", "chapters", "ldpcode", "data", "tests", "requirements.txt"} | {
    ".ci",
    ".gitignore",
    "CITATION.cff",
    "CONTRIBUTING.md",
    "LICENSE",
    "README.md",
    "_ext",
    "_static",
    "benchmarks",
    "intro.md",
    "pyproject.toml",
    "references.bib",
}


def test_the_tracked_top_level_is_the_design_cards_and_nothing_stray():
    """A CLI test's draft once wrote never.csv into the working tree, and it was committed (49cefa4). Without git
    (a source archive) the test reads the folder, less what .gitignore names."""
    import subprocess

    root = PKG.parent
    proc = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True)
    if proc.returncode == 0 and proc.stdout:
        top = {line.split("/", 1)[0] for line in proc.stdout.splitlines()}
    else:
        ignored = {"_build", ".venv", ".hypothesis", ".pytest_cache", ".ruff_cache", ".git", ".benchmarks"}
        top = {p.name for p in root.iterdir() if p.name not in ignored and not p.name.endswith(".egg-info")}
    assert top == TOP_LEVEL, f"not in the layout: {sorted(top - TOP_LEVEL)}; missing: {sorted(TOP_LEVEL - top)}"
