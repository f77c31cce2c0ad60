"""``refinfer graph MODEL -o FILE.html|.svg|.dot [--report REPORT.json]``:
draw the graph, nodes coloured by a compare or bisect report."""
from __future__ import annotations

from ..tools import common
from ..tools.graphview import write_graph


def add(sub) -> None:
    parser = sub.add_parser("graph", help="draw the graph (.html, .svg, "
                            ".dot)")
    parser.add_argument("model", help=".mindir file")
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="FILE.html (self-contained), FILE.dot, FILE.svg "
                        "(needs Graphviz)")
    parser.add_argument("--report", metavar="JSON",
                        help="colour nodes by error: a 'compare --json' or "
                        "'bisect --json' report")
    parser.set_defaults(command=command, name="graph")


def command(args) -> int:
    drawing = write_graph(common.load_model(args.model), args.output,
                          args.report)
    print(f"wrote {args.output}: {len(drawing.boxes())} boxes in "
          f"{len(drawing.clusters)} graph(s)")
    return 0
