"""The layout the architecture promises, checked on the source: the records floor at the
bottom, one atomic writer, no record file parsed or named outside the floor, and no generic
top-level module installed."""

from __future__ import annotations

import ast
import importlib.metadata
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FLOOR = "claims_records"
PACKAGES = ("claims_records", "claims_corpus", "seed", "claims_dev", "harness", "scoring",
            "claims_nightly", "claims_cli", "claims_reference_app", "claims_example_app",
            "claims_prototype_app")
# Record files only the floor names (it owns their reading and writing): every file a run
# folder or a runs folder holds in a record format of claims_records.
RECORD_FILES = ("run.json", "trial.json", "sheet.json", "summary.json", "human.json",
                "journey.jsonl", "decision-journey.jsonl", "customer-model.jsonl",
                "history.json", "overrides.json")


def _modules(package: str) -> list[Path]:
    return sorted((REPO / package).rglob("*.py"))


def _imports(path: Path) -> set[str]:
    """Top-level project packages a module imports (relative imports stay inside)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out & set(PACKAGES)


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def test_the_records_floor_imports_no_package_above_it() -> None:
    above = {str(p.relative_to(REPO)): _imports(p) - {FLOOR} for p in _modules(FLOOR)}
    assert {k: v for k, v in above.items() if v} == {}


@pytest.mark.parametrize("package", ["claims_corpus", "seed", "claims_dev", "harness", "scoring",
                                     "claims_nightly", "claims_cli"])
def test_the_packages_above_stand_on_the_floor(package: str) -> None:
    used = set().union(*(_imports(p) for p in _modules(package)))
    assert FLOOR in used


# Which packages each package may import: the floor at the bottom, the CLI on top.
ALLOWED = {
    "claims_records": set(),
    "claims_corpus": {FLOOR},
    "seed": {FLOOR, "claims_corpus"},
    "scoring": {FLOOR, "claims_corpus"},
    "claims_dev": {FLOOR, "claims_corpus", "seed"},
    "harness": {FLOOR, "claims_corpus", "seed", "claims_dev"},
    "claims_nightly": {FLOOR, "claims_corpus", "harness", "scoring"},
    "claims_reference_app": {FLOOR, "claims_corpus", "seed"},
    "claims_example_app": {FLOOR, "claims_corpus", "claims_reference_app"},
    "claims_prototype_app": set(),  # a product of its own: nothing of the project
    "claims_cli": set(PACKAGES),
}


@pytest.mark.parametrize("package", PACKAGES)
def test_the_import_graph_is_layered(package: str) -> None:
    used = set().union(*(_imports(p) for p in _modules(package))) - {package}
    assert used <= ALLOWED[package], sorted(used - ALLOWED[package])


def test_one_atomic_writer() -> None:
    """Only the floor writes a temporary file and renames it over another."""
    writers = []
    for package in PACKAGES:
        if package == FLOOR:
            continue
        for path in _modules(package):
            text = path.read_text(encoding="utf-8")
            if "mkstemp" in text or ('".tmp"' in text and "replace(" in text):
                writers.append(str(path.relative_to(REPO)))
    assert writers == []


def test_the_record_files_are_the_floors_own() -> None:
    """The list above is the floor's: each name is one of its file constants."""
    import claims_records

    constants = {value for name, value in vars(claims_records).items()
                 if name.endswith("_FILE") and isinstance(value, str)}
    assert set(RECORD_FILES) <= constants, sorted(set(RECORD_FILES) - constants)


def test_no_record_file_is_named_outside_the_floor() -> None:
    """run.json and friends are read and written through the floor's functions."""
    named = []
    for package in PACKAGES:
        if package == FLOOR:
            continue
        for path in _modules(package):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docs = _docstrings(tree)
            for node in ast.walk(tree):
                if (isinstance(node, ast.Constant) and node.value in RECORD_FILES
                        and id(node) not in docs):
                    named.append(f"{path.relative_to(REPO)}:{node.lineno} {node.value}")
    assert named == []


def test_no_record_is_parsed_by_hand() -> None:
    parsed = []
    for package in PACKAGES:
        if package == FLOOR:
            continue
        for path in _modules(package):
            text = path.read_text(encoding="utf-8")
            for model in ("RunRecord", "TrialResult"):
                if f"{model}.model_validate_json" in text:
                    parsed.append(f"{path.relative_to(REPO)} {model}")
    assert parsed == []


def test_error_context_is_read_through_typed_attributes() -> None:
    """``exc.field``, ``exc.kind``, ``exc.reason``...: never ``exc.context.get("kind")``."""
    by_key = []
    for package in PACKAGES:
        for path in _modules(package):
            if path == REPO / FLOOR / "errors.py":
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if "context.get(" in line or ".context[" in line:
                    by_key.append(f"{path.relative_to(REPO)}:{n}")
    assert by_key == []


def test_installing_adds_no_generic_top_level_module() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    assert sorted(p.rstrip("*") for p in include) == sorted(PACKAGES)
    top = importlib.metadata.distribution("claims-journey-harness").read_text("top_level.txt")
    assert top is not None
    assert set(top.split()) == set(PACKAGES)
    assert not {"cli", "corpus", "nightly", "reference_app", "example_app",
                "prototype_app"} & set(top.split())
