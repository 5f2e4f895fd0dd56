"""Sweeps: a grid of policy × instance × ε × blocks of seeds, run locally or on a Dask cluster, as one tidy table.

A figure re-run at T = 10^8, or over a fine ε grid, outgrows one machine's cores. :func:`sweep` cuts the grid
into tasks of ``block`` runs (one policy, one instance, one ε, runs r0 .. r0 + block - 1), runs them

* locally (``scheduler=None``, the default): on a pool of threads in this process (the compiled kernels release
  the GIL; ``workers`` threads, default every core, :func:`ldpcode.limits.default_workers`);
* on a Dask cluster (``scheduler="localcluster"`` starts a :class:`distributed.LocalCluster` of one single-threaded
  worker process per core and closes it afterwards; ``scheduler="tcp://host:8786"`` connects a
  :class:`distributed.Client` to a running scheduler; or pass a ``Client``),

and returns a :class:`pandas.DataFrame` with one row per (policy, instance, ε, run, checkpoint): the pseudo-regret
of that run at that checkpoint. :func:`save_table` writes it as Parquet or CSV.

**Bit-identical whatever the executor.** Run r of every cell draws from ``SeedSequence(seed).spawn(runs)[r]``,
rebuilt from its spawn key (``SeedSequence(seed, spawn_key=(r,))``) in whichever process runs the block, exactly as
:func:`ldpcode.simulate.simulate` draws it. So a cell of the table equals ``simulate(policy, instance, horizon,
runs, seed)`` run for run, whatever the block size, the number of threads or processes, or the order in which
blocks finish; the regret is computed in the calling process from the gathered pull counts, the same way
:class:`ldpcode.simulate.SimulationResult` computes it. Every cell shares the same seed, so the policies of one
instance see the same reward draws (common random numbers), as in every figure of the book.

Non-private policies (``UCB1``, ``KL-UCB``, ``UCB1-S``) do not depend on ε: they run once per instance and their
rows carry ε = inf. The heterogeneous ``HeLDP-UCB-*`` need the users' levels: pass ``heterogeneous``, a
function ε → (ε_min, :class:`ldpcode.instances.PrivacyLevels`) (module level, so that it pickles); their rows carry
the cell's ε, and the table's ``attrs`` the ε_min and the levels each cell ran with (:func:`ldpcode.table_io.provenance`).

Cost. Before any work the estimated core-seconds and bytes of the whole grid (each policy's own estimate,
:func:`ldpcode.simulate.simulate_cost`) are checked against ``limits`` (default :class:`ldpcode.limits.Limits`,
one core-hour) when the grid runs on this machine (threads, or ``"localcluster"``), and of each block when it
runs on a remote cluster (whose purpose is a grid larger than one machine's hour; ``limits`` then caps what one
task may cost). A grid of more than :data:`MAX_CELLS` cells or :data:`MAX_BLOCKS` blocks is refused at once,
before any policy is built, and a scheduler address that does not answer within :data:`PROBE_SECONDS` is refused.
The policies, instances and ε are taken in the order given; a ``set`` (whose order, and so the table's, would
depend on the interpreter's hash seed) is refused.

Files: :func:`save_table` and :func:`load_table` (:mod:`ldpcode.table_io`) write a table whole or not at all,
and refuse to read one that is not whole.

Command line: ``python -m ldpcode sweep --help``.
"""

from __future__ import annotations

import functools
import math
import re
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from ._validate import (
    check_bool,
    check_choice,
    check_epsilon,
    check_int,
    check_keywords,
    check_seed,
    close_name,
    one_line,
)
from .instances import Instance, PrivacyLevels, make_instance
from .limits import MAX_HORIZON, MAX_RUNS, MAX_WORKERS, Limits, check_limits, default_workers, run_pool
from .policies import REGISTRY, make_policy
from .policies.engines import ENGINES, on_engine
from .simulate import resolve_checkpoints, simulate_cost
from .table_io import COLUMNS, ROWS_KEY, check_table_path, load_table, provenance, save_table  # noqa: F401 (a sweep's API)


