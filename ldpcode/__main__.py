"""The book's command line: ``python -m ldpcode sweep ...``, ``python -m ldpcode rerun NOTEBOOK -p NAME VALUE ...`` and
``python -m ldpcode findings [--write]``.

``sweep`` runs a grid of policies × ε × runs on one instance (:func:`ldpcode.sweep.sweep`) here or on a Dask cluster
and saves the tidy table (``.parquet`` or ``.csv``); ``rerun`` re-runs a chapter notebook with new parameters and
renders it to HTML offline (:func:`ldpcode.rerun.rerun`); ``findings`` prints the findings table (statements per paper,
class and verdict, read from ``data/``) and with ``--write`` rewrites it in README.md and intro.md, between their marker
lines only. ``python -m ldpcode COMMAND --help`` says more.
"""

from __future__ import annotations

import argparse
import sys


def _list(text: str, kind=str) -> list:
    items = [t.strip() for t in text.split(",") if t.strip()]
    try:
        return [kind(t) for t in items]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of {kind.__name__}s, got {text!r}") from None


def _floats(text: str) -> list:
    return _list(text, float)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m ldpcode", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)

    sw = sub.add_parser("sweep", help="a grid of policy x epsilon x runs, saved as one tidy table")
    sw.add_argument("--policies", type=_list, required=True, help="comma-separated names, e.g. UCB1,LDP-UCB-B")
    sw.add_argument("--epsilons", type=_floats, required=True, help="comma-separated privacy levels, e.g. 0.5,1,2")
    sw.add_argument("--instance", action="append", required=True, help="an instance name (repeat for several)")
    sw.add_argument("--horizon", type=int, required=True)
    sw.add_argument("--runs", type=int, required=True)
    sw.add_argument("--seed", type=int, default=0)
    sw.add_argument("--block", type=int, default=5, help="runs per task (default 5)")
    sw.add_argument("--checkpoints", type=int, default=121, help="number of log-spaced checkpoints (default 121)")
    sw.add_argument(
        "--scheduler",
        default=None,
        help="'localcluster', or a Dask scheduler address such as tcp://10.0.0.1:8786 (default: this process)",
    )
    sw.add_argument("--out", required=True, help="the table: a .parquet or .csv path")

    rr = sub.add_parser("rerun", help="re-run a chapter notebook with new parameters and render it to HTML")
    rr.add_argument("notebook", help="e.g. chapters/ren2020/figure1.ipynb")
    rr.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help="a parameter and its value, read as YAML (repeat for several)",
    )
    rr.add_argument("--out", default="rerun", help="output folder (default: rerun/)")
    rr.add_argument("--no-render", action="store_true", help="only execute the notebook, build no HTML")

    fd = sub.add_parser("findings", help="the findings table of README.md and intro.md, from data/")
    fd.add_argument("--write", action="store_true", help="rewrite the table in README.md and intro.md")
    return ap


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "findings":
        from .claims.report import findings, write_findings

        if args.write:
            changed = write_findings()
            print(
                "rewrote " + ", ".join(p.name for p in changed) if changed else "README.md and intro.md are up to date"
            )
        else:
            print(findings())
        return 0
    if args.command == "sweep":
        from .simulate import log_checkpoints
        from .sweep import check_table_path, save_table, summary, sweep

        try:
            check_table_path(args.out)  # before the grid runs: a bad --out must not cost the compute
        except (TypeError, ValueError) as err:
            raise SystemExit(f"error: {err}") from None
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
        )
        path = save_table(table, args.out)
        if args.runs >= 2:
            print(summary(table).to_string(index=False))
        else:  # one run has no standard error: the final regret per cell, said so
            last = table[table["t"] == table["t"].max()]
            print(last[["policy", "instance", "epsilon", "regret"]].to_string(index=False))
            print("one run per cell: no standard error (use --runs 2 or more for one)", file=sys.stderr)
        seconds = table.attrs["wall_seconds"]
        print(f"{len(table)} rows -> {path}; {table.attrs['pulls']:.3g} pulls in {seconds:.1f} s", file=sys.stderr)
        return 0
    from .rerun import parse_value, rerun

    names = [name for name, _ in args.parameter]
    if len(set(names)) != len(names):
        raise SystemExit(f"a parameter is given twice: {names}")
    values = {name: parse_value(value) for name, value in args.parameter}
    try:
        out = rerun(args.notebook, values, args.out, render=not args.no_render, progress=sys.stderr.isatty())
    except (TypeError, ValueError) as err:
        raise SystemExit(f"error: {err}") from None
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
