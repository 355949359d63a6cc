"""Every scheduler recipe shipped in scripts/ parses and calls a command the CLI really takes:
the cron line, the systemd service and timer (systemd-analyze verify where available), the
Windows Task Scheduler script, the CI workflow (shards, merge, gate, report upload) and the
Kubernetes manifests (an Indexed Job whose pods cover every shard once)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from claims_cli import app
from claims_records import NightlyConfig

REPO = Path(__file__).resolve().parents[2]
SCHEDULE = REPO / "scripts" / "schedule"
CHECKOUT = "/opt/claims-harness"  # where the recipes expect the project
CONFIG = "/etc/claims-harness/nightly.toml"
runner = CliRunner()


@pytest.fixture(autouse=True)
def _record_calls(monkeypatch):
    """The jobs the commands would start are recorded instead of run."""
    import claims_nightly

    CALLS.clear()

    def run_night(config, **kw):
        CALLS.append({"command": "nightly", "config": Path(config), **kw})
        return claims_nightly.NightResult(0)

    def archive_runs(runs_dir, older_than, dry_run=False):
        CALLS.append({"command": "runs archive", "runs_dir": Path(runs_dir),
                      "older_than": older_than})
        return []

    monkeypatch.setattr(claims_nightly, "run_night", run_night)
    monkeypatch.setattr(claims_nightly, "archive_runs", archive_runs)


CALLS: list[dict] = []


def accepts(argv: list[str]) -> dict:
    """Run ``claims-harness ARGV`` with its job recorded instead of run: unknown commands,
    unknown options and bad values fail here, as they would on the scheduler."""
    result = runner.invoke(app, list(argv))
    assert result.exit_code == 0, (argv, result.output)
    return CALLS[-1]


def _real(text: str, config: Path) -> str:
    """A recipe's line with its example paths pointing at this checkout."""
    return text.replace(CONFIG, str(config)).replace(CHECKOUT, str(REPO))


def _nightly_args(command: str, config: Path) -> list[str]:
    argv = shlex.split(_real(command, config))
    at = next(i for i, a in enumerate(argv) if a.endswith("claims-harness")
              or a.endswith("nightly.sh"))
    args = argv[at + 1:]
    return args if argv[at].endswith("claims-harness") else ["nightly", *args]


def test_the_cli_check_can_fail(tmp_path):
    config = REPO / "scripts" / "schedule" / "nightly.toml"
    call = accepts(["nightly", str(config), "--shard", "1/4", "--night-id", "n"])
    assert call == {"command": "nightly", "config": config, "night_id": "n", "shard": "1/4",
                    "merge_shards": False, "say": call["say"]}
    for bad in (["nightly", str(config), "--no-such-option"], ["nightl", str(config)],
                ["nightly", str(tmp_path / "missing.toml")]):
        with pytest.raises(AssertionError):
            accepts(bad)


def test_cron_line():
    text = (SCHEDULE / "claims-harness-nightly.cron").read_text()
    jobs = [x for x in text.splitlines() if x and not x.startswith("#") and "=" not in
            x.split()[0]]
    assert len(jobs) == 1
    minute, hour, dom, month, dow, user, *command = jobs[0].split()
    assert 0 <= int(minute) < 60 and 0 <= int(hour) < 24 and (dom, month, dow) == ("*",) * 3
    assert user == "claims"
    script = next(c for c in command if c.endswith("nightly.sh"))
    assert Path(_real(script, Path(CONFIG))).is_file()
    tail = " ".join(command).split("; ")[-1].split(">>")[0]
    config = SCHEDULE / "nightly.toml"
    call = accepts(_nightly_args(tail, config))
    assert call["command"] == "nightly" and call["config"] == config


def test_nightly_wrapper_runs_the_real_command():
    text = (REPO / "scripts" / "nightly.sh").read_text()
    assert 'exec "$BIN/claims-harness" nightly "$@"' in text
    assert subprocess.run(["bash", "-n", str(REPO / "scripts" / "nightly.sh")]).returncode == 0


def _units(tmp_path: Path) -> tuple[Path, Path]:
    service = (SCHEDULE / "claims-harness-nightly.service").read_text()
    service = _real(service, SCHEDULE / "nightly.toml").replace("User=claims", "User=root")
    (tmp_path / "claims-harness-nightly.service").write_text(service)
    shutil.copy(SCHEDULE / "claims-harness-nightly.timer", tmp_path)
    return tmp_path / "claims-harness-nightly.service", tmp_path / "claims-harness-nightly.timer"


def test_systemd_service_and_timer(tmp_path):
    service, timer = _units(tmp_path)
    exec_start = re.search(r"^ExecStart=(.+)$", service.read_text(), re.M).group(1)
    assert accepts(_nightly_args(exec_start, SCHEDULE / "nightly.toml"))["command"] == "nightly"
    assert "OnCalendar=*-*-* 02:30:00" in timer.read_text()
    assert "Type=oneshot" in service.read_text()
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed here: units checked for the command only")
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(timer), str(service)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    broken = tmp_path / "broken"
    broken.mkdir()
    bad_service, bad_timer = _units(broken)
    bad_service.write_text(bad_service.read_text().replace("scripts/nightly.sh", "no/such.sh"))
    failed = subprocess.run(["systemd-analyze", "verify", "--man=no", str(bad_timer),
                             str(bad_service)], capture_output=True, text=True, cwd=broken)
    assert failed.returncode != 0  # the verification can fail