@dataclass(frozen=True)
class Task:
    """One block of a sweep: ``policy`` (its name), the instance, ε (None for a non-private policy), the run
    indices ``first`` .. ``first + size - 1`` of a grid with seed ``seed``; everything a worker process needs."""

    policy: str
    instance: Instance
    epsilon: float | None
    first: int
    size: int
    seed: int
    horizon: int
    checkpoints: np.ndarray = field(repr=False)
    heterogeneous: object = field(default=None, repr=False)
    options: tuple = ()
    engine: str = "per-pull"

    def build(self, *, engine: bool = True):
        """(the policy on its engine, the users' privacy levels or None), built where the block runs; with
        ``engine=False``, the policy as :func:`ldpcode.make_policy` makes it."""
        if self.policy.startswith("HeLDP-"):
            epsilon_min, levels = self.levels()
            policy = make_policy(self.policy, epsilon_min=epsilon_min, **dict(self.options))
        else:
            policy, levels = make_policy(self.policy, self.epsilon, **dict(self.options)), None
        return (on_engine(policy, self.instance, self.engine, levels) if engine else policy), levels

    def levels(self) -> tuple:
        """(ε_min, the users' :class:`~ldpcode.instances.PrivacyLevels`) of a heterogeneous cell: ``heterogeneous(ε)``."""
        out = self.heterogeneous(self.epsilon)
        out = tuple(out) if isinstance(out, (tuple, list)) else out  # a list [eps_min, levels] ran before too
        if not (isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], PrivacyLevels)):
            raise TypeError(
                f"heterogeneous({self.epsilon:g}) must return (epsilon_min, PrivacyLevels), got {one_line(out, 80)}"
            )
        return out

    def engine_used(self) -> str:
        """The engine the block runs on: ``self.engine``, or for ``"auto"`` the one it chose for this cell."""
        if self.engine != "auto":
            return self.engine
        policy, levels = self.build(engine=False)
        return "per-pull" if on_engine(policy, self.instance, "auto", levels) is policy else "event"


def run_task(task: Task, cancel=None) -> np.ndarray:
    """The pull counts (size, C, K) of one block: run ``task.first + i`` from the spawn key
    ``(task.first + i,)`` of ``SeedSequence(task.seed)``, exactly the run :func:`ldpcode.simulate.simulate`
    makes with the same seed (module docstring). Importable by name, so a Dask worker can run it."""
    policy, levels = task.build()
    out = np.empty((task.size, task.checkpoints.size, task.instance.n_arms), dtype=np.int64)
    for i in range(task.size):
        seed_seq = np.random.SeedSequence(task.seed, spawn_key=(task.first + i,))
        counts, _ = policy.run_one(
            task.instance, task.horizon, seed_seq, task.checkpoints, privacy_levels=levels, cancel=cancel
        )
        out[i] = counts
    return out


