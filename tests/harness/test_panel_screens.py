"""The simulator panel's shipped screens are kept current: they are recorded from the current
corpus, one file per public pack; and ``selftest record-screens --reference`` records them
again on the reference app, swapping the folder in only when the recording is complete."""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

import claims_corpus
from claims_cli import app
from claims_records import (
    CustomerAction,
    JourneyEvent,
    PanelScreens,
    SeedError,
    read_run_record,
)
from harness import panel

PACKS = Path(__file__).resolve().parents[2] / "packs"
VERSION = claims_corpus.corpus_identity(PACKS)[0]
runner = CliRunner()


def test_the_shipped_screens_are_recorded_from_the_current_corpus():
    """Fails when the corpus moves on (a new version, a pack added or removed) without the
    screens being recorded again."""
    public = {p.name for p in claims_corpus.list_packs(PACKS)}
    files = {path.name: PanelScreens.model_validate_json(path.read_text(encoding="utf-8"))
             for path in sorted(panel.SCREENS_DIR.glob("*.json"))}
    problems: dict[str, list[str]] = {}
    for name, screens in files.items():
        if name != f"{screens.pack_id}.json":
            problems.setdefault("a file named for another pack", []).append(name)
        if screens.corpus_version != VERSION:
            problems.setdefault(f"recorded with corpus {screens.corpus_version}",
                                []).append(screens.pack_id)
        if screens.pack_id not in public:
            problems.setdefault("not in the corpus any more", []).append(screens.pack_id)
    missing = sorted(public - {s.pack_id for s in files.values()})
    if missing:
        problems["no recorded screens"] = missing
    assert not problems, (
        f"the panel's screens ({panel.SCREENS_DIR}) are not those of corpus {VERSION}: "
        + "; ".join(f"{what}: {len(ids)} ({', '.join(ids)})" for what, ids in problems.items())
        + f". Record them again with `{panel.RERECORD_COMMAND} --lanes 2` "
        "(docs/llm-customer.md) and commit the folder.")


# --- the command, with the dev environment and the run replaced by fakes (no browser) ---

SHIPPED = panel.load_screens()["CTL-M-001"]


def _write_run(run_dir: Path, packs: list[str], statuses: dict[str, str]) -> None:
    """A run record in which each pack's trial showed the shipped CTL-M-001 screens."""
    events = [JourneyEvent(step=0, ts="t", note="reset took 3 ms"),
              JourneyEvent(step=0, ts="t", screen=SHIPPED.start, note="initial message",
                           action=CustomerAction(kind="say", text="hello")),
              *[JourneyEvent(step=i, ts="t", screen=s, action=CustomerAction(kind="sign_in"))
                for i, s in enumerate(SHIPPED.screens, start=1)]]
    journey = "".join(e.model_dump_json() + "\n" for e in events)
    trials = []
    for pid in packs:
        (run_dir / pid / "trial-1").mkdir(parents=True)
        (run_dir / pid / "trial-1" / "journey.jsonl").write_text(journey)
        trials.append({"pack_id": pid, "trial": 1, "status": statuses.get(pid, "completed"),
                       "path": f"{pid}/trial-1"})
    run_dir.joinpath("run.json").write_text(json.dumps({
        "run_id": run_dir.name, "created_at": "t", "harness": {"version": "x"},
        "corpus": {"version": VERSION, "hash": "h", "path": "packs"},
        "product": {"profile": "reference", "base_urls": [], "runtime": "reference"},
        "customer": {"kind": "scripted"}, "trials": trials}))


@pytest.fixture
def fake_run(monkeypatch, tmp_path):
    """The dev environment and the run replaced: ``seen`` says what they were asked for;
    ``outcome`` gives statuses by pack, or an exception the run raises."""
    seen: dict[str, object] = {}
    outcome: dict[str, object] = {"statuses": {}, "raise": None}
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # the temporary runs folder

    @contextlib.contextmanager
    def dev_product(profile, lanes, packs_root, **kw):
        seen.update(profile=profile.name, lanes=lanes, dev_packs=Path(packs_root))
        yield profile, SimpleNamespace(seed_token="token")

    def run(config, ctx):
        seen.update(config=config, runs_dir=ctx.runs_dir)
        run_dir = Path(ctx.runs_dir) / ctx.run_id
        packs = config.packs or [p.name for p in claims_corpus.list_packs(PACKS)]
        _write_run(run_dir, packs, outcome["statuses"])  # type: ignore[arg-type]
        if outcome["raise"] is not None:
            raise outcome["raise"]  # type: ignore[misc]
        return read_run_record(run_dir), run_dir

    monkeypatch.setattr("harness._dev.dev_product", dev_product)
    monkeypatch.setattr("harness.runner.run", run)
    return SimpleNamespace(seen=seen, outcome=outcome, scratch=scratch)


def _old_folder(root: Path) -> Path:
    """An output folder of an earlier recording: CTL-M-001 and a pack the corpus lost."""
    out = root / "screens"
    out.mkdir()
    for pid in ("CTL-M-001", "CTL-X-999"):
        old = SHIPPED.model_copy(update={"pack_id": pid, "corpus_version": "0.1.0"})
        (out / f"{pid}.json").write_text(old.model_dump_json())
    return out


def _files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def _leftovers(root: Path, fake) -> list[str]:
    """Temporary folders beside the output folder and in the temporary folder."""
    return sorted(p.name for p in [*root.iterdir(), *fake.scratch.iterdir()]
                  if p.name.startswith("."))


