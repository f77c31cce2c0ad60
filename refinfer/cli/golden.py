"""``refinfer golden MODEL [--input FILE ...] [--seed N] --out DIR [--force]
[--float64 [--cast-outputs]]``: inputs, outputs (.npy, .bin, Lite
calibration text) and a manifest."""
from __future__ import annotations

from ..tools import common
from ..tools.golden import make_golden
from .options import (add_model_inputs, add_output_dir, add_precision_args,
                      precision)


def add(sub) -> None:
    golden = sub.add_parser(
        "golden", help="write inputs, outputs (.npy, .bin, Lite calibration "
        "text) and a manifest")
    add_model_inputs(golden)
    add_output_dir(golden)
    add_precision_args(golden)
    golden.set_defaults(command=command, name="golden")


def command(args) -> int:
    model = common.load_model(args.model, precision(args))
    inputs = common.model_inputs(model, args.input, args.seed)
    seed = None if args.input else args.seed
    manifest = make_golden(model, inputs, args.out, args.force, seed,
                           args.cast_outputs)
    print(f"wrote {len(manifest['inputs'])} input(s) and "
          f"{len(manifest['outputs'])} output(s) to {args.out}")
    return 0