def _ordered(name: str, values, what: str) -> tuple:
    """``values`` as a tuple, refusing a string, a non-iterable and an unordered set (whose order, and so the
    table's row order, would depend on the interpreter's hash seed)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a list of {what}, got {one_line(values, 80)}")
    if isinstance(values, (set, frozenset, dict)):
        raise TypeError(
            f"{name} must be a list (ordered) of {what}, not a {type(values).__name__}: the table's rows follow its order"
        )
    if isinstance(values, np.ndarray) and values.ndim != 1:  # a 0-d array: "iteration over a 0-d array"
        raise TypeError(f"{name} must be a list of {what}, got an array of shape {values.shape}")
    out = tuple(values)
    if len(out) > MAX_CELLS:  # before each is checked or built: a refusal of a huge grid costs no time
        raise ValueError(f"{name} holds {len(out):,} {what}; a sweep takes at most {MAX_CELLS:,} cells")
    return out


def _first_repeat(values):
    """The first value equal to an earlier one (1 and 1.0 are equal), or None."""
    seen: set = set()
    for v in values:
        if v in seen:
            return v
        seen.add(v)
    return None


def _policies(policies) -> tuple[str, ...]:
    names = _ordered("policies", policies, "policy names")
    if not names:
        raise ValueError("policies must name at least one policy")
    for name in names:
        if not isinstance(name, str) or name not in REGISTRY:
            close = close_name(name, sorted(REGISTRY))
            hint = f" (did you mean {close!r}?)" if close else ""
            raise ValueError(f"unknown policy {one_line(name, 80)}{hint}; choose from {', '.join(sorted(REGISTRY))}")
    twice = _first_repeat(names)
    if twice is not None:
        raise ValueError(f"policies must not repeat one, got {twice!r} twice")
    return names


def _instances(instances) -> tuple[Instance, ...]:
    items = _ordered("instances", [instances] if isinstance(instances, (str, Instance)) else instances, "instances")
    for i in items:
        if not isinstance(i, (str, Instance)):
            raise TypeError(f"an instance must be a name or come from make_instance(), got {one_line(i, 80)}")
    twice = _first_repeat(i if isinstance(i, str) else i.name for i in items)  # before any is built
    if twice is not None:
        raise ValueError(f"instances must have distinct names, got {one_line(twice, 80)} twice")
    out = tuple(make_instance(i) if isinstance(i, str) else i for i in items)
    if not out:
        raise ValueError("instances must hold at least one instance")
    return out


def _epsilons(epsilons) -> tuple[float, ...]:
    eps = tuple(check_epsilon(e) for e in _ordered("epsilons", epsilons, "privacy levels"))
    if not eps:
        raise ValueError("epsilons must hold at least one privacy level")
    twice = _first_repeat(eps)
    if twice is not None:
        raise ValueError(f"epsilons must not repeat one, got {twice:g} twice")
    return eps


def plan(
    policies,
    epsilons,
    instances,
    horizon: int,
    runs: int,
    seed: int = 0,
    *,
    checkpoints=None,
    block: int = 5,
    heterogeneous=None,
    options=None,
    engine: str = "per-pull",
) -> list[Task]:
    """The tasks of a sweep, in the table's order (policy, instance, ε, first run); validates everything
    :func:`sweep` takes about the grid and refuses a policy an instance cannot run, before any work."""
    check_choice("engine", engine, ENGINES)
    names = _policies(policies)
    eps = _epsilons(epsilons)
    inst = _instances(instances)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    seed = check_seed("seed", seed)
    block = check_int("block", block, minimum=1, maximum=MAX_RUNS)
    horizon = check_int("horizon", horizon, minimum=max(i.n_arms for i in inst), maximum=MAX_HORIZON)
    cells = len(names) * len(inst) * len(eps)
    blocks = cells * -(-runs // block)
    if cells > MAX_CELLS or blocks > MAX_BLOCKS:  # O(1), before a task or a policy is built
        raise ValueError(
            f"a sweep of {cells:,} cells in {blocks:,} blocks of {block} runs is beyond the most a sweep plans "
            f"({MAX_CELLS:,} cells, {MAX_BLOCKS:,} blocks); use a larger block, or split the grid into several sweeps"
        )
    cp = resolve_checkpoints(horizon, checkpoints)
    if any(n.startswith("HeLDP-") for n in names) and not callable(heterogeneous):
        raise ValueError(
            "the HeLDP-UCB-* policies need heterogeneous=f, a function eps -> (epsilon_min, PrivacyLevels) "
            "giving the users' levels of the cell eps"
        )
    options = {} if options is None else options
    if not isinstance(options, dict) or not all(isinstance(v, dict) for v in options.values()):
        raise TypeError(f"options must be a dict of policy name -> dict of make_policy keywords, got {options!r}")
    for name in options:
        if name not in names:
            raise ValueError(f"options names policy {name!r}, which is not in policies {list(names)}")
        # make_policy's keywords but the cell's epsilon (or epsilon_min), named here and not as make_policy's own
        # TypeError ("make_policy() got an unexpected keyword argument 'alfa'")
        check_keywords(f"sweep options of policy {name!r}", make_policy, options[name], leave_out=_CELL_KEYWORDS)
    tasks = []
    for name in names:
        extra = tuple(sorted(options.get(name, {}).items()))
        for instance in inst:
            for e in eps if _is_private(name) else (None,):
                probe = Task(name, instance, e, 0, 1, seed, horizon, cp, heterogeneous, extra, engine)
                policy, levels = probe.build()
                policy.check_environment(instance, levels)
                for first in range(0, runs, block):
                    tasks.append(
                        Task(
                            name,
                            instance,
                            e,
                            first,
                            min(block, runs - first),
                            seed,
                            horizon,
                            cp,
                            heterogeneous,
                            extra,
                            engine,
                        )
                    )
    return tasks


#: the keywords of make_policy a sweep sets itself, per cell: never a policy's option
_CELL_KEYWORDS = ("name", "epsilon", "epsilon_min")

MAX_CELLS = 10**4
"""The most (policy, instance, ε) cells of one sweep: a grid beyond it is refused at once, before any policy
is built (split it into several sweeps)."""
MAX_BLOCKS = 10**5
"""The most blocks (tasks) of one sweep: beyond it the scheduling alone costs more than it saves (use a larger
``block``)."""

LEVEL_FAMILIES = {
    "constant": "one level: constant:1",
    "discrete": "equally likely levels: discrete:0.5,1.5",
    "clipped-gaussian": "mean, sd, lo, hi: clipped-gaussian:1,1,0,100",
    "ren-heldp-discrete": "the paper's {0, 0.2, 1, 2, 100}",
    "ren-heldp-gaussian": "the paper's N(1, 1) clipped to [0, 100]",
}
"""The users' privacy-level families a sweep's ``--levels`` may name, with the numbers each takes
(:func:`ldpcode.instances.make_privacy_levels`)."""


def cli_levels(spec: tuple, epsilon: float):
    """(ε_min, the users' levels) of one HeLDP cell from a command line's ``--levels`` ``spec`` = (family,
    numbers): the cell's ε is the agent's ε_min, and the levels are the family's
    (:data:`LEVEL_FAMILIES`). Module level, so that it pickles to a Dask worker with the task."""
    from .instances import make_privacy_levels

    kind, numbers = spec
    if kind == "constant":
        if len(numbers) != 1:
            raise ValueError(f"constant takes one level, e.g. constant:1, got {len(numbers)} numbers")
        return epsilon, make_privacy_levels("constant", epsilon=numbers[0])
    if kind == "discrete":
        if not numbers:
            raise ValueError("discrete takes its levels, e.g. discrete:0.5,1.5")
        return epsilon, make_privacy_levels("discrete", values=list(numbers))
    if kind == "clipped-gaussian":
        if len(numbers) != 4:
            raise ValueError(f"clipped-gaussian takes mean, sd, lo, hi, e.g. clipped-gaussian:1,1,0,100, got {numbers}")
        mean, sd, lo, hi = numbers
        return epsilon, make_privacy_levels("clipped-gaussian", mean=mean, sd=sd, lo=lo, hi=hi)
    if kind not in LEVEL_FAMILIES:
        raise ValueError(f"unknown privacy-level family {kind!r}; known: {', '.join(LEVEL_FAMILIES)}")
    if numbers:
        raise ValueError(f"{kind} takes no numbers, got {numbers}")
    return epsilon, make_privacy_levels(kind)


def cli_heterogeneous(spec: tuple):
    """The ``heterogeneous`` argument of :func:`sweep` for a command line's ``--levels`` ``spec``."""
    return functools.partial(cli_levels, spec)


def _is_private(name: str) -> bool:
    """Whether the policy ``name`` takes a privacy level (the non-private ones build without one)."""
    try:
        policy = make_policy(name)
    except ValueError:  # "needs epsilon" (or epsilon_min): a private policy
        return True
    return not math.isinf(policy.label)


def _cost(tasks: list[Task], workers: int) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes of the largest block, description) of ``tasks``."""
    seconds = 0.0
    peak = 0.0
    for task in tasks:
        policy, _ = task.build()
        s, b, _ = simulate_cost(policy, task.instance, task.horizon, task.size, task.checkpoints.size, 1)
        seconds += s
        peak = max(peak, b)
    runs = sum(t.size for t in tasks)
    work = f"{len(tasks)} blocks, {runs} runs of horizon up to {max(t.horizon for t in tasks):,}"
    # the blocks in flight at once each hold their arrays, and the table holds every run's counts
    table = sum(t.size * t.checkpoints.size * (t.instance.n_arms * 8 + 64) for t in tasks)
    return seconds, peak * max(1, workers) + table, work


def _local(tasks: list[Task], workers: int, progress: bool) -> list[np.ndarray]:
    return run_pool(
        lambda i, cancel: run_task(tasks[i], cancel), len(tasks), workers, progress="sweep" if progress else None
    )


def _client(scheduler):
    """(a distributed.Client, a function closing what this call opened) for ``scheduler``."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as err:  # pragma: no cover - distributed is in requirements.txt
        raise ImportError("a Dask scheduler needs the 'distributed' package (pip install distributed)") from err
    if isinstance(scheduler, Client):
        return scheduler, lambda: None
    if scheduler == "localcluster":
        cluster = LocalCluster(
            n_workers=default_workers(), threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)

        def close():
            client.close()
            cluster.close()

        return client, close
    if not is_scheduler_address(scheduler):
        raise _bad_scheduler(scheduler)
    try:
        client = Client(scheduler, timeout=PROBE_SECONDS)
    except OSError as err:  # distributed's TimeoutError is an OSError
        raise ValueError(
            f"no Dask scheduler answered at {scheduler} within {PROBE_SECONDS:g} s ({type(err).__name__}); start one "
            "(dask scheduler), check the address, or use scheduler='localcluster'"
        ) from None
    return client, client.close


