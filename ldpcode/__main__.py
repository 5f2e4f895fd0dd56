"""The book's command line: ``python -m ldpcode sweep ...``, ``python -m ldpcode rerun NOTEBOOK -p NAME VALUE ...`` and
``python -m ldpcode findings [--write]``.

``sweep`` runs a grid of policies × ε × runs on one instance (:func:`ldpcode.sweep.sweep`) here or on a Dask cluster
and saves the tidy table (``.parquet`` or ``.csv``); ``rerun`` re-runs a chapter notebook with new parameters and
renders it to HTML offline (:func:`ldpcode.rerun.rerun`); ``findings`` prints the findings table (statements per paper,
class and verdict, read from ``data/``) and with ``--write`` rewrites it in README.md and intro.md, between their marker
lines only. ``python -m ldpcode COMMAND --help`` says more.

Every argument is checked before any work. An ordinary error (a misspelt name, a bad path, a value out of range, an
option given twice or abbreviated, a call beyond the cost ceilings) prints one line,
``python -m ldpcode COMMAND: error: ...``, and exits with status 2, as argparse does; ``--debug`` shows the traceback
instead. A notebook that fails while ``rerun`` executes it exits with status 1 (one line naming the cell and the
error), and so does a one-page build that fails after it (one line naming the file that holds the build's log).
Ctrl-C exits with status 130.
"""

from __future__ import annotations

import argparse
import dataclasses
import decimal
import math
import sys
from pathlib import Path

from ._paths import BOOK_FOLDERS, in_book_folders
from .policies.engines import ENGINES

#: the exit status of an ordinary error (refused input), as argparse's own
USAGE = 2
#: the exit status of a notebook that failed while it ran (or of the page's build that failed after it)
FAILED = 1


