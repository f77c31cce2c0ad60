"""``python -m refinfer.cli``: the ``refinfer`` command."""
import sys

from . import main

sys.exit(main())