PROBE_SECONDS = 3.0
"""How long a sweep waits for a scheduler address to answer before refusing it (:func:`_client`)."""


SCHEDULER_ADDRESS = re.compile(r"(tcp|tls|ws|wss)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):[0-9]{1,5}/?")
"""A Dask scheduler address as :func:`sweep` and ``python -m ldpcode sweep --scheduler`` accept it (``fullmatch``):
the scheme tcp, tls, ws or wss, a host (a name, an IPv4 address or a bracketed IPv6 one) and a port. Any other
string with ``://`` (``inproc://x``, ``tcp://host`` without its port) failed late, deep in distributed ("not enough
values to unpack")."""


def is_scheduler_address(scheduler) -> bool:
    """Whether ``scheduler`` is a string :data:`SCHEDULER_ADDRESS` matches whole."""
    return isinstance(scheduler, str) and SCHEDULER_ADDRESS.fullmatch(scheduler) is not None


def _check_scheduler(scheduler) -> None:
    """Refuse, before any work, a ``scheduler`` that is none of None, ``"localcluster"``, an address with a scheme,
    a host and a port (:data:`SCHEDULER_ADDRESS`: ``tcp://host:8786``) or a ``distributed.Client``."""
    if (
        scheduler is None
        or (isinstance(scheduler, str) and scheduler == "localcluster")
        or is_scheduler_address(scheduler)
    ):
        return
    if type(scheduler).__name__ == "Client":  # distributed is imported only when a cluster is used
        return
    raise _bad_scheduler(scheduler)


