"""Stored numbers: each notebook owns ``data/<chapter>/<notebook>.json`` and checks itself against it.

A claim is one number the book stands for, with what the paper states (``paper``), what its theory
predicts (``theory``) and what this book computes (``reproduced``). :func:`check` compares the freshly
computed claims with the stored ones:

* stored params equal to the notebook's params: every claim must land within its ``tolerance``
  (absolute) of the stored ``reproduced``; otherwise an ``AssertionError`` fails the notebook (and nbval);
* different params (a reader's re-run): nothing is compared and nothing is overwritten;
* writing happens only when asked: ``check(..., write=True)`` or the environment variable
  ``LDPCODE_WRITE_CLAIMS=1``. The file is written atomically (temporary file, then rename).
"""
from __future__ import annotations

import html
import json
import math
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ._validate import check_real
from .parameters import check as _check_parameters


WRITE_ENV = "LDPCODE_WRITE_CLAIMS"
REPORT_CHAPTER = "report"


@dataclass
class Claim:
    """One checked number. ``paper`` and ``theory`` are None where the paper states nothing."""

    id: str
    source: str
    reproduced: float
    tolerance: float
    paper: float | None = None
    theory: float | None = None
    note: str = ""

    def __post_init__(self):
        if not isinstance(self.id, str) or not self.id:
            raise ValueError(f"claim id must be a non-empty string, got {self.id!r}")
        self.reproduced = check_real(f"{self.id}: reproduced", self.reproduced)
        self.tolerance = check_real(f"{self.id}: tolerance", self.tolerance)
        if self.tolerance < 0:
            raise ValueError(f"{self.id}: tolerance must be >= 0, got {self.tolerance!r}")
        for name in ("paper", "theory"):
            v = getattr(self, name)
            if v is not None:
                setattr(self, name, check_real(f"{self.id}: {name}", v, allow_inf=True))


def check_parameters(notebook: str, namespace: dict) -> None:
    """Check a notebook's parameters before any work: ``ldp.claims.check_parameters(
    "chapters/<chapter>/<name>.ipynb", globals())`` in the cell right after the parameters cell.

    The rules (type, range, finiteness, consistency) are the notebook's entry in
    :data:`ldpcode.parameters.NOTEBOOKS`; a bad value raises TypeError or ValueError naming the parameter,
    the value and what is allowed. Returns None, so the cell prints nothing."""
    _check_parameters(notebook, namespace)


def repo_root() -> Path:
    """The book's top folder: ``$LDPCODE_ROOT``, else the nearest parent of the working directory
    holding ``_toc.yml``, else the folder above the installed package."""
    env = os.environ.get("LDPCODE_ROOT")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / "_toc.yml").exists():
            return d
    return Path(__file__).resolve().parent.parent


def data_path(notebook: str, root: Path | None = None) -> Path:
    """``chapters/ren2020/figure1.ipynb`` -> ``<root>/data/ren2020/figure1.json``."""
    p = Path(notebook)
    if not str(notebook).endswith(".ipynb") or not p.name:
        raise ValueError(f"notebook must be a path like 'chapters/<chapter>/<name>.ipynb', got {notebook!r}")
    parts = p.with_suffix(".json").parts
    if parts[0] != "chapters" or len(parts) < 3:
        raise ValueError(f"notebook must be a path like 'chapters/<chapter>/<name>.ipynb', got {notebook!r}")
    return (root or repo_root()).joinpath("data", *parts[1:])


def _normalise(obj):
    return json.loads(json.dumps(obj, sort_keys=True))


def load(notebook: str, root: Path | None = None) -> dict | None:
    path = data_path(notebook, root)
    if not path.exists():
        return None
    return json.loads(path.read_text())


