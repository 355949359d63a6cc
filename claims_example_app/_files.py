"""Customers' files: checked by declared type and first bytes, stored in the bucket, read
when they are PDFs, recorded in ``uploads``."""

from __future__ import annotations

import hashlib
from typing import Any

from claims_reference_app import rules

from . import _schema as S
from ._conversation import Conversation
from ._lodge import record_of
from ._store import Store, new_id, utc_now

ACCEPTED = {
    "image/jpeg": (b"\xff\xd8\xff", ".jpg"),
    "image/png": (b"\x89PNG\r\n\x1a\n", ".png"),
    "application/pdf": (b"%PDF-", ".pdf"),
}


class FileRefused(ValueError):
    """A file the product will not take; ``status`` is the HTTP status to answer."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def check_file(name: str, mime: str, data: bytes, limit: int) -> None:
    """Raise FileRefused for a wrong type or a file over ``limit`` bytes."""
    accepted = ACCEPTED.get(mime)
    if accepted is None or not data.startswith(accepted[0]):
        raise FileRefused(f"{name} can't be added: please send a JPEG or PNG photo, or a PDF.",
                          415)
    if len(data) > limit:
        raise FileRefused(f"{name} is too big: files can be up to "
                          f"{limit / (1024 * 1024):.0f} MB.", 413)


def store_file(store: Store, c: Conversation, name: str, mime: str,
               data: bytes) -> tuple[dict[str, Any], str]:
    """Store and read one checked file; the upload record and its evidence kind."""
    upload_id = new_id()
    key = f"conversations/{c.id}/{upload_id}{ACCEPTED[mime][1]}"
    reading = None
    if mime == "application/pdf":
        reading = rules.read_document(data)
        expected = c.open.get("key") if c.open.get("kind") == "file" else None
        if reading.kind is None:
            reading.kind = expected if expected in ("repair_quote", "purchase_receipt") else (
                "other_document")
        kind = reading.kind
    else:
        kind = "damage_photo"
    store.put_file(key, data, mime)
    upload = {
        "_id": upload_id,
        "conversationId": c.id,
        "caseId": c.doc["caseId"],
        "caseRef": c.doc["caseRef"],
        "fileName": name,
        "mime": mime,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "objectKey": key,
        "category": S.CATEGORIES.get(kind, "other"),
        "reading": record_of(reading) if reading else None,
        "receivedAt": utc_now(),
    }
    store.db[S.UPLOADS].insert_one(upload)
    c.event("store_file", upload=upload_id, kind=kind, sha256=upload["sha256"])
    if c.lodged:
        store.db[S.CASES].update_one({"_id": c.doc["caseId"]},
                                     {"$push": {f"evidence.{upload['category']}.uploads":
                                                upload_id}})
    else:
        c.set_file(kind, "received", upload_id)
    return upload, kind