def _bad_scheduler(scheduler) -> ValueError:
    return ValueError(
        f"scheduler must be None (this process), 'localcluster', a scheduler address such as "
        f"'tcp://127.0.0.1:8786' (tcp, tls, ws or wss, a host and a port) or a distributed.Client, got {scheduler!r}"
    )


def _dask(tasks: list[Task], client, progress: bool) -> list[np.ndarray]:
    from distributed import as_completed

    futures = client.map(run_task, tasks, pure=False)
    index = {f.key: i for i, f in enumerate(futures)}
    out: list = [None] * len(tasks)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(tasks), desc="sweep (dask)", leave=False)
    try:
        for future in as_completed(futures):
            i = index[future.key]
            try:
                out[i] = future.result()
            except Exception as err:
                raise RuntimeError(f"sweep block {tasks[i]!r} failed on the cluster: {err}") from err
            if bar is not None:
                bar.update()
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        if bar is not None:
            bar.close()
    return out


def sweep(
    policies,
    epsilons,
    instances,
    horizon: int,
    runs: int,
    seed: int = 0,
    *,
    checkpoints=None,
    block: int = 5,
    scheduler=None,
    workers: int | None = None,
    heterogeneous=None,
    options=None,
    progress: bool | None = None,
    limits: Limits | None = None,
    engine: str = "per-pull",
):
    """Run every (policy, instance, ε) cell for ``runs`` runs of ``horizon`` pulls and return the tidy table
    (:data:`COLUMNS`; module docstring): one row per run and checkpoint (default 121 log-spaced checkpoints,
    :func:`ldpcode.simulate.log_checkpoints`; given, they must end at ``horizon``).

    ``instances``: a name, an :class:`~ldpcode.instances.Instance` or a list of them. ``block`` runs make one task.
    ``scheduler``: None (threads in this process, ``workers`` of them), ``"localcluster"``, an address or a
    ``distributed.Client``. ``options`` gives a policy's further keywords of :func:`ldpcode.make_policy`
    (``{"AdaP-UCB": {"alpha": 4.0}}``). ``progress`` shows a bar over blocks (default: only on a terminal). The table's
    ``attrs`` record horizon, runs, seed, the wall-clock seconds (not part of the numbers) and :func:`~ldpcode.table_io.provenance`: the
    engine, every instance's arms, the policies' options. Each cell equals
    :func:`ldpcode.simulate.simulate` with the same seed and ``engine`` (:mod:`ldpcode.policies.engines`), run for run.
    """
    _check_scheduler(scheduler)
    tasks = plan(
        policies,
        epsilons,
        instances,
        horizon,
        runs,
        seed,
        checkpoints=checkpoints,
        block=block,
        heterogeneous=heterogeneous,
        options=options,
        engine=engine,
    )
    workers = default_workers() if workers is None else check_int("workers", workers, minimum=1, maximum=MAX_WORKERS)
    progress = sys.stderr.isatty() if progress is None else check_bool("progress", progress)
    start = time.perf_counter()
    if scheduler is None or scheduler == "localcluster":  # this machine: the whole grid within the limits
        seconds, nbytes, work = _cost(tasks, workers)
        check_limits("sweep", work, seconds, nbytes, limits)
    else:  # a remote cluster runs more than one machine's hour; each block stays within the limits
        for task in tasks:
            s, b, w = _cost([task], 1)
            check_limits("sweep (one block)", w, s, b, limits)
    if scheduler is None:
        counts = _local(tasks, workers, progress)
    else:
        client, close = _client(scheduler)
        try:
            counts = _dask(tasks, client, progress)
        finally:
            close()
    wall = time.perf_counter() - start
    return _table(tasks, counts, wall, check_int("runs", runs, minimum=1))  # validated by plan()


