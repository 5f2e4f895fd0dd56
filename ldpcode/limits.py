"""Limits and interrupts: the machinery every simulation engine shares (:func:`ldpcode.simulate.simulate`,
``bco``, ``contextual``, ``reductions``).

It holds :class:`Limits` and :func:`check_limits` (the refusal of a call whose estimated cost is beyond a
ceiling, before any work), the hard ceilings ``MAX_*``, :func:`run_pool` with its :class:`CancelFlag` (the
worker threads that share a call's runs, and how Ctrl-C stops them) and :func:`default_workers`. It serves
every simulated figure and table of the four papers: it decides whether a call may run and on how many threads,
never what it draws (the result of a call does not depend on its number of workers).

**Limits: estimated before any work, one design for every engine.** Each simulator
(:func:`ldpcode.simulate.simulate`, ``bco.simulate_one_point``/``simulate_two_point``,
``contextual.simulate_contextual``, ``reductions.simulate_mab`` and ``reductions.ucb_adversary``) estimates,
before it draws anything, the CPU time (in core-seconds: the same on any number of cores) and the memory its
call needs, and refuses a call beyond either ceiling of its ``limits`` argument, a :class:`Limits`, with a
ValueError that gives the estimate, the ceiling, how to override it and how to scale out. The default
``Limits()`` allows 3600 core-seconds (an hour of one core) and 4 GiB of memory (or half the machine's physical
memory if that is less); ``limits=Limits(cpu_seconds=math.inf, memory_bytes=math.inf)`` switches the check
off. The largest calls of the book at their paper-scale defaults are estimated far below: KL-UCB at 20 runs of
10^6 pulls (Azize and Basu, Theorems 7-8) 85 core-seconds, HeLDP-UCB-B at 50 runs of 10^7 pulls on 20 arms 80,
DP-UCB at 20 runs of 10^7 53, AdaP-KLUCB at 20 runs of 10^7 (Figure 3, per ε) 0.1; the most memory any
of them needs is 5.4 MiB (the estimates are ``simulate.simulate_cost``, ``bco.bco_cost``,
``contextual.contextual_cost`` and ``reductions.mab_cost``; tests/simulation/test_limits.py checks every notebook's
largest calls against the default ceilings). To scale out instead, split the runs into several calls with
different seeds (seed=0, 1, ...), on one machine or several, and concatenate their results along the runs
axis. Whatever the limits, a horizon (and a checkpoint) is at most :data:`MAX_HORIZON` = 2^53, runs at
most :data:`MAX_RUNS` = 2^32 and workers at most :data:`MAX_WORKERS` = 1024.

The time of a call is its work at the per-core costs below (K arms, dimension d, T the horizon), measured on
the 2-core AMD EPYC machine of the README (numba 0.68.1) with ``workers=1``, the best of three short runs
(2 runs of 10^6 pulls at K = 2, 20 and 100; 2 runs of 2·10^5 BCO rounds at d = 5 and 50; contextual runs of
4000 rounds at (d, K) = (5, 10), (5, 100), (20, 10)) while other jobs were running, so they are on the slow
side (the README's quieter benchmark gives 1.1-2·10^7 pulls/s for the index policies at K = 20):

* index policies (UCB1, ``LDP-UCB-*``): 60 + 3K ns a pull (UCB1 measured 81, 121, 354 ns);
* heterogeneous policies (``HeLDP-UCB-*``): 100 + 3K ns a pull (158-210 ns at K <= 20, 350-390 ns at K = 100);
  both are the cost of a scan of every arm at every pull, which is what the certified argmax
  (:mod:`ldpcode.kit`) falls back to when it certifies nothing; with it the book's runs take 12-16 ns a
  pull (UCB1, LDP-UCB-B), 29-54 ns (LDP-UCB-L and the HeLDP policies, their draws included) and 30-43 ns
  (OnePoint-UCB) at K = 20, quietly;
* DP-UCB: 250 + 3K ns a pull (288, 332, 500 ns); KL-UCB: 4000 + 45K ns a pull (3.9, 4.7, 8.2 µs), the cost of
  a scan at every pull, which its certified argmax falls back to on tied means (ren2020's 20 arms: 0.13-0.28 µs
  a pull at T = 10^6-10^7, ``benchmarks/README.md``);
* ``OnePoint-UCB`` (Algorithm 1 of Zheng et al. around UCB, as a policy): 45 + 14K ns a pull (69, 156, 709 ns at
  K = 2, 10, 50: its index takes a log and a square root per arm; again the cost of a scan at every pull);
* episodic policies (``AdaP-*``, DP-SE): 20 + 4K µs an episode (10-110 µs at K <= 20, 370 µs at K = 100), at
  most K(floor(log2 T) + 1) + 1 episodes a run, plus 20 ns a pull when an arm is neither Bernoulli nor
  Gaussian (its episodes sum their draws): the cost is per episode, not per pull;
* BCO: 150 + 10d (one-point, sphere), 150 + 17d (two-point), 250 + 12d (barrier) ns a round
  (measured 192, 225, 343 ns at d = 5; 577, 964, 845 ns at d = 50);
* contextual: 2 µs + 6 ns K d^2 + 1.5 ns d^3 a round and run (numba engine; 2.9-4.1 µs at d = 5, K = 10),
  100 µs + runs (5 µs + 10 ns K d^2 + 2 ns d^3) a round (numpy engine, all runs at once);
* Algorithm 1 (reductions): 50 + 9K ns a step around UCB, 100 + 50K around Tsallis-INF (kernels;
  measured 75-485 and 167-2470 ns at K = 2-50), 20 µs + 50K ns in the Python loop; ``ucb_adversary``:
  20 + 20K ns a step.

The audits (:mod:`ldpcode.audit`), the fits and bootstraps (:mod:`ldpcode.stats`) and the reference runs
(:mod:`ldpcode.reference`) take the same ``limits=`` and check it the same way; their per-unit costs are listed
in their own module docstrings.

**Interrupts.** Ctrl-C (KeyboardInterrupt) stops a simulation within a fraction of a second: the runs on
worker threads (:func:`run_pool`) check a :class:`CancelFlag` between chunks of :data:`PULLS_PER_CALL`
pulls (between episodes for the episodic engine), queued runs are cancelled, the executor is shut down without
waiting, and the KeyboardInterrupt is re-raised. The engines that run in the calling thread (BCO, contextual,
reductions' Python loop) return to the interpreter between chunks, where Python raises it.
"""

