"""``python -m refinfer``: the ``refinfer`` command."""
import sys

from .launch import main

sys.exit(main())