class _Parser(argparse.ArgumentParser):
    """argparse with its error on one line: ``prog: error: message (see prog --help)``, exit status 2; and no
    abbreviated option (``allow_abbrev=False``): ``--run 3`` was ``--runs 3`` and passed the guard against an option
    given twice (``--runs 2 --run 3`` ran 3), so an abbreviation is refused, naming the option (:func:`_unknown`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):  # noqa: D102 (argparse's hook)
        self.exit(USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _list(text: str, kind=str) -> list:
    """A comma-separated list; an empty item (``0.5,,1``, a trailing comma) is refused, not dropped: it is a value
    left out by mistake more often than a separator typed twice."""
    items = [t.strip() for t in text.split(",")]
    if not all(items):
        raise argparse.ArgumentTypeError(f"a comma-separated list with an empty item: {text[:80]!r}")
    try:
        return [kind(t) for t in items]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a comma-separated list of {kind.__name__}s, got {text[:80]!r}"
        ) from None


def real(text: str) -> float:
    """A number from the command line, refused where its double is not the number typed: ``1e-400`` (0.0 as a
    double) and ``1e400`` (inf) are beyond the doubles; the rules then named 0.0, a number the reader never typed."""
    value = float(text)
    try:
        typed = decimal.Decimal(text.strip())
    except decimal.InvalidOperation:
        return value  # inf, nan: left to the checks, which refuse them by name
    if (value == 0.0 and typed != 0) or (math.isinf(value) and typed.is_finite()):
        raise argparse.ArgumentTypeError(f"{text.strip()[:40]!r} is beyond the doubles (about 1e-308 to 1.8e308)")
    return value


real.__name__ = "number"  # argparse and _list name the kind expected after it


def _floats(text: str) -> list:
    return _list(text, real)


def whole(text: str) -> int:
    """An integer from the command line: ``100000``, or a whole number written as a float, ``1e6`` or ``1.0e5``
    (read exactly; ``1.5e3`` is whole, ``2.5`` and ``1e400`` are refused)."""
    text = text.strip()
    try:
        return int(text.replace("_", ""))
    except ValueError:
        pass
    try:
        value, exact = float(text), decimal.Decimal(text)
    except (ValueError, decimal.InvalidOperation):
        raise argparse.ArgumentTypeError(f"expected a whole number such as 100000 or 1e6, got {text[:40]!r}") from None
    # the number as written, not its double: --seed 10000000000000001.0 was the seed 10000000000000000
    if not math.isfinite(value) or exact != exact.to_integral_value():
        raise argparse.ArgumentTypeError(f"expected a whole number such as 100000 or 1e6, got {text[:40]!r}")
    return int(exact)


def _choice(kind: str, known):
    """An argparse type: a name from ``known``, refused with the closest name (did you mean ...?), found as the
    Python API finds it (:func:`ldpcode._validate.close_name`: LDP-UCB-b is LDP-UCB-B, not -L)."""
    from ._validate import close_name

    def parse(text: str) -> str:
        name = text.strip()
        if name not in known:
            close = close_name(name, known)
            hint = f"; did you mean {close!r}?" if close else ""
            raise argparse.ArgumentTypeError(f"unknown {kind} {name[:60]!r}{hint} (known: {', '.join(known)})")
        return name

    return parse


def _policies(text: str) -> list:
    from .policies import REGISTRY

    check = _choice("policy", sorted(REGISTRY))
    if not text.strip():
        raise argparse.ArgumentTypeError("expected at least one policy name")
    return [check(t) for t in _list(text)]


def _instance(text: str):
    """``ren2020-bernoulli``, or ``bernoulli:0.9,0.8,0.5`` / ``gaussian:0.9,0.5`` (the arm means)."""
    from .instances import list_instances, make_instance

    name, _, means = text.partition(":")
    name = _choice("instance", list_instances())(name)
    if name in ("bernoulli", "gaussian"):
        if not means:
            raise argparse.ArgumentTypeError(f"instance {name!r} needs its arm means, e.g. {name}:0.9,0.8,0.5")
        try:  # named by its text (bernoulli:0.9,0.5), so that two custom instances of one family can be compared
            return dataclasses.replace(make_instance(name, means=_floats(means)), name=text.strip())
        except (TypeError, ValueError) as err:
            raise argparse.ArgumentTypeError(f"instance {text[:80]!r}: {err}") from None
    if means:
        raise argparse.ArgumentTypeError(f"instance {name!r} takes no means, got {text[:80]!r}")
    return make_instance(name)


def _levels(text: str) -> tuple:
    """``--levels``: a privacy-level family of :func:`ldpcode.instances.make_privacy_levels` and its numbers,
    ``discrete:0.5,1.5`` (equally likely values), ``constant:1``, ``clipped-gaussian:1,1,0,100`` (mean, sd, lo,
    hi) or ``ren-heldp-discrete``; built once here, so that a bad one is refused before any work."""
    from .sweep import LEVEL_FAMILIES, cli_levels

    kind, _, numbers = text.partition(":")
    kind = _choice("privacy-level family", sorted(LEVEL_FAMILIES))(kind)
    spec = (kind, tuple(_floats(numbers)) if numbers else ())
    if kind == "discrete" and len(set(spec[1])) != len(spec[1]):  # equally likely values: a repeat is a weight
        raise argparse.ArgumentTypeError(
            f"--levels {text[:80]!r} repeats a level; discrete levels are equally likely, so a repeat would double "
            "its weight: give each level once"
        )
    try:
        cli_levels(spec, 1.0)
    except (TypeError, ValueError) as err:
        raise argparse.ArgumentTypeError(f"--levels {text[:80]!r}: {err}") from None
    return spec


def _scheduler(text: str) -> str:
    """``--scheduler``: ``localcluster`` or a Dask scheduler address with its scheme, host and port (the library's
    :data:`ldpcode.sweep.SCHEDULER_ADDRESS`, which :func:`ldpcode.sweep.sweep` checks too)."""
    from .sweep import is_scheduler_address

    if text == "localcluster" or is_scheduler_address(text):
        return text
    raise argparse.ArgumentTypeError(
        f"expected 'localcluster' or a Dask scheduler address such as tcp://10.0.0.1:8786 (tcp, tls, ws or wss, a "
        f"host and a port), got {text[:80]!r}"
    )


_UNITS = {"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "kib": 2**10, "mib": 2**20, "gib": 2**30}
_UNITS["tib"] = 2**40


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number of core-seconds > 0 (or inf), got {text[:40]!r}")
    return value


def _bytes(text: str) -> float:
    """``8GiB``, ``500MB``, ``6.4e9`` (bytes) or ``inf``."""
    body = text.strip().lower()
    number = body.rstrip("kmgtib")
    unit = body[len(number) :]
    try:
        value = float(number) * _UNITS[unit]
    except (ValueError, KeyError):
        value = math.nan
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a memory size > 0 such as 8GiB, 500MB or 6.4e9, got {text[:40]!r}")
    return value


def _listing() -> str:
    """The names ``sweep`` accepts, for its ``--help``."""
    import textwrap

    from .instances import list_instances
    from .policies import REGISTRY
    from .sweep import LEVEL_FAMILIES

    def block(title, lines):
        return (
            title
            + "\n"
            + "\n".join(textwrap.fill(x, 100, initial_indent="  ", subsequent_indent="    ") for x in lines)
        )

    return "\n\n".join(
        [
            block("policies (HeLDP-UCB-* need --levels, OnePoint-UCB --delta):", [", ".join(sorted(REGISTRY))]),
            block(
                "instances (bernoulli and gaussian take their arm means, bernoulli:0.9,0.8,0.5):",
                [", ".join(list_instances())],
            ),
            block("privacy-level families for --levels:", [f"{k}: {v}" for k, v in LEVEL_FAMILIES.items()]),
        ]
    )


def _parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--debug", action="store_true", help="show the traceback of an error")
    limits = _Parser(add_help=False)
    limits.add_argument(
        "--cpu-seconds",
        type=_seconds,
        default=None,
        help="the ceiling on the estimated core-seconds of a call (default 3600; inf for none)",
    )
    limits.add_argument(
        "--memory",
        type=_bytes,
        default=None,
        help="the ceiling on the estimated memory, e.g. 8GiB (default 4GiB, or half the machine's memory)",
    )
    ap = _Parser(prog="python -m ldpcode", description=__doc__.split("\n\n")[0].replace("``", "").replace("\n", " "))
    sub = ap.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sw = sub.add_parser(
        "sweep",
        parents=[common, limits],
        help="a grid of policy x epsilon x runs, saved as one tidy table",
        description="Run a grid of policies x epsilons x runs on one or more instances and save the tidy table\n"
        "(one row per run and checkpoint).\n\n" + _listing(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sw.add_argument("--policies", type=_policies, required=True, help="comma-separated names, e.g. UCB1,LDP-UCB-B")
    sw.add_argument(
        "--epsilons",
        type=_floats,
        required=True,
        help="comma-separated privacy levels, e.g. 0.5,1,2 (for HeLDP-UCB-* the agent's epsilon_min)",
    )
    sw.add_argument(
        "--instance",
        type=_instance,
        action="append",
        required=True,
        help="an instance name (repeat for several), e.g. ren2020-bernoulli or bernoulli:0.9,0.8,0.5",
    )
    sw.add_argument("--horizon", type=whole, required=True, help="pulls per run, e.g. 1e6")
    sw.add_argument("--runs", type=whole, required=True, help="runs per cell")
    sw.add_argument("--seed", type=whole, default=0, help="the grid's seed (default 0)")
    sw.add_argument("--block", type=whole, default=5, help="runs per task (default 5)")
    sw.add_argument("--checkpoints", type=whole, default=121, help="number of log-spaced checkpoints (default 121)")
    sw.add_argument(
        "--delta",
        type=real,
        default=None,
        help="the delta of (epsilon, delta)-LDP, for OnePoint-UCB (which needs it), e.g. 1e-6",
    )
    sw.add_argument(
        "--levels",
        type=_levels,
        default=None,
        help="the users' privacy levels for HeLDP-UCB-*: discrete:0.5,1.5, constant:1, clipped-gaussian:1,1,0,100 "
        "or ren-heldp-discrete (the cell's epsilon is the agent's epsilon_min)",
    )
    sw.add_argument(
        "--scheduler",
        type=_scheduler,
        default=None,
        help="'localcluster', or a Dask scheduler address such as tcp://10.0.0.1:8786 (default: this process)",
    )
    sw.add_argument(
        "--engine",
        choices=ENGINES,
        default="per-pull",
        help="per-pull (default, the reference: policies share their reward draws), event (the exact event-driven "
        "engine: UCB1, LDP-UCB-B, KL-UCB and HeLDP-UCB-B with discrete levels, on Bernoulli arms; 10-1000x faster "
        "at large horizons, from another random stream) or auto (event where it applies)",
    )
    sw.add_argument("--out", required=True, help="the table: a .parquet or .csv path (a new file)")
    sw.add_argument(
        "--replace", action="store_true", help="write over --out if it is a sweep table (any other file is kept)"
    )

    rr = sub.add_parser(
        "rerun",
        parents=[common, limits],
        help="re-run a chapter notebook with new parameters and render it to HTML",
        description="Re-run a chapter notebook with new parameters and render it to HTML offline.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rr.add_argument(
        "notebook",
        help="e.g. chapters/ren2020/figure1.ipynb: a path from the current folder or from the book's top folder",
    )
    rr.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help="a parameter and its value, read as YAML, None as papermill reads it (repeat for several)",
    )
    rr.add_argument("--tiny", action="store_true", help="run at the notebook's tiny parameters (seconds), then -p")
    rr.add_argument("--out", default="rerun", help="output folder (default rerun/)")
    rr.add_argument("--no-render", action="store_true", help="only execute the notebook, build no HTML")

    fd = sub.add_parser("findings", parents=[common], help="the findings table of README.md and intro.md, from data/")
    fd.add_argument("--write", action="store_true", help="rewrite the table in README.md and intro.md")
    return ap


def _limits(args):
    """The ceilings of ``--cpu-seconds`` and ``--memory`` as environment defaults (so a notebook's kernel sees them
    too), and refusals worded with these flags."""
    import os

    from . import limits as lim

    os.environ[lim.ADVICE_ENV] = "cli"
    if args.cpu_seconds is not None:
        os.environ[lim.CPU_ENV] = repr(args.cpu_seconds)
    if args.memory is not None:
        os.environ[lim.MEMORY_ENV] = repr(args.memory)
    return lim.Limits()


def _findings(args) -> int:
    from ._paths import repo_root
    from .claims.findings import check_findings_files, findings, write_findings
    from .claims.report import collect

    if args.write:  # before any work: the rename of the rewrite would put a plain file in a link's place
        check_findings_files(repo_root())
    summary = collect()
    if not summary.claims:  # an empty table would read as "0 statements judged", a plausible wrong finding
        raise ValueError(
            f"no stored claims under {repo_root() / 'data'}: no findings to show (is this the book's folder? "
            "LDPCODE_ROOT names another; python -m ldpcode.nbrun --write stores a notebook's claims)"
        )
    if args.write:
        changed = write_findings()
        print("rewrote " + ", ".join(p.name for p in changed) if changed else "README.md and intro.md are up to date")
    else:
        print(findings(summary))
    return 0


def _sweep(args) -> int:
    from .limits import MAX_HORIZON, MAX_POINTS, MIN_POINTS
    from .simulate import log_checkpoints
    from .sweep import check_table_path, cli_heterogeneous, save_table, summary, sweep

    # before the grid runs: a bad --out must not cost the compute. The book's own folders first: that refusal
    # holds whether or not the folder exists yet (_build/ is absent until the book is built)
    if in_book_folders(args.out):
        raise ValueError(
            f"--out {Path(args.out).resolve()} is inside the book's own files; choose a path outside its folders "
            f"({', '.join(d + '/' for d in BOOK_FOLDERS)})"
        )
    check_table_path(args.out, replace=args.replace)
    he = [p for p in args.policies if p.startswith("HeLDP-")]
    if he and args.levels is None:
        raise ValueError(
            f"{', '.join(he)} {'needs' if len(he) == 1 else 'need'} the users' privacy levels: add --levels, "
            "e.g. --levels discrete:0.5,1.5"
        )
    if args.levels is not None and not he:
        raise ValueError("--levels is for the HeLDP-UCB-* policies, and none is in --policies")
    needs_delta = "OnePoint-UCB" in args.policies
    if needs_delta and args.delta is None:
        raise ValueError("OnePoint-UCB needs --delta, the delta of its (epsilon, delta)-LDP, e.g. --delta 1e-6")
    if args.delta is not None and not needs_delta:
        raise ValueError("--delta is for OnePoint-UCB, which is not in --policies")
    arms = max(2, *(i.n_arms for i in args.instance))  # sweep's own floor, before log_checkpoints states its own
    if not arms <= args.horizon <= MAX_HORIZON:
        raise ValueError(
            f"--horizon must be in [{arms}, 2**53] (at least the number of arms: each arm is pulled once first), "
            f"got {args.horizon}"
        )
    if not MIN_POINTS <= args.checkpoints <= MAX_POINTS:  # log_checkpoints' own bounds, named as the user typed it
        raise ValueError(
            f"--checkpoints must be in [{MIN_POINTS}, {MAX_POINTS}] (the first round and the horizon at least), "
            f"got {args.checkpoints}"
        )
    table = sweep(
        args.policies,
        args.epsilons,
        args.instance,
        args.horizon,
        args.runs,
        args.seed,
        checkpoints=log_checkpoints(args.horizon, args.checkpoints),
        block=args.block,
        scheduler=args.scheduler,
        heterogeneous=None if args.levels is None else cli_heterogeneous(args.levels),
        options={"OnePoint-UCB": {"delta": args.delta}} if args.delta is not None else None,
        limits=_limits(args),
        engine=args.engine,
    )
    path = save_table(table, args.out, replace=args.replace)
    if args.runs >= 2:
        print(summary(table).to_string(index=False))
    else:  # one run has no standard error: the final regret per cell, said so
        last = table[table["t"] == table["t"].max()]
        print(last[["policy", "instance", "epsilon", "regret"]].to_string(index=False))
        print("one run per cell: no standard error (use --runs 2 or more for one)", file=sys.stderr)
    seconds = table.attrs["wall_seconds"]
    print(f"{len(table)} rows -> {path}; {table.attrs['pulls']:.3g} pulls in {seconds:.1f} s", file=sys.stderr)
    return 0


def _rerun(args) -> int:
    from .rerun import rerun
    from .rerun_values import parse_value

    names = [name for name, _ in args.parameter]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"parameter {twice[0]!r} is given twice")
    values = {name: parse_value(value, name) for name, value in args.parameter}
    _refuse_empty(args.notebook, [name for name, value in args.parameter if not value.strip()])
    _limits(args)
    out = rerun(
        args.notebook,
        values,
        args.out,
        render=not args.no_render,
        progress=sys.stderr.isatty(),
        tiny=args.tiny,
        notes=sys.stderr,
    )
    print(out)
    return 0


def _refuse_empty(notebook: str, names: list) -> None:
    """Refuse ``-p NAME ''`` (an empty value, read as None as papermill reads it) where the parameter's rule refuses
    None, saying so: the rule's own refusal ended "got None", which the reader never typed."""
    if not names:
        return
    from .parameters import rules_for
    from .rerun import _relative

    spec = rules_for(_relative(notebook))
    for name in (n for n in names if n in spec.names):  # an unknown name is rerun's to refuse, with the closest one
        try:
            spec.rule(name)(name, None)
        except (TypeError, ValueError):
            raise ValueError(
                f"parameter {name} must be {spec.rule(name).allowed}, got an empty value (-p {name} '' reads as None)"
            ) from None


