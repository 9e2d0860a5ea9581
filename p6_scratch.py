import sys
from pathlib import Path
from collections import Counter
from mirror.pipeline import run, CheckSettings
for proj in sys.argv[1:]:
    r = run(Path(proj), method="scanner", settings=CheckSettings(max_examples=10, sweep=32))
    th = [x for x in r.results if x.kind == "theorem"]
    c = Counter(x.mirror_status for x in th)
    print(proj, len(th), dict(c), "checked", c["tested"] + c["symbolic"], flush=True)
    for x in th:
        if x.carriers or x.mirror_status in ("refuted", "error"):
            print("  ", x.name, x.mirror_status, x.carriers, (x.reason or "")[:160], flush=True)
    blockers = Counter((x.reason or "").split(":")[0][:90] for x in th if x.reason and ("type parameter" in x.reason or "carrier" in x.reason))
    for k, v in blockers.most_common(15): print("   blk", v, k)
