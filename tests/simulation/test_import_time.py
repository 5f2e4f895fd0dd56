"""``import ldpcode`` loads the simulation core only: pyplot (through ldpcode.plotting) and the audits load on first
use, through the module-level __getattr__ of ldpcode/__init__.py (PEP 562, issue 24), and every name the package
lists still resolves. Each check runs in a fresh interpreter, since this one has long imported everything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest


def _run(code: str) -> str:
    env = dict(os.environ, MPLBACKEND="Agg")
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip().splitlines()[-1]


def test_import_ldpcode_leaves_pyplot_and_the_audits_unloaded():
    out = _run("import ldpcode, sys; print('matplotlib.pyplot' in sys.modules, 'ldpcode.audit' in sys.modules)")
    assert out == "False False", "import ldpcode loaded matplotlib.pyplot / ldpcode.audit (pyplot, audit): " + out


def test_import_ldpcode_leaves_every_heavy_room_unloaded():
    out = _run(
        """
        import json, sys
        import ldpcode
        heavy = ["matplotlib", "seaborn", "pandas", "ldpcode.plotting", "ldpcode.audit", "ldpcode.claims",
                 "ldpcode.parameters", "ldpcode.experiments", "ldpcode.experiments.landscape", "ldpcode.sweep", "ldpcode.vetted",
                 "scipy.optimize", "scipy.special", "scipy.stats"]
        print(json.dumps([m for m in heavy if m in sys.modules]))
        """
    )
    assert json.loads(out) == []


def test_every_listed_name_resolves_after_a_bare_import():
    out = _run(
        """
        import json, sys, types
        import ldpcode
        listed = dir(ldpcode)
        missing = sorted(set(getattr(ldpcode, "__all__", [])) - set(listed))
        unresolved = []
        for name in listed:
            try:
                value = getattr(ldpcode, name)
            except AttributeError:
                unresolved.append(name)
                continue
            # a room reached by attribute is the module that `import ldpcode.<name>` gives
            room = isinstance(value, types.ModuleType) and value.__name__.startswith("ldpcode.")
            if room and value is not sys.modules.get(f"ldpcode.{name}"):
                unresolved.append(name + " (not the module of sys.modules)")
        print(json.dumps({"missing": missing, "unresolved": unresolved, "count": len(listed)}))
        """
    )
    result = json.loads(out)
    assert result["missing"] == [], "names of __all__ absent from dir(ldpcode)"
    assert result["unresolved"] == []
    assert result["count"] > 60


@pytest.mark.parametrize(
    "statement",
    [
        "import ldpcode as ldp; m = ldp.audit",
        "from ldpcode import audit as m",
        "import ldpcode.audit; m = ldpcode.audit",
        "import ldpcode.audit as m",
    ],
)
def test_the_audits_load_on_first_use_whatever_the_spelling(statement):
    out = _run(
        f"""
        import sys
        {statement}
        import ldpcode
        print(m is sys.modules["ldpcode.audit"] is ldpcode.audit, callable(m.curator_audit))
        """
    )
    assert out == "True True"


def test_lazy_names_and_unknown_names():
    out = _run(
        """
        import sys
        import ldpcode as ldp
        from ldpcode import choose_epsilon_min
        same = choose_epsilon_min is ldp.choose_epsilon_min is ldp.bounds.choose_epsilon_min
        try:
            ldp.no_such_name
        except AttributeError as e:
            refused = "no_such_name" in str(e)
        else:
            refused = False
        print(same, refused, "matplotlib.pyplot" in sys.modules, "ldpcode.audit" in sys.modules)
        """
    )
    assert out == "True True False False"


def test_use_theme_loads_pyplot_and_registers_the_png_formatter():
    out = _run(
        """
        import sys
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        import ldpcode as ldp
        before = "matplotlib.pyplot" in sys.modules
        ldp.plotting.use_theme()
        import matplotlib.pyplot as plt
        from matplotlib.figure import Figure
        png = shell.display_formatter.formatters["image/png"]
        print(before, png.lookup_by_type(Figure) is ldp.plotting.theme._png_base64, plt.rcParams["figure.dpi"])
        """
    )
    assert out == "False True 90.0"
