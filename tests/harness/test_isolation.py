"""No code path in harness/ can reach a pack's oracle, provenance or review."""

from __future__ import annotations

import ast
from pathlib import Path

import harness

HARNESS = Path(harness.__file__).parent
FORBIDDEN = ("oracle", "labels.json", "provenance", "review.json", "load_labels", "load_pack",
             "load_provenance", "Labels", "Provenance")


def _sources() -> list[Path]:
    return sorted(p for p in HARNESS.rglob("*") if p.suffix in {".py", ".toml", ".js"})


def test_no_harness_file_names_the_oracle():
    hits = []
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        for word in FORBIDDEN:
            if word in text:
                hits.append(f"{path.relative_to(HARNESS)}: {word}")
    assert hits == []
    assert len(_sources()) >= 10  # the check looked at the real package


def test_harness_imports_only_the_customer_view_side_of_corpus():
    allowed = {"load_customer_view", "CustomerView", "CustomerMaterial", "load_setup",
               "setup_files", "list_packs", "Progress", "corpus_identity", "open_corpora",
               "LeakGuard", "build_customer_messages", "build_repair_messages", "PackError",
               "build_grounded_messages"}
    used = set()
    for path in HARNESS.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "claims_corpus"):
                used.add(node.attr)
            if isinstance(node, ast.ImportFrom) and node.module == "claims_corpus":
                used |= {a.name for a in node.names}
    assert used, "no use of corpus found: the check is not looking"
    assert used <= allowed, used - allowed


def test_the_forbidden_word_check_can_fail(tmp_path):
    planted = tmp_path / "x.py"
    planted.write_text("from corpus import load_labels\n", encoding="utf-8")
    assert any(w in planted.read_text() for w in FORBIDDEN)
