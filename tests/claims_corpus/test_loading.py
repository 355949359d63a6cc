from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import claims_corpus
from claims_records import PackError

from .conftest import PACK_ID, PACKS


def test_list_packs_finds_only_pack_folders() -> None:
    packs = claims_corpus.list_packs(PACKS)
    assert PACK_ID in [p.name for p in packs]
    assert "schema" not in [p.name for p in packs]


def test_load_pack_parses_every_file() -> None:
    pack = claims_corpus.load_pack(PACKS / PACK_ID)
    assert pack.pack_id == PACK_ID
    assert pack.labels.triage.triage_class == "standard"
    assert pack.setup.claimant_session == "anonymous"
    assert pack.initial_message.startswith("Hello")
    assert set(pack.material_files) == {m.file for m in pack.materials.materials}
    assert {m.file for m in pack.provenance.materials} == set(pack.material_files)


def test_setup_files_and_objects(pack_copy: Path) -> None:
    setup = claims_corpus.load_setup(pack_copy)
    assert claims_corpus.setup_files(pack_copy, setup) == {}
    data = json.loads((pack_copy / "setup.json").read_text())
    data["objects"] = [{"key": "docs/quote.pdf", "file": "input/materials/repair-quote.pdf",
                        "content_type": "application/pdf"}]
    (pack_copy / "setup.json").write_text(json.dumps(data))
    setup = claims_corpus.load_setup(pack_copy)
    files = claims_corpus.setup_files(pack_copy, setup)
    assert files == {"input/materials/repair-quote.pdf":
                     (pack_copy / "input/materials/repair-quote.pdf").read_bytes()}
    data["objects"][0]["file"] = "../../etc/passwd"
    (pack_copy / "setup.json").write_text(json.dumps(data))
    with pytest.raises(PackError) as exc:
        claims_corpus.setup_files(pack_copy, claims_corpus.load_setup(pack_copy))
    assert exc.value.context == {"pack": PACK_ID, "file": "setup.json",
                                 "field": "objects.0.file"}


def test_baseline_staff_password_hash_matches_credentials() -> None:
    baseline = claims_corpus.load_baseline(PACKS)
    staff = baseline.collections["staff"][0]
    assert staff["_id"] == "staff-001" and staff["role"] == "claims_handler"
    scheme, iterations, salt, digest = staff["password_hash"].split("$")
    assert scheme == "pbkdf2_sha256" and iterations == "1000"
    assert baseline.staff_credentials is not None
    made = hashlib.pbkdf2_hmac("sha256", baseline.staff_credentials.password.encode(),
                               bytes.fromhex(salt), int(iterations), 32)
    assert made.hex() == digest
    assert baseline.staff_credentials.username == staff["username"] == "handler"


def test_invalid_field_names_pack_file_and_field(pack_copy: Path) -> None:
    data = json.loads((pack_copy / "oracle/labels.json").read_text())
    data["triage"]["triage_class"] = "urgent"
    (pack_copy / "oracle/labels.json").write_text(json.dumps(data))
    with pytest.raises(PackError) as exc:
        claims_corpus.load_labels(pack_copy)
    assert exc.value.context == {"pack": PACK_ID, "file": "oracle/labels.json",
                                 "field": "triage.triage_class"}


def test_bad_json_and_missing_file(pack_copy: Path) -> None:
    (pack_copy / "setup.json").write_text("{not json")
    with pytest.raises(PackError) as exc:
        claims_corpus.load_setup(pack_copy)
    assert exc.value.context["file"] == "setup.json"
    assert exc.value.context["field"] == "<json>"
    (pack_copy / "oracle/labels.json").unlink()
    with pytest.raises(PackError, match="missing"):
        claims_corpus.load_pack(pack_copy)


def test_corpus_identity_follows_manifest_hashes(corpus_copy: Path) -> None:
    version, first = claims_corpus.corpus_identity(corpus_copy)
    assert version == claims_corpus.load_manifest(corpus_copy).corpus_version and len(first) == 64
    assert claims_corpus.corpus_identity(corpus_copy) == (version, first)
    data = json.loads((corpus_copy / "manifest.json").read_text())
    data["packs"][PACK_ID]["hash"] = "0" * 64
    (corpus_copy / "manifest.json").write_text(json.dumps(data))
    assert claims_corpus.corpus_identity(corpus_copy)[1] != first


def test_committed_manifest_hash_matches_pack() -> None:
    manifest = claims_corpus.load_manifest(PACKS)
    files = claims_corpus.pack_file_hashes(PACKS / PACK_ID)
    assert manifest.packs[PACK_ID].hash == claims_corpus.pack_hash(files)