from __future__ import annotations

import math
import os
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ._validate import MAX_COUNT, check_real

# The pulls of one run per call of a compiled kernel of the main engine (the default chunk of
# ldpcode.engine.run_in_chunks). 2^15: a chunk's draw buffers (2^15 doubles, 256 KiB each) stay in cache, and
# at the costs above (45 ns to a few µs a pull) a call lasts milliseconds to a tenth of a second, the most a
# CancelFlag (Ctrl-C) waits to be seen.
PULLS_PER_CALL = 1 << 15

MAX_HORIZON = MAX_COUNT
"""The largest horizon (and checkpoint) of any engine: rounds up to 2^53 are exact in float64, in which
checkpoints are validated and log-spaced. (At 10^8 pulls a second, 2^53 pulls take three years.)"""
MAX_RUNS = 2**32
"""The most runs of one call, whatever its limits: beyond it even the runs' seed sequences would not fit in
memory (a call of more runs is refused by the default limits long before)."""
MAX_WORKERS = 1024
"""The most worker threads a call may ask for (more threads than cores only add overhead)."""
MIN_POINTS = 2
"""The fewest log-spaced checkpoints :func:`log_checkpoints` makes: the first round and the horizon."""
MAX_POINTS = 10**7
"""The most log-spaced checkpoints :func:`log_checkpoints` makes."""