def _one_line(err: BaseException) -> str:
    from ._validate import flat_text

    return flat_text(err, 2000)


def _unknown(command, extra: list) -> str:
    """argparse's refusal of ``extra`` (what no option of ``command`` took), naming the option that an abbreviation
    (``--run``, refused: ``allow_abbrev=False``) or a misspelling (``--hoizon``) of the first unknown one means."""
    from ._validate import close_name

    message = f"unrecognized arguments: {' '.join(extra)}"
    flags = [flag for action in command._actions for flag in action.option_strings if flag.startswith("--")]
    options = extra[: extra.index("--")] if "--" in extra else extra  # after "--", no token is an option
    typed = next((t.split("=")[0] for t in options if t.startswith("--") and len(t) > 2), None)
    if typed is None or typed in flags:  # --debug before the command: the command's option, given too early
        return message
    meant = [flag for flag in flags if flag.startswith(typed)] or [close_name(typed[2:], [f[2:] for f in flags])]
    if meant == [None]:
        return message
    meant = [flag if flag.startswith("--") else "--" + flag for flag in meant]
    return f"{message} ({typed} is not an option: did you mean {' or '.join(meant)}? options are written in full)"


def _checked_args(parser, argv):
    """``parser``'s arguments, refused in the command's own words: an unknown option names the command it was given
    to (argparse's top-level parser said "python -m ldpcode: error: unrecognized arguments", and pointed at the top
    help), and an option given twice is refused (``--runs 2 --runs 3`` silently ran 3)."""
    args, extra = parser.parse_known_args(argv)
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    command = commands.choices[args.command]
    if extra:
        command.error(_unknown(command, extra))
    tokens = list(sys.argv[1:] if argv is None else argv)
    tokens = tokens[: tokens.index("--")] if "--" in tokens else tokens
    for action in command._actions:
        if not action.option_strings or isinstance(action, argparse._AppendAction):
            continue  # a repeatable option (rerun's -p) refuses its own repeats
        given = [t for t in tokens if t in action.option_strings or t.split("=")[0] in action.option_strings]
        if len(given) > 1:
            command.error(f"argument {'/'.join(action.option_strings)}: given {len(given)} times; give it once")
    return args


