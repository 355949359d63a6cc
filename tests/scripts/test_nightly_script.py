"""scripts/nightly.sh as a scheduler runs it: an all-error night (every trial's reset fails on
the product's side) is never a success, and the script's code names ExitCode's."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from claims_nightly import load_history
from claims_records import ExitCode

from ..harness.profiles import bare_profile
from ..harness.test_reset_failed import ResettingProduct

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "nightly.sh"


def test_the_scripts_code_for_a_failed_setup_is_no_result():
    text = SCRIPT.read_text(encoding="utf-8")
    assert int(re.search(r"^NO_RESULT=(\d+)", text, re.M).group(1)) == ExitCode.NO_RESULT
    for code in ExitCode:  # the header names every code the night can end with
        assert f"{code.value} " in text.split("set -euo")[0]


@pytest.mark.slow
@pytest.mark.browser
def test_an_all_error_night_is_not_a_success(tmp_path):
    product = ResettingProduct()
    product.mode = "500"  # the product's own reset fails for every pack: reset_failed
    try:
        (tmp_path / "down.toml").write_text(
            bare_profile("down", base_url=product.url).replace(
                "staff_side = false", "staff_side = false\nruntime_report = false")
            + '\n[reset]\nadapter = "endpoint"\n[reset.endpoint]\npath = "/ops/reset"\n'
            "timeout_s = 0.5\n", encoding="utf-8")
        config = tmp_path / "nightly.toml"
        config.write_text(
            f'name = "dead"\nruns_dir = "runs"\nprofile = "down.toml"\n'
            f'corpora = ["{REPO / "packs"}"]\npacks = ["CTL-M-001", "CTL-M-002"]\n'
            "allow_unreported_runtime = true\n[gate]\nmin_pass_hat_k = 0.8\nk = 1\n",
            encoding="utf-8")
        env = {**os.environ, "VIRTUAL_ENV": str(Path(sys.executable).parent.parent)}
        done = subprocess.run(["bash", str(SCRIPT), str(config), "--night-id", "n"],
                              capture_output=True, text=True, env=env, timeout=600)
    finally:
        product.server.stop()
    assert product.calls == 2, done.stdout + done.stderr  # both trials ran, both failed
    assert done.returncode == ExitCode.NO_RESULT, done.stdout + done.stderr
    assert "night n: INFRASTRUCTURE FAILURE (exit 3)" in done.stdout
    assert "2 of 2 trial(s) ended in product, simulator or harness errors" in done.stdout
    night = load_history(tmp_path / "runs").nights[0]
    assert night.outcome == "infrastructure" and night.exit_code == 3
    assert night.errors_by_category == {"product_error": 2}
