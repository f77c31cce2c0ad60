"""The fuzzer lives in tools/ (tools/fuzz.py, tools/fuzzer/): its folder
goes first on sys.path, as when the script runs."""
import os
import sys

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tools")
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)