def _default_memory_bytes() -> float:
    """4 GiB, or half the machine's physical memory if that is less."""
    try:
        phys = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        phys = 0
    return float(min(4 * 2**30, phys // 2)) if phys > 0 else float(4 * 2**30)


CPU_ENV = "LDPCODE_CPU_SECONDS"
"""The environment variable that replaces the default ``Limits().cpu_seconds`` (a number of core-seconds, or inf)."""
MEMORY_ENV = "LDPCODE_MEMORY_BYTES"
"""The environment variable that replaces the default ``Limits().memory_bytes`` (a number of bytes, or inf)."""
ADVICE_ENV = "LDPCODE_LIMITS_ADVICE"
"""Set to ``cli`` by the command line: a refusal then names its flags ``--cpu-seconds`` and ``--memory``
instead of the ``limits=`` keyword, which a command-line user cannot pass."""


def _from_environment(name: str) -> float:
    """The default of ``Limits.<name>``: the environment's value if set (:data:`CPU_ENV`, :data:`MEMORY_ENV`),
    else 3600 core-seconds or :func:`_default_memory_bytes`."""
    env = CPU_ENV if name == "cpu_seconds" else MEMORY_ENV
    text = os.environ.get(env)
    if text is None or not text.strip():
        return 3600.0 if name == "cpu_seconds" else _default_memory_bytes()
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"the environment variable {env} must be a number > 0 (or inf), got {text[:40]!r}") from None
    if not value > 0:  # also refuses nan
        raise ValueError(f"the environment variable {env} must be a number > 0 (or inf), got {text[:40]!r}")
    return value


@dataclass(frozen=True)
class Limits:
    """Ceilings on the estimated cost of one simulation call (module docstring, "Limits").

    ``cpu_seconds``: estimated core-seconds (default 3600, an hour of one core; the same on any number of
    cores); ``memory_bytes``: estimated peak memory of the call's arrays (default 4 GiB, or half the
    physical memory if less). ``math.inf`` switches a check off. Every simulator takes ``limits=``.

    The defaults can be raised for a whole process (and the notebook kernels it starts) with the environment
    variables :data:`CPU_ENV` and :data:`MEMORY_ENV`; the command line's ``--cpu-seconds`` and ``--memory``
    set them (``python -m ldpcode rerun ... --cpu-seconds 7200``), and a value given here wins."""

    cpu_seconds: float | None = None
    memory_bytes: float | None = None

    def __post_init__(self):
        for name in ("cpu_seconds", "memory_bytes"):
            v = getattr(self, name)
            if v is None:
                v = _from_environment(name)
            v = check_real(f"limits.{name}", v, allow_inf=True)
            if v <= 0:
                raise ValueError(f"limits.{name} must be a number > 0 (math.inf for no limit), got {v!r}")
            object.__setattr__(self, name, v)


def _fmt_bytes(n: float) -> str:
    if not math.isfinite(n):
        return "no limit"
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} bytes"


def _fmt_seconds(s: float) -> str:
    if not math.isfinite(s):
        return "no limit"
    if s >= 3 * 365.25 * 86400:
        return f"{s:.2g} core-seconds ({s / (365.25 * 86400):.2g} core-years)"
    if s >= 2 * 3600:
        return f"{s:.3g} core-seconds ({s / 3600:.3g} core-hours)"
    return f"{s:.3g} core-seconds"


SCALE_OUT = (
    "To scale out instead, split the runs into several calls with different seeds (seed=0, 1, 2, ...), "
    "on this machine or on several, and concatenate their results along the runs axis; or lower runs or "
    "horizon."
)


_FLAGS = {"time": "--cpu-seconds", "memory": "--memory"}  # the command line's names of the two ceilings