def test_windows_task_scheduler_script():
    path = REPO / "scripts" / "register-nightly.ps1"
    text = path.read_text()
    assert path.parent == (REPO / "scripts" / "start-dev.ps1").parent
    for word in ("Register-ScheduledTask", "New-ScheduledTaskTrigger -Daily",
                 "New-ScheduledTaskAction", ".venv\\Scripts\\claims-harness.exe"):
        assert word in text
    argument = re.search(r'-Argument "([^"]*?)`"\$ConfigPath`""', text)
    assert argument and argument.group(1).strip() == "nightly"
    accepts(["nightly", str(SCHEDULE / "nightly.toml")])
    pwsh = shutil.which("pwsh") or shutil.which("powershell")
    if pwsh is None:
        pytest.skip("no PowerShell here to parse the script: checked for its commands only")
    parse = ("$e=$null; [System.Management.Automation.Language.Parser]::ParseFile("
             f"'{path}', [ref]$null, [ref]$e) | Out-Null; exit $e.Count")
    assert subprocess.run([pwsh, "-NoProfile", "-Command", parse]).returncode == 0


def _workflow() -> dict:
    data = yaml.safe_load((SCHEDULE / "github-nightly.yml").read_text())
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads a bare `on` as true
    return data


def _runs(job: dict) -> list[str]:
    return [s["run"] for s in job["steps"] if "run" in s]


def test_ci_workflow_shards_then_merges_gates_and_uploads_the_report():
    wf = _workflow()
    assert re.fullmatch(r"\S+ \S+ \S+ \S+ \S+", wf["on"]["schedule"][0]["cron"])
    shard, merge = wf["jobs"]["shard"], wf["jobs"]["merge"]
    shards = shard["strategy"]["matrix"]["shard"]
    assert shards == list(range(1, int(wf["env"]["SHARDS"]) + 1))
    assert merge["needs"] == "shard" and merge["if"] == "always()"
    config = REPO / wf["env"]["CONFIG"]
    assert config.is_file()
    run_shard = next(r for r in _runs(shard) if "claims-harness nightly" in r)
    for i in shards:
        line = (run_shard.replace("${{ matrix.shard }}", str(i))
                .replace("$SHARDS", wf["env"]["SHARDS"]).replace('"$CONFIG"', str(config))
                .replace('"$NIGHT_ID"', "n"))
        call = accepts(shlex.split(line)[1:])
        assert call["shard"] == f"{i}/4" and call["night_id"] == "n"
    nightly_lines = [r for r in _runs(merge) if r.startswith("claims-harness")]
    merged = accepts(shlex.split(nightly_lines[0].replace('"$CONFIG"', str(config))
                                 .replace('"$NIGHT_ID"', "n"))[1:])
    assert merged["merge_shards"] is True and merged["config"] == config
    archive = accepts(shlex.split(nightly_lines[1])[1:])
    assert archive["command"] == "runs archive" and archive["runs_dir"] == Path("runs")
    uploads = [s for s in merge["steps"] if s.get("uses", "").startswith(
        "actions/upload-artifact")]
    assert "/report" in uploads[-1]["with"]["path"] and uploads[-1]["if"] == "always()"
    assert any("setup-env.sh" in r for r in _runs(shard)) and any(
        "install-browser.sh" in r for r in _runs(shard))


def _manifests() -> dict[str, list[dict]]:
    return {p.name: list(yaml.safe_load_all(p.read_text()))
            for p in sorted((SCHEDULE / "k8s").glob("*.yaml"))}


def _shell_line(container: dict) -> str:
    assert container["command"] == ["sh", "-c"]
    return container["args"][0]


def test_kubernetes_indexed_job_covers_every_shard_once(tmp_path):
    docs = _manifests()
    assert set(docs) == {"merge-job.yaml", "nightly-config.yaml", "runs-volume.yaml",
                         "shards-job.yaml"}
    (config_map,) = docs["nightly-config.yaml"]
    config = NightlyConfig.model_validate(tomllib.loads(config_map["data"]["nightly.toml"]))
    local = tmp_path / "nightly.toml"
    local.write_text(config_map["data"]["nightly.toml"])
    (job,) = docs["shards-job.yaml"]
    spec = job["spec"]
    assert job["kind"] == "Job" and spec["completionMode"] == "Indexed"
    assert spec["completions"] == spec["parallelism"] == config.shards
    (pvc,) = docs["runs-volume.yaml"]
    assert pvc["kind"] == "PersistentVolumeClaim" and "ReadWriteMany" in pvc["spec"][
        "accessModes"]
    pod = spec["template"]["spec"]
    mounts = {m["name"]: m["mountPath"] for m in pod["containers"][0]["volumeMounts"]}
    assert mounts["runs"] == config.runs_dir and "/config" in mounts.values()
    claim = {v["name"]: v for v in pod["volumes"]}["runs"]["persistentVolumeClaim"]
    assert claim["claimName"] == pvc["metadata"]["name"]
    line = _shell_line(pod["containers"][0])
    seen = []
    for index in range(spec["completions"]):
        env = {**os.environ, "JOB_COMPLETION_INDEX": str(index), "NIGHT_ID": "n"}
        echoed = subprocess.run(["sh", "-c", "printf '%s\\n' " + line.removeprefix("exec ")],
                                env=env, capture_output=True, text=True, check=True).stdout
        argv = echoed.split()
        assert argv[0] == "claims-harness"
        argv[2] = str(local)  # the ConfigMap's file, here
        seen.append(accepts(argv[1:])["shard"])
    assert seen == [f"{i}/{config.shards}" for i in range(1, config.shards + 1)]
    (merge,) = docs["merge-job.yaml"]
    merge_line = _shell_line(merge["spec"]["template"]["spec"]["containers"][0])
    argv = shlex.split(merge_line.replace('"$NIGHT_ID"', "n"))[1:]
    argv[2] = str(local)
    assert accepts(argv[1:])["merge_shards"] is True