def _table(tasks: list[Task], counts: list[np.ndarray], wall: float, runs: int):
    """The tidy table from the blocks' pull counts; each cell's regret is computed once from the stacked counts of
    all its runs, ``counts @ gaps``, as :attr:`ldpcode.simulate.SimulationResult.regret` computes it."""
    import pandas as pd

    frames = []
    cells: dict = {}
    for task, c in zip(tasks, counts):
        cells.setdefault((task.policy, task.instance.name, task.epsilon), (task, []))[1].append(c)
    for (policy, instance, eps), (task, blocks) in cells.items():
        regret = np.concatenate(blocks) @ task.instance.gaps  # (runs, C)
        n_runs, n_cp = regret.shape
        frames.append(
            pd.DataFrame(
                {
                    "policy": policy,
                    "instance": instance,
                    "epsilon": math.inf if eps is None else float(eps),
                    "run": np.repeat(np.arange(n_runs), n_cp),
                    "t": np.tile(task.checkpoints, n_runs),
                    "regret": regret.ravel(),
                }
            )
        )
    table = pd.concat(frames, ignore_index=True)
    for col in ("policy", "instance"):
        table[col] = table[col].astype("string")
    first = tasks[0]
    table.attrs.update(
        horizon=first.horizon,
        runs=runs,
        seed=first.seed,
        pulls=int(sum(t.size * t.horizon for t in tasks)),
        wall_seconds=wall,
        **provenance(tasks),
    )
    return table


def summary(table, t: int | None = None):
    """Mean pseudo-regret and its standard error over runs, per (policy, instance, ε), at checkpoint ``t``
    (default: the horizon, the last checkpoint). Needs at least two runs a cell (:func:`ldpcode.stats.mean_with_se`)."""
    from .stats import mean_with_se

    t = int(table["t"].max()) if t is None else check_int("t", t, minimum=1)
    at = table[table["t"] == t]
    if at.empty:
        raise ValueError(f"t={t} is not a checkpoint of this table")
    rows = []
    for key, group in at.groupby(["policy", "instance", "epsilon"], sort=False):
        mean, se = mean_with_se(group["regret"].to_numpy())
        rows.append((*key, len(group), mean, se))
    import pandas as pd

    return pd.DataFrame(rows, columns=["policy", "instance", "epsilon", "runs", "mean_regret", "se"])


if __name__ == "__main__":  # the command line is python -m ldpcode sweep: this module alone ran nothing and exited 0
    from ._validate import refuse_module_run

    refuse_module_run("sweep")
