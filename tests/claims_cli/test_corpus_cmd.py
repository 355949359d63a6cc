from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli.app import app

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"
PACK_ID = "CTL-M-001"
runner = CliRunner()


@pytest.fixture
def root(corpus_copy: Path) -> Path:
    """A private one-pack corpus (tests/conftest.py) that a test may break."""
    return corpus_copy


def test_check_passes_and_freeze_names_unsigned_image(root: Path) -> None:
    result = runner.invoke(app, ["corpus", "check", str(root)])
    assert result.exit_code == 0, result.output
    assert "1 pack(s) checked, 0 problem(s)" in result.output
    result = runner.invoke(app, ["corpus", "check", str(root), "--freeze"])
    assert result.exit_code == 1
    assert (f"{PACK_ID}/review.json: materials.0.sign_off: image 'photo-rear-bumper.jpg' "
            "has no sign-off by a named person") in result.output
    assert "1 problem(s)" in result.output


def test_check_prints_every_problem(root: Path) -> None:
    (root / PACK_ID / "input/materials/notes.txt").write_text("x")
    facts = root / PACK_ID / "input/facts.json"
    facts.write_text(facts.read_text().replace("It happened on 12 March 2026.",
                                               "It happened yesterday."))
    result = runner.invoke(app, ["corpus", "check", str(root)])
    assert result.exit_code == 1
    assert f"{PACK_ID}/input/materials/notes.txt: <file>: file is not listed" in result.output
    assert f"{PACK_ID}/input/facts.json: facts.1.say: relative date 'yesterday'" in result.output


def test_manifest_command_updates_entries(root: Path) -> None:
    data = json.loads((root / "manifest.json").read_text())
    data["packs"] = {}
    (root / "manifest.json").write_text(json.dumps(data))
    assert runner.invoke(app, ["corpus", "check", str(root)]).exit_code == 1
    result = runner.invoke(app, ["corpus", "manifest", str(root)])
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["corpus", "check", str(root)]).exit_code == 0


def test_schema_check_and_write(tmp_path: Path) -> None:
    assert runner.invoke(app, ["corpus", "schema", "--check"]).exit_code == 0
    out = tmp_path / "schema"
    result = runner.invoke(app, ["corpus", "schema", "--dir", str(out), "--check"])
    assert result.exit_code == 1
    result = runner.invoke(app, ["corpus", "schema", "--dir", str(out)])
    assert result.exit_code == 0
    for path in out.iterdir():
        assert path.read_bytes() == (PACKS / "schema" / path.name).read_bytes()


