"""Nightly configurations whose folders cannot work, table-driven, through the command line
in-process: each ends in one line naming the configuration file, the key and the path, exit
2, before anything runs, and whatever the runs folder already held is left as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import harness
from claims_cli.app import app

OK_CORPUS = "corpus"  # a folder with a manifest.json, made by every case
Setup = Callable[[Path], None]


def _nothing(root: Path) -> None:
    pass


def _file(rel: str, text: str = "not a folder\n") -> Setup:
    def make(root: Path) -> None:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return make


def _folder(rel: str) -> Setup:
    def make(root: Path) -> None:
        (root / rel).mkdir(parents=True)
    return make


HISTORY = '{"nights": [ not json'
# (case, config body, what to make first, key named, words of the message, path named)
CASES: list[tuple[str, str, Setup, str, str, str]] = [
    ("held-out corpus missing", 'corpora = ["held-out"]', _nothing, "corpora[0]",
     "corpus folder does not exist", "held-out"),
    ("held-out beside the main corpus", f'corpora = ["{OK_CORPUS}", "../secure/held-out"]',
     _nothing, "corpora[1]", "corpus folder does not exist", "secure/held-out"),
    ("absolute held-out path missing", 'corpora = ["/nonexistent/held-out"]', _nothing,
     "corpora[0]", "does not exist", "/nonexistent/held-out"),
    ("corpus is a file", 'corpora = ["held-out"]', _file("conf/held-out"), "corpora[0]",
     "not a folder", "held-out"),
    ("corpus without manifest", 'corpora = ["held-out"]', _folder("conf/held-out"),
     "corpora[0]", "holds no manifest.json", "held-out"),
    ("manifest is a folder", 'corpora = ["held-out"]', _folder("conf/held-out/manifest.json"),
     "corpora[0]", "holds no manifest.json", "held-out"),
    ("empty corpus path", 'corpora = [""]', _nothing, "corpora[0]", "holds no manifest.json",
     "conf"),
    ("NUL in a corpus path", 'corpora = ["held\\u0000out"]', _nothing, "corpora[0]",
     "NUL", "held"),
    ("unknown ~user", 'corpora = ["~nosuchuser-claims/held-out"]', _nothing, "corpora[0]",
     "no user", "~nosuchuser-claims/held-out"),
    ("runs folder is a file", f'corpora = ["{OK_CORPUS}"]\nruns_dir = "runs"',
     _file("conf/runs"), "runs_dir", "is a file, not a folder", "runs"),
    ("runs folder under a file", f'corpora = ["{OK_CORPUS}"]\nruns_dir = "blocker/runs"',
     _file("conf/blocker"), "runs_dir", "cannot be made", "blocker"),
    ("NUL in the runs folder", f'corpora = ["{OK_CORPUS}"]\nruns_dir = "ru\\u0000ns"',
     _nothing, "runs_dir", "NUL", "ru"),
    ("unreadable history", f'corpora = ["{OK_CORPUS}"]\nruns_dir = "runs"',
     _file("conf/runs/history.json", HISTORY), "", "history index is unreadable",
     "history.json"),
    ("history is a folder", f'corpora = ["{OK_CORPUS}"]\nruns_dir = "runs"',
     _folder("conf/runs/history.json"), "", "history index is unreadable", "history.json"),
    ("profile file missing", f'corpora = ["{OK_CORPUS}"]\nprofile = "no-such-product.toml"',
     _nothing, "", "", "no-such-product.toml"),
]


def _snapshot(root: Path) -> dict[str, bytes | None]:
    return {p.relative_to(root).as_posix(): p.read_bytes() if p.is_file() else None
            for p in sorted(root.rglob("*"))}


@pytest.fixture
def no_run(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    calls: list[object] = []

    def fake_run(config: object, ctx: object) -> None:
        calls.append(config)
        raise AssertionError("a night with a bad configuration must not run")

    monkeypatch.setattr(harness, "run", fake_run)
    return calls


@pytest.mark.parametrize(("case", "body", "setup", "key", "words", "named"), CASES,
                         ids=[c[0] for c in CASES])
def test_a_night_whose_folders_cannot_work_is_refused_in_one_line(
        case: str, body: str, setup: Setup, key: str, words: str, named: str,
        tmp_path: Path, no_run: list[object]) -> None:
    conf = tmp_path / "conf"
    (conf / OK_CORPUS).mkdir(parents=True)
    (conf / OK_CORPUS / "manifest.json").write_text("{}\n", encoding="utf-8")
    setup(tmp_path)
    path = conf / "nightly.toml"
    path.write_text(f'name = "held-out-night"\n{body}\n', encoding="utf-8")
    before = _snapshot(tmp_path)

    result = CliRunner().invoke(app, ["nightly", str(path), "--night-id", "n1"])

    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), case
    assert "Traceback" not in result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert words in lines[0] and named in lines[0]
    if key:
        assert str(path) in lines[0] and f"field={key}" in lines[0]
    assert no_run == []
    assert _snapshot(tmp_path) == before  # nothing recorded, nothing lost or overwritten