def main(argv=None) -> int:
    parser = _parser()
    args = _checked_args(parser, argv)
    prog = f"python -m ldpcode {args.command}"
    run = {"findings": _findings, "sweep": _sweep, "rerun": _rerun}[args.command]
    import os
    import warnings

    from . import limits as lim

    saved = {k: os.environ.get(k) for k in (lim.ADVICE_ENV, lim.CPU_ENV, lim.MEMORY_ENV)}
    formatwarning = warnings.formatwarning
    if not args.debug:  # a warning in one line, as the errors: Python's format added the source line that warned
        warnings.formatwarning = lambda message, category, *_, **__: f"{prog}: {category.__name__}: {message}\n"
    try:
        return run(args)
    except KeyboardInterrupt:
        if args.debug:
            raise
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except (TypeError, ValueError, OSError) as err:  # refused input: one line, as argparse
        if args.debug:
            raise
        print(f"{prog}: error: {_one_line(err)} (--debug shows the traceback)", file=sys.stderr)
        return USAGE
    except Exception as err:
        from .rerun import BuildFailed

        if isinstance(err, BuildFailed) and not args.debug:  # the page's build failed: one line and where its log is
            print(f"{prog}: error: {_one_line(err)} (--debug shows the traceback)", file=sys.stderr)
            return FAILED
        if args.debug or type(err).__name__ != "PapermillExecutionError":
            raise
        # the notebook failed in its kernel: its error's own line, not papermill's 100-line traceback
        usage = err.ename in ("ValueError", "TypeError")  # a refusal (a rule, a cost ceiling) inside the notebook
        print(
            f"{prog}: error: the notebook stopped in cell {err.exec_count}: {err.ename}: {_one_line(err.evalue)} "
            "(--debug shows the traceback)",
            file=sys.stderr,
        )
        return USAGE if usage else FAILED
    finally:  # the ceilings of --cpu-seconds and --memory end with the command (main may be called in-process)
        warnings.formatwarning = formatwarning
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


if __name__ == "__main__":
    sys.exit(main())