def check_limits(
    call: str, work: str, cpu_seconds: float, memory_bytes: float, limits=None, *, scale_out: str = SCALE_OUT
) -> Limits:
    """Refuse a call whose estimated ``cpu_seconds`` (core-seconds) or ``memory_bytes`` exceed ``limits``
    (a :class:`Limits`, default ``Limits()``), before any work. ``call`` names the function, ``work``
    describes what was estimated (it names the parameters that drive the cost). The ValueError gives the
    estimate, the ceiling, the override and how to scale out (``scale_out``). Returns the limits used."""
    if limits is None:
        limits = Limits()
    elif not isinstance(limits, Limits):
        raise TypeError(f"limits must be an ldpcode.Limits(cpu_seconds=..., memory_bytes=...) or None, got {limits!r}")
    if not (cpu_seconds >= 0 and memory_bytes >= 0):  # NaN (or a negative) compares False with every ceiling
        raise ValueError(
            f"{call}: its estimated cost is not a number >= 0 ({cpu_seconds!r} core-seconds, {memory_bytes!r} bytes "
            f"for {work}): an argument the estimate takes is out of its range"
        )
    over = []
    if cpu_seconds > limits.cpu_seconds:
        over.append(
            (
                "time",
                f"about {_fmt_seconds(cpu_seconds)}",
                f"{_fmt_seconds(limits.cpu_seconds)} (limits.cpu_seconds)",
                f"cpu_seconds={float(f'{cpu_seconds * 1.5:.2g}'):g}",
            )
        )
    if memory_bytes > limits.memory_bytes:
        over.append(
            (
                "memory",
                f"about {_fmt_bytes(memory_bytes)}",
                f"{_fmt_bytes(limits.memory_bytes)} (limits.memory_bytes)",
                f"memory_bytes={float(f'{memory_bytes * 1.5:.2g}'):g}",
            )
        )
    if not over:
        return limits
    what = "; ".join(f"its {kind} is estimated at {est}, beyond the ceiling of {ceil}" for kind, est, ceil, _ in over)
    if os.environ.get(ADVICE_ENV) == "cli":  # the command line's own flags, which its user can pass
        for key, flag in (("limits.cpu_seconds", "--cpu-seconds"), ("limits.memory_bytes", "--memory")):
            what = what.replace(f"({key})", f"({flag})")
        flags = " ".join(_FLAGS[o[0]] + " " + o[3].split("=")[1] for o in over)
        advice = f"To run it anyway, add {flags} to the command (inf switches a check off)."
    else:
        advice = (
            f"To run it anyway, pass limits=ldpcode.Limits({', '.join(o[3] for o in over)}) "
            f"(math.inf switches a check off)."
        )
    raise ValueError(
        f"{call}: {work}: {what}. {advice} {scale_out} (The per-core throughputs behind the estimate are "
        f"listed in the docstring of the module ldpcode/limits.py.)"
    )


class Cancelled(Exception):
    """Raised in a worker thread at its next chunk once its call has been interrupted."""


class CancelFlag:
    """Set when a call is interrupted; the engines call :meth:`check` between chunks of work (and between
    episodes), which raises :class:`Cancelled` once it is set."""

    __slots__ = ("_event",)

    def __init__(self):
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise Cancelled("the simulation was interrupted")


PROGRESS_FILE_ENV = "LDPCODE_PROGRESS_FILE"
"""Set by ``python -m ldpcode rerun`` in its notebook's kernel: :func:`run_pool` then appends a line
``<label>\\t<done>\\t<n>`` (tab-separated) to that file as a call starts and each time one of its ``n`` tasks
finishes, and the re-run draws a bar from it on the reader's terminal. A bar drawn inside the kernel would go into
the executed notebook instead."""


def _progress_report(label: str | None, n: int):
    """A function ``done -> None`` that appends :func:`run_pool`'s progress to the :data:`PROGRESS_FILE_ENV` file,
    or None when that is not set (or the call has no label). A write that fails is ignored: a progress report
    never stops a simulation."""
    path = os.environ.get(PROGRESS_FILE_ENV)
    if not path or not label:
        return None
    label = " ".join(str(label).split())  # one line, no tab

    def report(done: int) -> None:
        try:
            with open(path, "a", encoding="utf-8") as f:
                f.write(f"{label}\t{done}\t{n}\n")
        except OSError:
            pass

    return report


