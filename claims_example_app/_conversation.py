"""One customer conversation as stored in ``conversations``: answers, files, turns, offer."""

from __future__ import annotations

from typing import Any

from claims_reference_app import rules

from . import _schema as S
from ._store import Store, new_id, utc_now


def new_conversation() -> dict[str, Any]:
    now = utc_now()
    return {
        "_id": new_id() + new_id(),
        "startedAt": now,
        "updatedAt": now,
        "stage": "collecting",
        "line": None,
        "cover": None,
        "coverStatus": None,
        "lookups": 0,
        "answers": {},
        "open": {"kind": "story"},
        "retried": [],
        "evidence": {},
        "chased": [],
        "notes": [],
        "turns": [],
        "offer": {"quick": [], "actions": []},
        "caseId": None,
        "caseRef": None,
    }


class Conversation:
    """A conversation document with the operations the assistant needs."""

    def __init__(self, store: Store, doc: dict[str, Any]) -> None:
        self.store, self.doc = store, doc
        self.notice: str | None = None

    @property
    def id(self) -> str:
        return self.doc["_id"]

    @property
    def line(self) -> str | None:
        return self.doc["line"]

    @property
    def open(self) -> dict[str, Any]:
        return self.doc["open"]

    @open.setter
    def open(self, value: dict[str, Any]) -> None:
        self.doc["open"] = value

    @property
    def lodged(self) -> bool:
        return self.doc["stage"] == S.LODGED

    def save(self) -> None:
        self.doc["updatedAt"] = utc_now()
        self.store.db[S.CONVERSATIONS].replace_one({"_id": self.id}, self.doc, upsert=True)

    def event(self, what: str, **details: Any) -> None:
        self.store.event("agent", what, conversation=self.id, **details)

    # ------------------------------------------------------------------ answers
    def has(self, key: str) -> bool:
        return S.ANSWER_KEYS[key] in self.doc["answers"]

    def value(self, key: str) -> Any:
        a = self.doc["answers"].get(S.ANSWER_KEYS[key])
        return a["value"] if a and a["status"] != S.NOT_KNOWN else None

    def put(self, key: str, value: Any, via: str) -> None:
        """Record a detail as proposed (or as not known when ``value`` is None)."""
        status = S.NOT_KNOWN if value is None else S.PROPOSED
        self.doc["answers"][S.ANSWER_KEYS[key]] = {"value": value, "status": status, "via": via}
        self.event("note_answer", key=key, value=value, status=status)

    def drop(self, key: str) -> None:
        self.doc["answers"].pop(S.ANSWER_KEYS[key], None)

    def confirm_all(self) -> None:
        for a in self.doc["answers"].values():
            if a["status"] == S.PROPOSED:
                a["status"] = S.CONFIRMED
        self.event("confirm_answers", keys=sorted(self.doc["answers"]))

    def known(self) -> dict[str, Any]:
        """Canonical key -> value of every detail that is known."""
        return {S.CANONICAL_KEYS[k]: a["value"] for k, a in self.doc["answers"].items()
                if a["status"] != S.NOT_KNOWN}

    def needed(self) -> list[str]:
        return rules.needed_facts(self.line, self.value("incident_type"))

    def answered_keys(self) -> list[str]:
        """Canonical keys answered so far, in the order the rules ask them."""
        order = [*self.needed(), "police_reference"]
        keys = [k for k in dict.fromkeys(order) if self.has(k)]
        return keys + [S.CANONICAL_KEYS[k] for k in self.doc["answers"]
                       if S.CANONICAL_KEYS[k] not in keys]

    # ------------------------------------------------------------------ files
    def file_status(self, kind: str) -> str | None:
        entry = self.doc["evidence"].get(S.CATEGORIES[kind])
        return entry["status"] if entry else None

    def set_file(self, kind: str, status: str, upload_id: str | None = None) -> None:
        entry = self.doc["evidence"].setdefault(S.CATEGORIES[kind],
                                                {"status": status, "uploads": []})
        entry["status"] = status
        if upload_id:
            entry["uploads"].append(upload_id)
        self.event("file_" + status, kind=kind, upload=upload_id)

    # ------------------------------------------------------------------ turns
    def customer_turns(self) -> int:
        return sum(1 for t in self.doc["turns"] if t["who"] == "customer")

    def add_customer(self, text: str, file: str | None = None) -> None:
        self.doc["turns"].append({"n": len(self.doc["turns"]) + 1, "who": "customer",
                                  "text": text, "file": file, "at": utc_now()})
        self.doc["offer"] = {"quick": [], "actions": []}

    def say(self, *parts: str | None, quick: list[str] | None = None,
            actions: list[str] | None = None) -> None:
        """A reply in one or two parts (an acknowledgement, then the rest)."""
        kept = [p for p in parts if p]
        if self.notice:
            kept.insert(0 if len(kept) < 2 else 1, self.notice)
            self.notice = None
        if len(kept) > 2:
            kept = [" ".join(kept[:-1]), kept[-1]]
        self.doc["turns"].append({"n": len(self.doc["turns"]) + 1, "who": "bot",
                                  "text": " ".join(kept), "parts": kept, "at": utc_now()})
        self.doc["offer"] = {"quick": quick or [], "actions": actions or []}

    # ------------------------------------------------------------------ follow-ups
    def follow_up(self, text: str) -> None:
        self.store.db[S.FOLLOWUPS].insert_one({
            "_id": new_id(),
            "type": S.FOLLOWUP_TYPES["question"],
            "body": text,
            "conversationId": self.id,
            "caseRef": self.doc["caseRef"],
            "holderId": (self.doc["cover"] or {}).get("holderId"),
            "state": S.FOLLOWUP_OPEN,
            "raisedAt": utc_now(),
        })
        self.event("add_followup", text=text)