def test_a_re_record_replaces_the_whole_folder_with_the_current_corpus(tmp_path, fake_run):
    out = _old_folder(tmp_path)
    fake_run.outcome["statuses"] = {"CTL-H-002": "stuck"}
    result = runner.invoke(app, ["selftest", "record-screens", "--reference", "--packs",
                                 str(PACKS), "--out", str(out), "--lanes", "2"])
    assert result.exit_code == 1, result.output  # one pack gave no screens
    assert fake_run.seen["profile"] == "reference" and fake_run.seen["lanes"] == 2
    config = fake_run.seen["config"]
    assert config.customer == "scripted" and config.dev is not None and config.packs == []
    assert f"recorded 99 pack(s) of corpus {VERSION} on the reference app" in result.output
    assert "not recorded: CTL-H-002 (stuck)" in result.output
    recorded = panel.load_screens(out)
    public = {p.name for p in claims_corpus.list_packs(PACKS)}
    assert set(recorded) == public - {"CTL-H-002"}  # the lost pack's file is gone
    assert {s.corpus_version for s in recorded.values()} == {VERSION}
    assert recorded["CTL-C-004"].screens == SHIPPED.screens
    assert recorded["CTL-C-004"].source.startswith(f"run screens-{VERSION}, product reference")
    assert _leftovers(tmp_path, fake_run) == [] and list(fake_run.scratch.iterdir()) == []


def test_a_re_record_of_some_packs_keeps_the_folder_s_other_files(tmp_path, fake_run):
    out = _old_folder(tmp_path)
    before = _files(out)
    result = runner.invoke(app, ["selftest", "record-screens", "--reference", "--packs",
                                 str(PACKS), "--out", str(out), "--pack", "CTL-M-001",
                                 "--pack", "CTL-C-004"])
    assert result.exit_code == 0, result.output
    assert fake_run.seen["config"].packs == ["CTL-M-001", "CTL-C-004"]
    assert fake_run.seen["lanes"] == 1
    assert "recorded 2 pack(s)" in result.output and "1 other file(s) kept" in result.output
    after = _files(out)
    assert sorted(after) == ["CTL-C-004.json", "CTL-M-001.json", "CTL-X-999.json"]
    assert after["CTL-X-999.json"] == before["CTL-X-999.json"]
    assert panel.load_screens(out)["CTL-M-001"].corpus_version == VERSION
    assert _leftovers(tmp_path, fake_run) == [] and list(fake_run.scratch.iterdir()) == []


@pytest.mark.parametrize("stop", [KeyboardInterrupt(), SeedError("the app did not start")])
def test_an_interrupted_or_failed_re_record_leaves_the_folder_as_it_was(tmp_path, fake_run,
                                                                        stop):
    out = _old_folder(tmp_path)
    before = _files(out)
    fake_run.outcome["raise"] = stop
    result = runner.invoke(app, ["selftest", "record-screens", "--reference", "--packs",
                                 str(PACKS), "--out", str(out)])
    assert result.exit_code == (130 if isinstance(stop, KeyboardInterrupt) else 2)
    assert _files(out) == before
    assert _leftovers(tmp_path, fake_run) == [] and list(fake_run.scratch.iterdir()) == []


def test_a_re_record_in_which_no_pack_completed_leaves_the_folder_as_it_was(tmp_path,
                                                                           fake_run):
    out = _old_folder(tmp_path)
    before = _files(out)
    fake_run.outcome["statuses"] = {"CTL-M-001": "product_error"}
    result = runner.invoke(app, ["selftest", "record-screens", "--reference", "--packs",
                                 str(PACKS), "--out", str(out), "--pack", "CTL-M-001"])
    assert result.exit_code == 1
    assert "not recorded: CTL-M-001 (product_error)" in result.output
    assert "was left as it was" in result.output and _files(out) == before
    assert _leftovers(tmp_path, fake_run) == []


def test_the_command_refuses_what_does_not_fit(tmp_path, fake_run):
    cases = [([], "--reference"),
             ([str(tmp_path), "--reference"], "--reference"),
             ([str(tmp_path)], "--out"),
             ([str(tmp_path), "--out", str(tmp_path / "o"), "--pack", "CTL-M-001"], "--pack")]
    for args, hint in cases:
        result = runner.invoke(app, ["selftest", "record-screens", *args])
        assert result.exit_code == 2 and hint in result.output, (args, result.output)
    result = runner.invoke(app, ["selftest", "record-screens", "--reference", "--packs",
                                 str(PACKS), "--out", str(tmp_path / "o"), "--pack", "CTL-Z-1"])
    assert result.exit_code == 2 and "no such pack in the corpus" in result.output
    assert "config" not in fake_run.seen and not (tmp_path / "o").exists()


# --- the command for real: one pack on the reference app ---

@pytest.mark.slow
@pytest.mark.browser
def test_a_pack_is_re_recorded_on_the_reference_app(tmp_path):
    out = tmp_path / "screens"
    result = runner.invoke(app, ["selftest", "record-screens", "--reference", "--packs",
                                 str(PACKS), "--pack", "CTL-M-001", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"recorded 1 pack(s) of corpus {VERSION}" in result.output
    recorded = panel.load_screens(out)
    assert list(recorded) == ["CTL-M-001"] and sorted(p.name for p in out.iterdir()) == [
        "CTL-M-001.json"]
    screens = recorded["CTL-M-001"]
    assert screens.corpus_version == VERSION
    assert "product reference (runtime reference), scripted customer" in screens.source
    # the reference app and the scripted customer are deterministic: the shipped screens
    assert screens.start == SHIPPED.start and screens.screens == SHIPPED.screens
    assert [p.name for p in tmp_path.iterdir()] == ["screens"]
