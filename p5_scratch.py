from pathlib import Path
from collections import Counter
from mirror.pipeline import run, CheckSettings
from tests.corpus.conftest import MATHLIB
r = run(MATHLIB, method="scanner", settings=CheckSettings(max_examples=10, sweep=32))
print(Counter(x.mirror_status for x in r.results))
for x in r.results:
    if x.carriers or (x.reason and ("type parameter" in x.reason or "carrier" in x.reason or "at no carrier" in x.reason)):
        print(x.name, x.mirror_status, x.carriers, (x.reason or "")[:200])
