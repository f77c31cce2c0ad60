"""The CI fuzz corpus (issue 17): a fixed seed's cases over the golden
models, each built and predicted in a worker process with memory and time
limits. No raw exception, crash, hang or unwrapped MemoryError may appear.
Reproduce a failure with ``tools/fuzz.py`` and the arguments in the
assertion message: it writes a minimised reproducer of each signature."""
import pytest

import fuzz

SEED, CASES, TIMEOUT, JOBS = 0, 2000, 10.0, 2
MAX_BYTES = 1 << 20     # MobileNetV2 (14 MB) alone would take a third of the time
COMMAND = (f"tools/fuzz.py --cases {CASES} --seed {SEED} --timeout {TIMEOUT:g} "
           f"--jobs {JOBS} --max-bytes {MAX_BYTES}")


@pytest.mark.slow
def test_the_corpus_finds_nothing():
    sources = fuzz.sources_from(fuzz.DEFAULT_MODELS, MAX_BYTES)
    report = fuzz.run_campaign(CASES, SEED, sources, ("numba", "reference"),
                               TIMEOUT, JOBS)
    assert sum(report.outcomes.values()) == CASES
    assert not report.findings, f"{COMMAND}\n" + "\n".join(
        f"{s}: {f.count} case(s), e.g. case {f.cases[0]}: {f.result['error']}"
        for s, f in report.findings.items())
