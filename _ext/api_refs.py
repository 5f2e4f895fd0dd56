"""Sphinx extension: a cross-reference to a name where ldpcode re-exports it reaches the page where it is defined.

Docstrings name objects as a reader imports them (``ldpcode.bounds.v_l``, ``ldpcode.mechanisms.CTB``), while
autodoc documents each under the module that defines it (``ldpcode.bounds.heldp.v_l``). Sphinx found no target
for the first form and wrote it as plain code: about 230 links of the API appendix were missing. On Sphinx's
``missing-reference`` event this extension finds the name (relative names from the docstring's module) with the
paper index's resolver, asks the object where it is defined (``__module__`` and ``__qualname__``) and resolves the
reference there. A name it
cannot import, or whose definition is not documented, stays as Sphinx wrote it."""

from __future__ import annotations

from ldpcode import paper_index


def _lookup(name: str):
    """The object at a dotted name of ldpcode (a module's attribute, or a method of a class): the paper index's own
    resolver, :func:`ldpcode.paper_index.resolve`; None if there is none."""
    if not name.startswith("ldpcode"):
        return None  # another package's name: never imported here
    try:
        return paper_index.resolve(name)
    except ImportError:
        return None


def _candidates(node) -> list[str]:
    target = node.get("reftarget", "").lstrip("~")
    module = node.get("py:module") or ""
    if target.startswith("."):  # relative to the docstring's module: ".rules.Notebook" in ldpcode.parameters
        return [f"{module}{target}"] if module else []
    names = [target]
    if module and not target.startswith("ldpcode"):
        names.insert(0, f"{module}.{target}")
        cls = node.get("py:class")
        if cls:
            names.insert(0, f"{module}.{cls}.{target}")
    return names


def resolve(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    domain = env.get_domain("py")
    for name in _candidates(node):
        obj = _lookup(name)
        module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if not (isinstance(module, str) and module.startswith("ldpcode") and isinstance(qualname, str)):
            continue
        real = f"{module}.{qualname}"
        if real == name and name == node.get("reftarget"):
            continue  # Sphinx looked there already
        ref = domain.resolve_xref(env, node["refdoc"], app.builder, "obj", real, node, contnode)
        if ref is not None:
            return ref
    return None


def skip_field_aliases(app, what, name, obj, skip, options):
    """A NamedTuple's fields are documented by its signature (``LossTable(bernoulli, ...)``) and its docstring; autodoc
    also wrote each field as an entry of its own reading only "Alias for field number N" (132 on the API pages).
    Sphinx's ``autodoc-skip-member`` event: True for such a field, else Sphinx's own choice."""
    alias = type(obj).__name__ == "_tuplegetter" and (obj.__doc__ or "").startswith("Alias for field number")
    return True if alias else None


def setup(app):
    app.connect("missing-reference", resolve)
    app.connect("autodoc-skip-member", skip_field_aliases)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
