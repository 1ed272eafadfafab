"""Run every benchmark in turn (``make bench``)."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for script, extra in (("speed.py", []), ("accuracy.py", []), ("independent.py", []),
                      ("art_transfer.py", []), ("adaptation.py", []), ("adaptation_web.py", []),
                      ("web_load.py", []),
                      ("page_weight.py", []), ("seating.py", []),
                      ("fuzz.py", []), ("robustness.py", [])):
    print(f"\n== {script} {' '.join(extra)}", flush=True)
    subprocess.run([sys.executable, str(HERE / script), *extra], check=False)
