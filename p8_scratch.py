from pathlib import Path
from mirror.pipeline import run, CheckSettings
from tests.corpus.conftest import MATHLIB
r = run(MATHLIB, method="scanner", settings=CheckSettings(max_examples=10, sweep=32))
for x in r.results:
    if x.mirror_status == "refuted":
        print(x.name, x.statement, "\n", x.reason, x.counterexample, x.method[:300])
