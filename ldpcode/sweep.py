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
function ε → (ε_min, :class:`ldpcode.instances.PrivacyLevels`) (module level, so that it pickles).

Cost. Before any work the estimated core-seconds and bytes of the whole grid (each policy's own estimate,
:func:`ldpcode.simulate.simulate_cost`) are checked against ``limits`` (default :class:`ldpcode.limits.Limits`,
one core-hour) when running locally, and of each block when running on a cluster (whose purpose is a grid
larger than one machine's hour; ``limits`` then caps what one task may cost).

Command line: ``python -m ldpcode sweep --help``.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ._validate import check_epsilon, check_int
from .instances import Instance, make_instance
from .limits import MAX_HORIZON, MAX_RUNS, MAX_WORKERS, Limits, check_limits, default_workers, run_pool
from .policies import REGISTRY, make_policy
from .simulate import resolve_checkpoints, simulate_cost

COLUMNS = ("policy", "instance", "epsilon", "run", "t", "regret")
"""The columns of a sweep's table, in order: the policy's name, the instance's name, the cell's privacy level
(inf for a non-private policy; for ``HeLDP-UCB-*`` the ε handed to ``heterogeneous``), the run's index r
(its seed is ``SeedSequence(seed).spawn(runs)[r]``), the checkpoint t and the run's pseudo-regret at t."""


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

    def build(self):
        """(the policy, the users' privacy levels or None), built where the block runs."""
        if self.policy.startswith("HeLDP-"):
            epsilon_min, levels = self.heterogeneous(self.epsilon)
            return make_policy(self.policy, epsilon_min=epsilon_min, **dict(self.options)), levels
        return make_policy(self.policy, self.epsilon, **dict(self.options)), None


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


def _policies(policies) -> tuple[str, ...]:
    if isinstance(policies, str) or not hasattr(policies, "__iter__"):
        raise TypeError(f"policies must be a list of policy names, got {policies!r}")
    names = tuple(policies)
    if not names:
        raise ValueError("policies must name at least one policy")
    for name in names:
        if not isinstance(name, str) or name not in REGISTRY:
            raise ValueError(f"unknown policy {name!r}; choose from {sorted(REGISTRY)}")
    if len(set(names)) != len(names):
        raise ValueError(f"policies must not repeat a name, got {list(names)}")
    return names


def _instances(instances) -> tuple[Instance, ...]:
    if isinstance(instances, (str, Instance)):
        instances = [instances]
    out = tuple(make_instance(i) if isinstance(i, str) else i for i in instances)
    if not out:
        raise ValueError("instances must hold at least one instance")
    for i in out:
        if not isinstance(i, Instance):
            raise TypeError(f"an instance must be a name or come from make_instance(), got {i!r}")
    if len({i.name for i in out}) != len(out):
        raise ValueError(f"instances must have distinct names, got {[i.name for i in out]}")
    return out


def _epsilons(epsilons) -> tuple[float, ...]:
    if isinstance(epsilons, (str, bytes)) or not hasattr(epsilons, "__iter__"):
        raise TypeError(f"epsilons must be a list of privacy levels, got {epsilons!r}")
    eps = tuple(check_epsilon(e) for e in epsilons)
    if not eps:
        raise ValueError("epsilons must hold at least one privacy level")
    if len(set(eps)) != len(eps):
        raise ValueError(f"epsilons must not repeat a value, got {list(eps)}")
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
) -> list[Task]:
    """The tasks of a sweep, in the table's order (policy, instance, ε, first run); validates everything
    :func:`sweep` takes about the grid and refuses a policy an instance cannot run, before any work."""
    names = _policies(policies)
    eps = _epsilons(epsilons)
    inst = _instances(instances)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    seed = check_int("seed", seed, minimum=0)
    block = check_int("block", block, minimum=1, maximum=MAX_RUNS)
    horizon = check_int("horizon", horizon, minimum=max(i.n_arms for i in inst), maximum=MAX_HORIZON)
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
    tasks = []
    for name in names:
        extra = tuple(sorted(options.get(name, {}).items()))
        for instance in inst:
            for e in eps if _is_private(name) else (None,):
                probe = Task(name, instance, e, 0, 1, seed, horizon, cp, heterogeneous, extra)
                policy, levels = probe.build()
                policy.check_environment(instance, levels)
                for first in range(0, runs, block):
                    tasks.append(
                        Task(
                            name, instance, e, first, min(block, runs - first), seed, horizon, cp, heterogeneous, extra
                        )
                    )
    return tasks


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
    if not (isinstance(scheduler, str) and "://" in scheduler):
        raise _bad_scheduler(scheduler)
    client = Client(scheduler)
    return client, client.close