def test_generate_recreates_materials(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "made"
    result = runner.invoke(app, ["corpus", "generate", str(root / PACK_ID), "--out", str(out)])
    assert result.exit_code == 0, result.output
    for name in ("photo-rear-bumper.jpg", "repair-quote.pdf"):
        committed = PACKS / PACK_ID / "input/materials" / name
        assert (out / name).read_bytes() == committed.read_bytes()


def test_generate_reports_a_bad_pack_clearly(tmp_path: Path) -> None:
    result = runner.invoke(app, ["corpus", "generate", str(tmp_path / "CTL-M-404")])
    assert result.exit_code == 2
    assert "pack=CTL-M-404" in result.output and "provenance.json" in result.output


def test_script_wrapper_runs_the_same_check(root: Path) -> None:
    done = subprocess.run([sys.executable, str(REPO / "scripts/check_corpus.py"), str(root),
                           "--freeze"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "has no sign-off by a named person" in done.stdout


def test_migrate_reports_what_it_rewrote(root: Path) -> None:
    facts = root / PACK_ID / "input/facts.json"
    data = json.loads(facts.read_text())
    data["version"] = "0.2"
    facts.write_text(json.dumps(data, indent=2) + "\n")
    result = runner.invoke(app, ["corpus", "migrate", str(root)])
    assert result.exit_code == 0, result.output
    assert f"migrated {PACK_ID}/input/facts.json" in result.output
    assert "1 file(s) rewritten" in result.output
    again = runner.invoke(app, ["corpus", "migrate", str(root)])
    assert "0 file(s) rewritten" in again.output


def test_review_sign_off_and_freeze_end_to_end(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "review"
    result = runner.invoke(app, ["corpus", "review", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / PACK_ID / "photo-rear-bumper.jpg").is_file()
    assert "not signed" in (out / PACK_ID / "index.html").read_text(encoding="utf-8")

    result = runner.invoke(app, ["corpus", "sign-off", "--by", "TBD", str(root / PACK_ID)])
    assert result.exit_code == 2
    assert "refusing to sign off: 'TBD' is a placeholder" in result.output
    result = runner.invoke(app, ["corpus", "check", str(root), "--freeze"])
    assert result.exit_code == 1 and "has no sign-off by a named person" in result.output

    result = runner.invoke(app, ["corpus", "sign-off", "--by", "Ruth Adeyemi",
                                 str(root / PACK_ID), "--notes", "dent reads clearly"])
    assert result.exit_code == 0, result.output
    assert f"{PACK_ID}/photo-rear-bumper.jpg: ok by Ruth Adeyemi sha256 " in result.output
    review = json.loads((root / PACK_ID / "review.json").read_text(encoding="utf-8"))
    assert review["materials"][0]["sign_off"]["notes"] == "dent reads clearly"
    result = runner.invoke(app, ["corpus", "check", str(root), "--freeze"])
    assert result.exit_code == 0, result.output
    assert "corpus frozen" in result.output


def test_blind_look_command_lists_images_to_remake(root: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.harness.fake_openai import FakeOpenAI, completion

    monkeypatch.setenv("CLAIMS_HARNESS_VISION_API_KEY", "sk-env-canary")
    with FakeOpenAI(default=lambda body: completion("A blue car parked by a wall.")) as server:
        args = ["corpus", "blind-look", str(root), "--base-url", f"{server.url}/v1",
                "--model", "vision-test", "--retries", "0"]
        result = runner.invoke(app, args)
        assert result.exit_code == 1, result.output
        assert (f"{PACK_ID}/photo-rear-bumper.jpg: REMAKE? the description misses dent: "
                '"A blue car parked by a wall."') in result.output
        assert "1 image(s) looked at, 1 to remake, 0 failed" in result.output
        server.default = lambda body: completion("A blue car; its rear bumper is dented.")
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        server.queue(503, {"error": {"message": "busy"}})
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and "FAILED" in result.output
    assert {k.lower(): v for k, v in server.headers[0].items()}["authorization"] == (
        "Bearer sk-env-canary")
    review = (root / PACK_ID / "review.json").read_text(encoding="utf-8")
    assert "sk-env-canary" not in review and '"mentions_subject": true' in review
    result = runner.invoke(app, ["corpus", "blind-look", str(root), "--model", "m"])
    assert result.exit_code == 2 and "--base-url or CLAIMS_HARNESS_VISION_BASE_URL" in (
        result.output)


def test_author_writes_a_generated_pack_the_checker_accepts(root: Path) -> None:
    result = runner.invoke(app, ["corpus", "author", str(root), "--pack", "CTL-H-014"])
    assert result.exit_code == 0, result.output
    assert "1 pack(s) written" in result.output
    assert (root / "CTL-H-014" / "input" / "materials" / "repair-quote.pdf").is_file()
    result = runner.invoke(app, ["corpus", "manifest", str(root)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["corpus", "check", str(root)])
    assert result.exit_code == 0, result.output
    assert "2 pack(s) checked, 0 problem(s)" in result.output


def test_author_reports_a_bad_table_clearly(tmp_path: Path) -> None:
    table = tmp_path / "scenarios.toml"
    table.write_text('[[pack]]\nid = "CTL-M-901"\nkind = "kitchen_fire"\nstyle = "plain"\n'
                     'session = "anonymous"\nname = "A B"\ndate = "2026-01-01"\n'
                     'message = "m"\ndescription = "d"\nplace = "p"\n', encoding="utf-8")
    result = runner.invoke(app, ["corpus", "author", str(tmp_path), "--table", str(table)])
    assert result.exit_code == 2
    assert "scenario table" in result.output and "not on line M" in result.output
