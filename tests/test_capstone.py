"""The capstone runs end to end, shortened, on the references, and its loss falls clearly."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_capstone_trains_and_writes(tmp_path):
    env = {**os.environ, "WORKBOOK_CAPSTONE_STEPS": "25", "WORKBOOK_CAPSTONE_SECONDS": "1000",
           "WORKBOOK_CAPSTONE_CODE": "solutions",
           "WORKBOOK_CAPSTONE_PLOT": str(tmp_path / "loss.png"), "MPLBACKEND": "Agg"}
    run = subprocess.run([sys.executable, str(ROOT / "solutions" / "capstone" / "capstone.py")],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert run.stdout.count("<- the workbook's reference (lesson") == 6, run.stdout
    first, last = map(float, re.search(r"loss ([\d.]+) -> ([\d.]+)", run.stdout).groups())
    assert last < 0.75 * first, run.stdout
    assert "After training, greedy" in run.stdout and "After training, sampled" in run.stdout
    assert (tmp_path / "loss.png").stat().st_size > 1000