def _check_scheduler(scheduler) -> None:
    """Refuse, before any work, a ``scheduler`` that is none of None, ``"localcluster"``, an address with a scheme
    (``tcp://host:8786``) or a ``distributed.Client``."""
    if scheduler is None or scheduler == "localcluster" or (isinstance(scheduler, str) and "://" in scheduler):
        return
    if type(scheduler).__name__ == "Client":  # distributed is imported only when a cluster is used
        return
    raise _bad_scheduler(scheduler)


def _bad_scheduler(scheduler) -> ValueError:
    return ValueError(
        f"scheduler must be None (this process), 'localcluster', a scheduler address such as "
        f"'tcp://127.0.0.1:8786' or a distributed.Client, got {scheduler!r}"
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
):
    """Run every (policy, instance, ε) cell for ``runs`` runs of ``horizon`` pulls and return the tidy table
    (:data:`COLUMNS`; module docstring): one row per run and checkpoint (default 121 log-spaced checkpoints,
    :func:`ldpcode.simulate.log_checkpoints`; given, they must end at ``horizon``).

    ``instances``: a name, an :class:`~ldpcode.instances.Instance` or a list of them. ``block`` runs make one task.
    ``scheduler``: None (threads in this process, ``workers`` of them), ``"localcluster"``, an address or a
    ``distributed.Client``. ``options`` gives a policy's further keywords of :func:`ldpcode.make_policy`
    (``{"AdaP-UCB": {"alpha": 4.0}}``). ``progress`` shows a bar over blocks (default: only on a terminal). The table's
    ``attrs`` record horizon, runs, seed and the wall-clock seconds (not part of the numbers). Each cell equals
    :func:`ldpcode.simulate.simulate` with the same seed, run for run.
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
    )
    workers = default_workers() if workers is None else check_int("workers", workers, minimum=1, maximum=MAX_WORKERS)
    if progress is None:
        progress = sys.stderr.isatty()
    start = time.perf_counter()
    if scheduler is None:
        seconds, nbytes, work = _cost(tasks, workers)
        check_limits("sweep", work, seconds, nbytes, limits)
        counts = _local(tasks, workers, progress)
    else:
        for task in tasks:  # a cluster runs more than one machine's hour; each block stays within limits
            s, b, w = _cost([task], 1)
            check_limits("sweep (one block)", w, s, b, limits)
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


def check_table_path(path) -> Path:
    """The path a sweep's table will be written to, checked before any work: it ends in ``.parquet`` or ``.csv``,
    is not a folder, and its folder exists and is writable. Returns it as a :class:`~pathlib.Path`."""
    import os

    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise TypeError(f"path must be a file path ending in .parquet or .csv, got {path!r}")
    path = Path(path)
    if path.suffix not in (".parquet", ".csv"):
        raise ValueError(f"path must end in .parquet or .csv, got {str(path)!r}")
    if path.is_dir():
        raise ValueError(f"path {str(path)!r} is a folder; give a file name ending in .parquet or .csv")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(f"path {str(path)!r}: its folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"path {str(path)!r}: its folder {str(folder)!r} is not writable")
    return path


def save_table(table, path) -> Path:
    """Write a sweep's table to ``path``: Parquet for ``.parquet`` (through pyarrow), CSV for ``.csv`` (every float
    written with enough digits to read back bit for bit). Returns the path.

    The table is written beside ``path`` under a temporary name, then renamed over it in one step: a write that
    is killed half-way leaves the previous file whole (and the temporary one is removed on an error)."""
    import os

    path = check_table_path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if path.suffix == ".parquet":
            table.to_parquet(tmp, index=False)
        else:
            table.to_csv(tmp, index=False, float_format="%.17g")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def load_table(path):
    """Read a table written by :func:`save_table`."""
    import pandas as pd

    path = Path(path)
    if path.suffix == ".parquet":
        return pd.read_parquet(path)
    if path.suffix == ".csv":
        table = pd.read_csv(path, dtype={"policy": "string", "instance": "string"})
        return table
    raise ValueError(f"path must end in .parquet or .csv, got {str(path)!r}")
