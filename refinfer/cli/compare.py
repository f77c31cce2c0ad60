"""``refinfer compare EXPECTED ACTUAL [--atol A] [--rtol R]
[--tol NAME:ATOL,RTOL ...] [--json FILE] [--progress]``: metrics and
pass/fail per tensor; exit status 1 when a tensor fails."""
from __future__ import annotations

from ..tools.compare import compare_paths, format_report, write_report
from .options import add_progress_arg, add_tolerance_args


def add(sub) -> None:
    compare = sub.add_parser(
        "compare", help="compare tensors: metrics and pass/fail per tensor")
    compare.add_argument("expected", help=".npy, ARCHIVE.npz:KEY, Lite "
                         "calibration .txt, or a directory (golden, dump or "
                         ".npy files)")
    compare.add_argument("actual", help="same kinds as EXPECTED")
    add_tolerance_args(compare)
    compare.add_argument("--json", metavar="FILE",
                         help="also write the report as JSON")
    add_progress_arg(compare)
    compare.set_defaults(command=command, name="compare")


def command(args) -> int:
    report = compare_paths(args.expected, args.actual, args.atol, args.rtol,
                           args.tol, args.progress)
    print(format_report(report))
    if args.json:
        write_report(args.json, report)
    return report.exit_code
