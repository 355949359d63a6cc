"""``review import`` of handler files that would mix people up or flood the run folder,
table-driven, in-process: each is refused with one line naming the file and the handler, exit
2, and nothing is kept — an earlier import's kept files stay as they were. Names are
normalised (Unicode NFKC, spacing) when read, and compared without case."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli.app import app
from claims_records import HandlerReview, write_model_atomic
from claims_records.blind_review import (
    MAX_HANDLER_FILE_BYTES,
    check_handler_files,
    handler_file_stem,
    handler_key,
)

from .conftest import bare_record

EXPORT = "e1"


def _review(name: str, export: str = EXPORT) -> dict[str, object]:
    return {"export_id": export, "handler": name, "saved_at": "2026-03-12T10:00:00+00:00",
            "decisions": {}}


def _write(path: Path, data: dict[str, object]) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _sized(size: int) -> Callable[[Path], Path]:
    def make(path: Path) -> Path:
        _write(path, _review("Big File"))
        with path.open("r+b") as f:  # sparse: the size without writing 120 MB
            f.truncate(size)
        return path
    return make


def _export(export_id: str) -> Callable[[Path], Path]:
    return lambda path: _write(path, _review("Cy Moss", export_id))


# (case, handler names of the files given, an earlier import's kept handler or None,
#  what the one line must say)
SameOrBad = list[tuple[str, list[str | Callable[[Path], Path]], str | None, str]]
CASES: SameOrBad = [
    ("case only", ["Ann Lee", "ann lee"], None, "two files from one handler"),
    ("upper case", ["Anne-Marie Dubois", "ANNE-MARIE DUBOIS"], None, "one handler"),
    ("double space", ["Ann Lee", "Ann  Lee"], None, "one handler"),
    ("spaces at the ends", ["Ann Lee", " Ann Lee\t"], None, "one handler"),
    ("non-breaking space", ["Ann Lee", "Ann\u00a0Lee"], None, "one handler"),
    ("full-width letters", ["Ann Lee", "\uff21\uff4e\uff4e \uff2c\uff45\uff45"], None,
     "one handler"),
    ("ideographic space", ["Ann Lee", "Ann\u3000Lee"], None, "one handler"),
    ("sharp s folds", ["Jo Strauß", "JO STRAUSS"], None, "one handler"),
    ("composed vs decomposed", ["Zoë Park", "Zoe\u0308 Park"], None, "one handler"),
    ("only spaces", ["   "], None, "only spaces"),
    ("only an ideographic space", ["\u3000"], None, "only spaces"),
    ("empty", [""], None, "handler"),
    ("zero-width space", ["\u200b"], None, "U+200B"),
    ("bidi override", ["Ann\u202eeeL"], None, "U+202E"),
    ("NUL", ["Ann\u0000Lee"], None, "U+0000"),
    ("escape sequence", ["Ann \u001b[31mLee"], None, "U+001B"),
    ("a very long name", ["A" * 500], None, "at most 120 characters"),
    ("same kept file name", ["Ann Lee", "Ann-Lee"], None, "ann-lee.json"),
    ("no letters a file name can keep", ["\u674e\u96f7", "\u738b\u82b3"], None,
     "handler.json"),
    ("earlier import kept another person", ["Ann-Lee"], "Ann Lee", "would replace"),
    ("export id climbing out of the run", [_export("../../../outside")], None,
     "an export id is"),
    ("export id with a slash", [_export("br-1/x")], None, "an export id is"),
    ("a 120 MB file", [_sized(120 * 1024 * 1024)], None, "at most"),
    ("one byte over the limit", [_sized(MAX_HANDLER_FILE_BYTES + 1)], None, "at most"),
]


def _snapshot(root: Path) -> dict[str, bytes | None]:
    return {p.relative_to(root).as_posix(): p.read_bytes() if p.is_file() else None
            for p in sorted(root.rglob("*"))}


@pytest.mark.parametrize(("case", "given", "kept", "words"), CASES, ids=[c[0] for c in CASES])
def test_import_refuses_names_and_files_that_would_mix_people_up(
        case: str, given: list[str | Callable[[Path], Path]], kept: str | None, words: str,
        tmp_path: Path) -> None:
    run = tmp_path / "run-1"
    run.mkdir()
    write_model_atomic(run / "run.json", bare_record("run-1"))
    if kept is not None:
        folder = run / "blind-review" / "handlers" / EXPORT
        folder.mkdir(parents=True)
        _write(folder / f"{handler_file_stem(kept)}.json", _review(kept))
    files = []
    for i, item in enumerate(given):
        path = tmp_path / f"review-{i}.json"
        files.append(item(path) if callable(item) else _write(path, _review(item)))
    before = _snapshot(run)

    result = CliRunner().invoke(app, ["review", "import", str(run), *map(str, files)])

    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), case
    assert "Traceback" not in result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert words in lines[0]
    assert f"file={files[-1]}" in lines[0]  # the file that was refused
    if len(files) > 1:
        assert str(files[0]) in lines[0]  # and the one it clashes with
    if not callable(given[-1]):
        assert "handler" in lines[0]
    assert _snapshot(run) == before  # nothing kept, nothing earlier replaced


def test_names_are_kept_normalised_and_compared_without_case(tmp_path: Path) -> None:
    raw = "  \uff21\uff4e\uff4e\u00a0 Lee\t"
    assert HandlerReview.model_validate(_review(raw)).handler == "Ann Lee"
    assert HandlerReview.model_validate(_review("Zoe\u0308")).handler == "Zo\u00eb"
    assert handler_key("ANN  lee") == handler_key(raw) == "ann lee"
    files = [_write(tmp_path / "a.json", _review(" Ann  Lee ")),
             _write(tmp_path / "b.json", _review("Bo Chen"))]
    reviews = check_handler_files(files, tmp_path / "kept")
    assert [r.handler for r in reviews] == ["Ann Lee", "Bo Chen"]
    # a file at the limit is read; the same person again replaces only their own kept file
    folder = tmp_path / "kept" / EXPORT
    folder.mkdir(parents=True)
    _write(folder / "ann-lee.json", _review("Ann Lee"))
    again = _write(tmp_path / "c.json", _review("ANN LEE"))
    with again.open("a", encoding="utf-8") as f:
        f.write(" " * (MAX_HANDLER_FILE_BYTES - os.path.getsize(again)))
    assert os.path.getsize(again) == MAX_HANDLER_FILE_BYTES
    assert check_handler_files([again], tmp_path / "kept")[0].handler == "ANN LEE"
