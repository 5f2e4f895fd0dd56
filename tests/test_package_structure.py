"""The shape of ldpcode: no circle of imports among its modules, counting the imports written inside
functions too (a lazy import hides a cycle from Python, not from a reader)."""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "ldpcode"


def _imports() -> dict[str, set[str]]:
    mods = {p.stem for p in PKG.glob("*.py")}
    graph = {m: set() for m in mods}
    for m in mods:
        for node in ast.walk(ast.parse((PKG / f"{m}.py").read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level == 1:
                names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
            elif node.level == 0 and node.module and node.module.split(".")[0] == "ldpcode":
                parts = node.module.split(".")
                names = [parts[1]] if len(parts) > 1 else [a.name for a in node.names]
            else:
                continue
            graph[m] |= {n for n in names if n in mods and n != m}
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


def test_no_circle_of_imports():
    graph = _imports()
    assert "claims" in graph and "parameters" in graph["claims"]  # the graph is read (and it has edges)
    cycle = _cycle(graph)
    assert cycle is None, "ldpcode's modules import each other in a circle: " + " -> ".join(cycle)
