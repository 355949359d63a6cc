"""Uploads kept as files in a folder: written and read back, the folder's guards, and a
MongoDB product's direct reset writing its uploads into one."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims_records import SeedError, StoreRefusal
from seed import PlannedObject
from seed.stores import FolderStore, MongoStore, NamePolicy, StoreSet


def replace(store: FolderStore, objects: list[PlannedObject]) -> None:
    """A reset of the folder alone: guard, plan, then empty and write."""
    store.guard()
    store.replace(store.plan({}, objects))

PHOTO = PlannedObject(key="claims/c-1/photo.jpg", data=b"\xff\xd8\xff" * 40,
                      content_type="image/jpeg")
QUOTE = PlannedObject(key="quote.pdf", data=b"%PDF-1.4 quote", content_type="application/pdf")


def test_objects_are_written_as_files_and_read_back(tmp_path: Path):
    folder = tmp_path / "uploads"
    folder.mkdir()
    (folder / "stale").mkdir()
    (folder / "stale" / "x.txt").write_text("old")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "keep.txt").write_text("not the product's")
    (folder / "link").symlink_to(outside, target_is_directory=True)
    store = FolderStore(folder)
    replace(store, [PHOTO, QUOTE])
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) \
        == ["claims/c-1/photo.jpg", "quote.pdf"]
    assert (outside / "keep.txt").read_text() == "not the product's"  # a link, never followed
    assert store.verify([PHOTO, QUOTE]) == []
    (folder / "quote.pdf").write_bytes(b"changed")
    (folder / "extra.png").write_bytes(b"product wrote this")
    assert store.verify([PHOTO, QUOTE]) == ["unexpected object extra.png",
                                              "object quote.pdf content differs"]
    assert store.dump()["claims/c-1/photo.jpg"].size == len(PHOTO.data)
    assert store.name == "uploads"


def test_a_lanes_bucket_is_a_sub_folder_made_when_missing(tmp_path: Path):
    store = FolderStore(tmp_path, "claims-test-lane1")
    replace(store, [QUOTE])
    assert (tmp_path / "claims-test-lane1" / "quote.pdf").is_file()
    assert store.name == "claims-test-lane1"
    with pytest.raises(SeedError, match="its parent do not exist"):
        FolderStore(tmp_path / "no" / "such" / "folder").guard()
    with pytest.raises(SeedError):
        FolderStore(tmp_path, "../escape")


@pytest.mark.parametrize("marker", ["production", "  LIVE\n", '{"kind": "Prod"}',
                                    '{"kind": ["staging", "production"]}'])
def test_a_folder_carrying_the_production_marker_is_refused(tmp_path: Path, marker: str):
    (tmp_path / "_environment").write_text(marker)
    (tmp_path / "kept.jpg").write_bytes(b"real upload")
    with pytest.raises(StoreRefusal, match="production marker"):
        replace(FolderStore(tmp_path), [QUOTE])
    assert (tmp_path / "kept.jpg").exists()


def test_a_marker_of_another_kind_stays_and_is_never_dumped(tmp_path: Path):
    (tmp_path / "_environment").write_text('{"kind": "test"}')
    store = FolderStore(tmp_path)
    replace(store, [QUOTE])
    assert (tmp_path / "_environment").exists() and list(store.dump()) == ["quote.pdf"]
    with pytest.raises(SeedError, match="outside the uploads folder or on its marker"):
        store.plan({}, [PlannedObject(key="_environment", data=b"production",
                                      content_type="text/plain")])
    assert list(store.dump()) == ["quote.pdf"]  # refused at plan time: nothing emptied


def test_roots_homes_and_the_working_folders_ancestors_are_refused(monkeypatch, tmp_path):
    for folder in (Path("/"), Path.home()):
        with pytest.raises(StoreRefusal, match="refusing to empty or read it"):
            FolderStore(folder).guard()
    work = tmp_path / "project" / "src"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    for folder in (work, tmp_path / "project"):
        with pytest.raises(StoreRefusal, match="refusing to empty or read it"):
            FolderStore(folder).guard()


def test_a_mongodb_products_uploads_go_to_the_folder(lane, tmp_path: Path):
    folder = tmp_path / "uploads"
    stores = StoreSet(MongoStore(lane.db, NamePolicy(".+"), ("claims",)), FolderStore(folder))
    docs = {"claims": [{"_id": "c-1", "status": "submitted"}]}
    stores.apply(stores.prepare(docs, [PHOTO]))
    assert (folder / "claims" / "c-1" / "photo.jpg").read_bytes() == PHOTO.data
    dump = stores.dump()
    assert list(dump.objects) == ["claims/c-1/photo.jpg"] and dump.bucket == "uploads"
    assert dump.collections == {"claims": {"c-1": {"_id": "c-1", "status": "submitted"}}}
