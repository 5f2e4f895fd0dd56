"""The notebook contract: the one call a chapter notebook makes after its parameters cell.

Every chapter notebook has a cell tagged ``parameters`` (papermill injects a reader's values right after it) and,
in the next cell::

    nb = ldp.book.notebook("chapters/<chapter>/<name>.ipynb", globals())

:func:`notebook` reads the parameter *names* from the notebook's tagged cell, the one place they are declared
(:func:`ldpcode.cells.parameter_names`), takes their *values* from the namespace, and checks them before any
work (:func:`ldpcode.parameters.check`: type, range, consistency, and a misspelt name papermill injected). The
returned :class:`Notebook` keeps them, so no notebook re-types its params for the check at its end.

Claims are built through it: ``nb.statistical(name, ...)``, ``nb.exact``, ``nb.bound``, ``nb.reproducible`` and
``nb.prediction`` take the constructors' arguments (:mod:`ldpcode.claims.constructors`), prefix ``name`` with the
notebook's slug (:attr:`Notebook.prefix`, ``"<chapter>.<name>"`` unless the notebook gives its own) and collect the
claim. They return None, so a cell that ends with one prints nothing (the claim is ``nb.claims[-1]``). Two families
recur across the book and have one builder each: :meth:`Notebook.regret_bound` (a mean pseudo-regret at T under a
theorem's bound) and :meth:`Notebook.ratio` (a ratio of mean regrets with its delta-method standard error).
:meth:`Notebook.check` then compares every collected claim with the stored numbers
(:func:`ldpcode.claims.check`) and returns the table the notebook prints. A driver's claim builder takes ``nb`` and
calls these methods (:func:`ldpcode.bco.table1.one_point_exponent_claims`); every claim's id lies under the prefix,
so two notebooks cannot write the same id.

A claim's reason is best written from the run's own numbers. Where it quotes an analysis the book made once at its
stored parameters (a slope from several window starts, the round a radius leaves its cap), the notebook wraps it in
:meth:`Notebook.observed`, which says so in front when a reader runs other parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from . import claims as _claims
from .claims.store import _normalise
from ._validate import check_int, check_real
from .stats import mean_se, ratio_of_means_se
from .parameters import check as _check_parameters
from .cells import parameter_names


@dataclass
class Notebook:
    """A chapter notebook: its path, its checked parameters, its claim-id prefix and the claims it has built."""

    path: str
    params: dict
    prefix: str
    claims: list = field(default_factory=list)

    def _id(self, name: str) -> str:
        if not isinstance(name, str) or not name or name.startswith(".") or name.endswith("."):
            raise ValueError(f"a claim name must be a non-empty string like 'ratio_B.eps2', got {name!r}")
        return f"{self.prefix}.{name}"

    def _build(self, constructor, name, args, kwargs) -> None:
        claim = constructor(self._id(name), *args, **kwargs)
        if any(c.id == claim.id for c in self.claims):
            raise ValueError(
                f"claim {claim.id} was built twice: ids must be unique (after re-running one cell by hand, re-run "
                "from the cell of ldp.book.notebook)"
            )
        self.claims.append(claim)

    def statistical(self, name: str, *args, **kwargs) -> None:
        """:func:`ldpcode.claims.statistical` with id ``<prefix>.<name>``, collected."""
        self._build(_claims.statistical, name, args, kwargs)

    def exact(self, name: str, *args, **kwargs) -> None:
        """:func:`ldpcode.claims.exact` with id ``<prefix>.<name>``, collected."""
        self._build(_claims.exact, name, args, kwargs)

    def bound(self, name: str, *args, **kwargs) -> None:
        """:func:`ldpcode.claims.bound` with id ``<prefix>.<name>``, collected."""
        self._build(_claims.bound, name, args, kwargs)

    def reproducible(self, name: str, *args, **kwargs) -> None:
        """:func:`ldpcode.claims.reproducible` with id ``<prefix>.<name>``, collected."""
        self._build(_claims.reproducible, name, args, kwargs)

    def prediction(self, name: str, *args, **kwargs) -> None:
        """:func:`ldpcode.claims.prediction` with id ``<prefix>.<name>``, collected."""
        self._build(_claims.prediction, name, args, kwargs)

    def regret_bound(self, name: str, source: str, result, bound: float, *, how: str, **kwargs) -> None:
        """A theorem's bound on the mean pseudo-regret at the horizon: :meth:`bound` with ``reproduced`` the mean of
        ``result.final_regret()`` over runs, ``se`` its :func:`~ldpcode.stats.mean_se` and ``horizon`` the
        result's horizon (``kwargs``: the rest of :func:`ldpcode.claims.bound`, e.g. ``note``). A bound at or above
        T·Δ_max, the most any policy can lose (for a result with ``gaps``), cannot fail: it is given that ``cap`` and
        reads "vacuous"."""
        gaps = getattr(result, "gaps", None)  # a stochastic bandit's (SimulationResult); other results have none
        cap = result.horizon * float(max(gaps)) if gaps is not None else 0.0  # every pull on the worst arm
        self._bound_at_horizon(name, source, result.final_regret(), bound, cap=cap, horizon=result.horizon, how=how,
                               **kwargs)  # fmt: skip

    def pulls_bound(self, name: str, source: str, pulls, bound: float, *, horizon: int, how: str, **kwargs) -> None:
        """A theorem's bound on the mean number of pulls of a suboptimal arm at ``horizon``: :meth:`bound` with
        ``reproduced`` the mean of ``pulls`` (one count per run) and ``se`` its :func:`~ldpcode.stats.mean_se`. A
        bound at or above ``horizon``, the most pulls any arm can have, cannot fail: it is given that ``cap`` and
        reads "vacuous" (a re-run at T = 20,000 showed "holds" under a bound of 1,627,701 pulls)."""
        pulls = np.asarray(pulls, dtype=float)
        horizon = check_int("horizon", horizon, minimum=1)
        bound = check_real("bound", bound, allow_inf=True)
        self._bound_at_horizon(name, source, pulls, bound, cap=float(horizon), horizon=horizon, how=how, **kwargs)

    def _bound_at_horizon(self, name, source, per_run, bound, *, cap: float, horizon: int, how: str, **kwargs) -> None:
        """:meth:`bound` on the mean of ``per_run`` (one number per run) with its standard error at ``horizon``; a
        bound at or above ``cap`` > 0, the largest value the number can take, is given that cap: no run could fail
        it, and the claim says so (vacuous), not "holds"."""
        if bound >= cap > 0:
            kwargs = {**kwargs, "cap": cap}
        self.bound(name, source, reproduced=per_run.mean(), se=mean_se(per_run), bound=bound, how=how,
                   horizon=horizon, **kwargs)  # fmt: skip

    def ratio(self, name: str, source: str, num, den, *, t: int, paper=None, **kwargs) -> None:
        """The ratio of two results' mean regrets at checkpoint ``t`` (paired runs, common random numbers), with
        its delta-method standard error (:func:`~ldpcode.stats.ratio_of_means_se`): a
        :func:`ldpcode.claims.statistical` claim when ``paper`` (the paper's printed number) is given, else a
        :func:`ldpcode.claims.reproducible` one; ``horizon`` is ``t``, ``kwargs`` the rest of the constructor's."""
        x, y = num.at(t), den.at(t)
        value, se = x.mean() / y.mean(), float(ratio_of_means_se(x, y))
        if paper is None:
            self.reproducible(name, source, reproduced=value, se=se, horizon=t, **kwargs)
        else:
            self.statistical(name, source, reproduced=value, se=se, paper=paper, horizon=t, **kwargs)

    def at_stored_params(self) -> bool:
        """Whether this run is the book's own: its params are those stored in data/, or it is storing them
        (``LDPCODE_WRITE_CLAIMS`` set, :func:`ldpcode.claims.env_flag`)."""
        return _claims.env_flag(_claims.WRITE_ENV) or self._params_are_stored

    @cached_property
    def _params_are_stored(self) -> bool:
        # read data/ once: a notebook wraps several reasons in observed()
        stored = _claims.load(self.path)
        return stored is not None and _normalise(stored.get("params")) == _normalise(self.params)

    def glue(self, *names: str) -> None:
        """The values of the parameters ``names`` for the prose, not displayed (myst-nb's ``glue``): a markdown cell
        writes {glue:text}`audit_horizon` where it would write the name alone, so the page reads "T = 12" and a re-run
        with other parameters reads its own value. A name that is not one of the notebook's parameters is a
        ValueError."""
        unknown = [n for n in names if n not in self.params]
        if unknown or not names:
            raise ValueError(f"glue takes parameters of {self.path} ({', '.join(self.params)}), got {list(names)}")
        from myst_nb import glue

        for name in names:
            glue(name, self.params[name], display=False)

    def observed(self, reason: str) -> str:
        """A claim's reason that quotes what the book measured at its stored parameters (a window spread, the
        round a radius leaves its cap, a slope from another window start), analysed once and written as text, not
        recomputed by the run. At the stored parameters it is returned as it is; at a reader's other parameters
        it says so in front (``"at the book's parameters, not re-measured in this run: ..."``), so the check
        table never prints the book's measurements as if they described the reader's numbers."""
        if not isinstance(reason, str) or not reason.strip():
            raise ValueError(f"reason must be a non-empty string, got {reason!r}")
        return reason if self.at_stored_params() else f"at the book's parameters, not re-measured in this run: {reason}"

    def check(self, **kwargs) -> _claims.CheckReport:
        """Check the collected claims against the stored numbers: :func:`ldpcode.claims.check` with this notebook's
        path and params (``kwargs``: its ``write`` and ``root``). Every id must start with ``<prefix>.`` (a claim
        appended to :attr:`claims` by hand is refused otherwise)."""
        outside = [c.id for c in self.claims if isinstance(c, _claims.Claim) and not c.id.startswith(self.prefix + ".")]
        if outside:
            raise ValueError(f"{self.path}: claim ids must start with {self.prefix + '.'!r}, got {outside[:3]}")
        return _claims.check(self.path, self.params, self.claims, **kwargs)


def notebook(path: str, namespace: dict, *, prefix: str | None = None) -> Notebook:
    """Check the parameters of the notebook at ``path`` (``chapters/<chapter>/<name>.ipynb``) in ``namespace``
    (its ``globals()``) before any work, and return its :class:`Notebook`.

    ``prefix`` is the start of its claim ids, ``"<chapter>.<name>"`` by default (``chapters/ren2020/figure1.ipynb``
    -> ``ren2020.figure1``). Raises what :func:`ldpcode.parameters.check` raises for a bad value (TypeError or
    ValueError naming the parameter), and ValueError for a path that is not a chapter notebook."""
    if not isinstance(path, str):
        raise TypeError(f"path must be a string like 'chapters/<chapter>/<name>.ipynb', got {path!r}")
    if not isinstance(namespace, dict):
        raise TypeError(f"namespace must be the notebook's globals(), got {type(namespace).__name__}")
    _claims.data_path(path)  # refuses a path outside chapters/<chapter>/<name>.ipynb
    _check_parameters(path, namespace)
    names = parameter_names(path)
    if prefix is None:
        parts = path.removesuffix(".ipynb").split("/")
        prefix = f"{parts[1]}.{parts[2]}"
    if not isinstance(prefix, str) or not prefix or prefix.startswith(".") or prefix.endswith("."):
        raise ValueError(f"prefix must be a dotted name like 'ren2020.figure1', got {prefix!r}")
    return Notebook(path, {name: namespace[name] for name in names}, prefix)