class ProgressFileBar:
    """The reader's side of :data:`PROGRESS_FILE_ENV`, as a context manager: creates the report file (in the
    system's temporary folder, never the reader's), sets the variable for the kernels started inside the block, and
    draws a tqdm bar (on ``file``, default stderr, below papermill's bar over cells) of the latest call's finished
    runs, its elapsed time ticking while a cell runs. On exit the bar is cleared, the variable restored and the file
    deleted."""

    FORMAT = "{desc}: {n}/{total} runs |{bar}| {elapsed}"  # no rate: the bar learns of runs only as they end

    def __init__(self, file=None, interval: float = 0.5):
        self.file, self.interval = file, interval
        self._stop = threading.Event()

    def __enter__(self):
        import tempfile

        fd, self.path = tempfile.mkstemp(prefix="ldpcode-progress-", suffix=".txt")
        os.close(fd)
        self._saved = os.environ.get(PROGRESS_FILE_ENV)
        os.environ[PROGRESS_FILE_ENV] = self.path
        self._thread = threading.Thread(target=self._draw, name="ldpcode-progress", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        if self._saved is None:
            os.environ.pop(PROGRESS_FILE_ENV, None)
        else:
            os.environ[PROGRESS_FILE_ENV] = self._saved
        try:
            os.unlink(self.path)
        except OSError:
            pass
        return False

    @staticmethod
    def latest(text: str):
        """The last whole line of a report, as (label, done, n), or None if it holds none."""
        for line in reversed(text.split("\n")[:-1]):  # the part after the last newline may be half-written
            parts = line.split("\t")
            if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
                return parts[0], int(parts[1]), int(parts[2])
        return None

    def _draw(self):
        from tqdm import tqdm

        bar, seen, offset, tail = None, None, 0, ""
        while not self._stop.wait(self.interval):
            try:
                with open(self.path, encoding="utf-8") as f:
                    f.seek(offset)
                    new = f.read()
                    offset = f.tell()
            except OSError:
                continue
            tail = tail + new
            last = self.latest(tail)
            tail = tail[tail.rfind("\n") + 1 :]
            if last is not None:
                label, done, n = last
                if bar is None:
                    bar = tqdm(total=n, desc=label, position=1, leave=False, file=self.file, bar_format=self.FORMAT)
                elif (label, n) != seen or done < bar.n:  # the next call (a call reports 0 as it starts)
                    bar.reset(total=n)
                    bar.set_description(label, refresh=False)
                seen = (label, n)
                bar.n = done
            if bar is not None and bar.n < bar.total:
                bar.refresh()  # the elapsed time moves while a long run computes, and stops with the call
        if bar is not None:
            bar.close()


def run_pool(task, n: int, workers: int, *, progress: str | None = None, label: str | None = None) -> list:
    """``[task(i, cancel) for i in range(n)]`` on ``workers`` threads, in order of i; ``progress`` (a label)
    shows a bar over the tasks, and ``label`` names the call in the report of :data:`PROGRESS_FILE_ENV`. Tasks are
    submitted a few at a time (at most ``POOL_WINDOW`` per thread queued or running), so that 10^5 runs do not make
    10^5 futures up front. If the caller is interrupted (Ctrl-C) or a task raises, the :class:`CancelFlag` is set
    (running tasks stop at their next ``cancel.check()``), the few queued tasks are cancelled, the executor is shut
    down without waiting for them, and the exception is re-raised."""
    cancel = CancelFlag()
    threads = max(1, min(workers, n))
    pool = ThreadPoolExecutor(max_workers=threads)
    bar = None
    report = _progress_report(label or progress, n)
    if report is not None:
        report(0)
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n, desc=progress, leave=False)
    out = []
    try:
        pending = deque()
        submitted = 0
        while submitted < n or pending:
            while submitted < n and len(pending) < POOL_WINDOW * threads:
                pending.append(pool.submit(task, submitted, cancel))
                submitted += 1
            out.append(pending.popleft().result())
            if bar is not None:
                bar.update()
            if report is not None:
                report(len(out))
    except BaseException:
        cancel.set()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        if bar is not None:
            bar.close()
    pool.shutdown(wait=True)
    return out


POOL_WINDOW = 4
"""Tasks queued or running per worker thread in :func:`run_pool`: enough to keep every thread busy while
the results are collected in order, few enough that an interrupt has almost nothing to cancel."""


def default_workers() -> int:
    """The number of worker threads of a call that does not say: ``LDPCODE_WORKERS`` (a positive integer) if
    that environment variable is set, else every core; never more than the cores."""
    cores = os.cpu_count() or 1
    text = os.environ.get("LDPCODE_WORKERS")
    if text is None:
        return cores
    try:
        value = int(text.strip())
    except ValueError:
        value = None
    if value is None or value < 1:
        raise ValueError(
            f"the environment variable LDPCODE_WORKERS must be a positive integer (the number of "
            f"worker threads; unset it to use every core), got {text!r}"
        )
    return min(cores, value)