def write_atomic(path: Path, payload: dict) -> None:
    """Write JSON to ``path`` through a temporary file and a rename, so a killed run leaves the old file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(payload, fh, indent=1, sort_keys=False)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _fmt(x, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    return f"{x:.{digits}g}"


@dataclass
class CheckReport:
    """The table a notebook prints: each claim beside the paper, the theory and the stored value."""

    notebook: str
    rows: list = field(default_factory=list)
    compared: bool = True
    message: str = ""

    @property
    def ok(self) -> bool:
        return all(r["status"] in ("ok", "not compared", "written") for r in self.rows)

    def _table(self):
        head = ["claim", "paper", "theory", "reproduced", "stored", "tolerance", "status"]
        body = [[r["id"], _fmt(r["paper"]), _fmt(r["theory"]), _fmt(r["reproduced"]), _fmt(r["stored"]),
                 _fmt(r["tolerance"], 2), r["status"]] for r in self.rows]
        return head, body

    def __repr__(self) -> str:
        head, body = self._table()
        widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
        line = lambda row: "  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip()
        out = [line(head), line(["-" * w for w in widths])] + [line(r) for r in body]
        if self.message:
            out.append(self.message)
        return "\n".join(out)

    def _repr_html_(self) -> str:
        head, body = self._table()
        th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
        trs = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in body)
        msg = f"<p>{html.escape(self.message)}</p>" if self.message else ""
        return f"<table class='ldp-check'><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>{msg}"


def check(notebook: str, params: dict, claims: list[Claim], *, write: bool | None = None,
          root: Path | None = None) -> CheckReport:
    """Compare ``claims`` with the numbers stored for ``notebook`` (see the module docstring)."""
    if write is None:
        write = os.environ.get(WRITE_ENV, "") not in ("", "0")
    if not isinstance(notebook, str):
        raise TypeError(f"notebook must be a path string like 'chapters/<chapter>/<name>.ipynb', got {notebook!r}")
    data_path(notebook, root)  # refuses a path outside chapters/<chapter>/
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict of the notebook's parameters, got {params!r}")
    if not isinstance(claims, (list, tuple)) or not all(isinstance(c, Claim) for c in claims):
        raise TypeError(f"claims must be a list of Claim objects, got {claims!r}")
    params = _normalise(params)
    ids = [c.id for c in claims]
    if len(set(ids)) != len(ids):
        raise ValueError(f"claim ids must be unique, got {ids}")
    stored = load(notebook, root)
    report = CheckReport(notebook)
    stored_by_id = {c["id"]: c for c in (stored or {}).get("claims", [])}
    same_params = stored is not None and _normalise(stored.get("params")) == params
    for c in claims:
        s = stored_by_id.get(c.id) if same_params else None
        row = dict(asdict(c), stored=None if s is None else s["reproduced"])
        if write:
            row["status"] = "written"
        elif stored is None:
            row["status"] = "MISSING"
        elif not same_params:
            row["status"] = "not compared"
        elif s is None:
            row["status"] = "MISSING"
        else:
            row["status"] = "ok" if abs(c.reproduced - s["reproduced"]) <= c.tolerance else "FAIL"
        report.rows.append(row)
    if write:
        write_atomic(data_path(notebook, root),
                     {"notebook": notebook, "params": params, "claims": [asdict(c) for c in claims]})
        report.message = f"stored numbers written to data/{data_path(notebook, root).relative_to((root or repo_root()) / 'data')}"
    elif stored is None:
        report.message = f"no stored numbers for {notebook}; run with {WRITE_ENV}=1 to create them"
    elif not same_params:
        report.compared = False
        report.message = "parameters differ from the stored ones: nothing compared, nothing overwritten"
    if not report.ok:
        raise AssertionError(f"stored-number check failed for {notebook}:\n{report!r}")
    return report


@dataclass
class Table:
    """A plain table: aligned text for nbval and the terminal, HTML for the rendered book."""

    head: list
    body: list

    def __repr__(self) -> str:
        widths = [max(len(str(x)) for x in col) for col in zip(self.head, *self.body)]
        line = lambda row: "  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip()  # noqa: E731
        return "\n".join([line(self.head), line(["-" * w for w in widths])] + [line(r) for r in self.body])

    def _repr_html_(self) -> str:
        th = "".join(f"<th>{html.escape(str(h))}</th>" for h in self.head)
        trs = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in self.body)
        return f"<table class='ldp-report'><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>"


@dataclass
class Summary:
    """Every stored claim of the book, one row each (for the reproduction report)."""

    rows: list

    def table(self) -> Table:
        head = ["claim", "source", "paper", "theory", "reproduced", "agrees with paper"]
        body = [[r["id"], r["source"], _fmt(r["paper"]), _fmt(r["theory"]), _fmt(r["reproduced"]), r["verdict"]]
                for r in self.rows]
        return Table(head, body)

    def counts(self) -> dict:
        out: dict = {}
        for r in self.rows:
            out[r["verdict"]] = out.get(r["verdict"], 0) + 1
        return out

    def get(self, claim_id: str) -> dict:
        """The stored claim ``claim_id`` (a dict with paper, theory, reproduced, tolerance, ...)."""
        for r in self.rows:
            if r["id"] == claim_id:
                return r
        raise ValueError(f"no stored claim {claim_id!r} under data/ (run its notebook with --write first)")

    def __repr__(self) -> str:
        return repr(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def verdict(paper, reproduced, rel: float = 0.1) -> str:
    """A coarse label for the report: is the reproduced number within ``rel`` (relative) of the paper's?

    This is not the check (that is :func:`check`, against the stored value); it only says where the book
    and the paper differ, which each notebook then explains.
    """
    if paper is None:
        return "no number in paper"
    if math.isinf(paper) or paper == 0:
        return "yes" if reproduced == paper else "no"
    return "yes" if abs(reproduced - paper) <= rel * abs(paper) else "no"


def collect(chapter: str | None = None, root: Path | None = None, rel: float = 0.1) -> Summary:
    """All stored claims under ``data/`` (or ``data/<chapter>/``), sorted by file and claim order."""
    base = (root or repo_root()) / "data"
    files = sorted((base / chapter).glob("*.json") if chapter else base.glob("*/*.json"))
    files = [f for f in files if f.parent.name != REPORT_CHAPTER]  # the report does not report on itself
    rows = []
    for f in files:
        for c in json.loads(f.read_text())["claims"]:
            rows.append(dict(c, file=str(f.relative_to(base)), verdict=verdict(c["paper"], c["reproduced"], rel)))
    return Summary(rows)
