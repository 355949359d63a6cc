"""One customer's claim journey: session state and the product actions every runtime uses.

The actions (record a fact, request an upload, store an upload, create the claim, hand off
to a person) are the same for the scripted agent and the model's tools; each is audited.
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from typing import Any

from . import _faults, rules
from ._decisions import queue_of
from ._documents import DocumentReading
from ._settings import AppSettings
from ._store import Store, now_iso
from ._text import fact_label

IMAGE_TYPES = {"image/jpeg": ".jpg", "image/png": ".png"}
PDF_TYPE = "application/pdf"


def new_state() -> dict[str, Any]:
    return {
        "line": None,
        "policy": None,
        "policy_found": None,
        "policy_attempts": 0,
        "facts": {},
        "asked": {},
        "clarified": [],
        "repeated": [],
        "pending": None,
        "materials": {},
        "reasked": [],
        "signin_prompt": False,
        "confirm_ready": False,
        "first_message_seen": False,
    }


def reading_from_record(rec: dict[str, Any]) -> DocumentReading:
    keep = (
        "readable",
        "title",
        "kind",
        "date",
        "date_label",
        "pages_total",
        "pages_supplied",
        "total",
        "currency",
        "problem",
        "instructions",
    )
    fields: dict[str, Any] = {k: rec.get(k) for k in keep if k in rec}
    return DocumentReading(**fields)


class Journey:
    """The state of one customer session, loaded from and saved to ``sessions``."""

    def __init__(self, store: Store, settings: AppSettings, session: dict[str, Any]) -> None:
        self.store, self.settings, self.session = store, settings, session
        self.state: dict[str, Any] = session.setdefault("state", new_state())

    @property
    def db(self):
        return self.store.db

    @property
    def session_id(self) -> str:
        return self.session["_id"]

    def save(self) -> None:
        self.session["updated_at"] = now_iso()
        self.db.sessions.replace_one({"_id": self.session_id}, self.session, upsert=True)

    def audit(self, action: str, **args: Any) -> None:
        self.store.audit("agent", action, {"session": self.session_id, **args})

    def say(self, text: str, chips: list[str] | None = None, kind: str = "message") -> None:
        self.store.add_message(self.session_id, "agent", text, chips, kind)

    def repeat_last_reply(self) -> None:
        """Say the agent's latest message again, as if nothing had happened since."""
        last = next((m for m in reversed(self.store.messages(self.session_id))
                     if m["role"] == "agent"), None)
        if last is not None:
            self.say(last["text"], last.get("chips") or None, last.get("kind", "message"))

    # ------------------------------------------------------------------ facts
    @property
    def line(self) -> str | None:
        return self.state["line"]

    @property
    def facts(self) -> dict[str, dict[str, Any]]:
        return self.state["facts"]

    def value(self, key: str) -> Any:
        f = self.facts.get(key)
        return f["value"] if f and f["state"] != "unknown" else None

    def needed(self) -> list[str]:
        return rules.needed_facts(self.line, self.value("incident_type"))

    def record_fact(self, key: str, value: Any, source: str, state: str = "suggested") -> None:
        """Record a fact as suggested (or unknown when ``value`` is None), or with ``state``
        'unknown' / 'to_follow' (the customer will give it later)."""
        if value is None and state not in ("unknown", "to_follow"):
            state = "unknown"
        self.facts[key] = {"value": value, "state": state, "source": source}
        self.audit("record_fact", key=key, value=value, state=state)
        if key == "policy_number" and value is not None:
            self.lookup_policy(str(value))

    def lookup_policy(self, policy_number: str) -> dict[str, Any] | None:
        self.state["policy_attempts"] += 1
        policy = self.db.policies.find_one({"policy_number": policy_number.upper()})
        self.audit("lookup_policy", policy_number=policy_number, found=policy is not None)
        if policy is None:
            self.state["policy_found"] = False
            return None
        mine = self.session.get("customer_id")
        if mine and policy.get("customer_id") != mine:
            # someone else's policy: nothing of it is used or shown (docs/claim-rules.md)
            self.audit("policy_not_customers", policy_number=policy_number)
            self.state["policy_found"] = False
            self.state["policy_not_yours"] = True
            return None
        self.state["policy_found"] = True
        self.state["policy"] = {
            "_id": policy["_id"],
            "customer_id": policy.get("customer_id"),
            "start_date": str(policy.get("start_date") or "")[:10] or None,
            "line": policy.get("line"),
        }
        if policy.get("line") in rules.LINES:
            self.state["line"] = policy["line"]
        return policy

    def all_needed_filled(self) -> bool:
        return all(k in self.facts for k in self.needed())

    def confirm_facts(self) -> None:
        for f in self.facts.values():
            if f["state"] == "suggested":
                f["state"] = "confirmed"
        self.audit("confirm_facts", keys=sorted(self.facts))

    # ------------------------------------------------------------------ sign-in
    def signed_in(self) -> bool:
        return bool(self.session.get("account_id"))

    def needs_sign_in(self) -> bool:
        """Anonymous session whose policy's customer has an online account."""
        policy = self.state.get("policy")
        if self.signed_in() or not policy or not policy.get("customer_id"):
            return False
        return self.db.accounts.find_one({"customer_id": policy["customer_id"]}) is not None

    # ------------------------------------------------------------------ materials
    def materials(self) -> dict[str, dict[str, Any]]:
        return self.state["materials"]

    def material_status(self, kind: str) -> str | None:
        m = self.materials().get(kind)
        return m["status"] if m else None

    def set_material(self, kind: str, status: str) -> None:
        entry = self.materials().setdefault(kind, {"status": status, "evidence": []})
        entry["status"] = status
        self.audit("request_upload" if status == "requested" else "material_" + status, kind=kind)

    def store_upload(
        self, file_name: str, content_type: str, data: bytes, expected_kind: str | None = None
    ) -> dict[str, Any]:
        """Store a validated upload in S3, read it if it is a PDF, and record the evidence."""
        evidence_id = secrets.token_hex(12)
        ext = IMAGE_TYPES.get(content_type, ".pdf")
        key = f"uploads/{self.session_id}/{evidence_id}{ext}"
        reading: DocumentReading | None = None
        if content_type == PDF_TYPE:
            reading = rules.read_document(data)
            kind = reading.kind or (
                expected_kind
                if expected_kind in ("repair_quote", "purchase_receipt")
                else "other_document"
            )
            reading.kind = kind
        else:
            kind = "damage_photo"
        self.store.put_object(key, data, content_type)
        doc = {
            "_id": evidence_id,
            "session_id": self.session_id,
            "claim_number": None,
            "file_name": file_name,
            "content_type": content_type,
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "object_key": key,
            "kind": kind,
            "reading": reading.as_record() if reading else None,
            "uploaded_at": now_iso(),
        }
        self.db.evidence.insert_one(doc)
        entry = self.materials().setdefault(kind, {"status": "uploaded", "evidence": []})
        entry["status"] = "uploaded"
        entry["evidence"].append(evidence_id)
        self.audit("store_upload", evidence=evidence_id, kind=kind, sha256=doc["sha256"])
        if reading is not None:
            self.audit("read_document", evidence=evidence_id, reading=reading.as_record())
            if reading.instructions:
                self.note("document_instructions_ignored", file=file_name,
                          text=" ".join(reading.instructions))
        return doc

    def evidence(self) -> list[dict[str, Any]]:
        return list(self.db.evidence.find({"session_id": self.session_id}).sort("uploaded_at", 1))

    def document_checks(self) -> list[rules.CheckResult]:
        """The receipt and quote checks on the documents and incident date given so far."""
        return _document_checks(_documents(self.evidence()), self.value("incident_date"))

    def record_explanation(self, check_id: str, text: str) -> None:
        """The customer's own account of a document a check hits on: it goes to staff with
        the check and never changes its outcome."""
        self.state.setdefault("explanations", {})[check_id] = text
        self.audit("customer_explanation", check=check_id, text=text)

    # ------------------------------------------------------------------ notes for staff
    def note(self, kind: str, **details: Any) -> None:
        """Something staff should know about the journey (instructions found in a document,
        authority claimed by the customer), kept with the claim; never acted on."""
        self.state.setdefault("staff_notes", []).append({"kind": kind, **details})
        self.audit("staff_note", kind=kind, **details)

    # ------------------------------------------------------------------ waiting list
    def hand_off(self, kind: str, text: str) -> dict[str, Any]:
        """Put a customer question or contact request on the staff waiting list."""
        doc = {
            "_id": secrets.token_hex(12),
            "kind": kind,
            "text": text,
            "session_id": self.session_id,
            "claim_number": self.session.get("claim_number"),
            "customer_id": (self.state.get("policy") or {}).get("customer_id")
            or self.session.get("customer_id"),
            "status": "waiting",
            "created_at": now_iso(),
        }
        self.db.waiting_list.insert_one(doc)
        self.audit("hand_off", kind=kind, text=text)
        return doc

    # ------------------------------------------------------------------ claim
    def create_claim(self) -> str:
        """Create the claim: confirm facts, compute review checks and triage, number it."""
        if self.session.get("claim_number"):
            return self.session["claim_number"]
        self.confirm_facts()
        order = [*self.needed(), "police_reference"]
        faults = self.settings.faults
        facts = _faults.facts_before_rules(
            faults, {k: dict(self.facts[k]) for k in dict.fromkeys(order) if k in self.facts})
        plain = {k: v["value"] for k, v in facts.items() if v["state"] != "unknown"}
        evidence = self.evidence()
        docs = _documents(evidence)
        policy = self.state.get("policy") or {}
        prior = []
        if policy.get("customer_id"):
            prior = [
                str(p.get("claim_date"))[:10]
                for p in self.db.prior_claims.find({"customer_id": policy["customer_id"]})
                if p.get("claim_date")
            ]
        incident_date = plain.get("incident_date")
        results = _faults.checks(faults, [
            *_document_checks(docs, incident_date),
            rules.check_prior_claims_12m(bool(policy), prior, incident_date),
            rules.check_policy_start_30d(
                policy.get("start_date") if policy else None, incident_date, bool(policy)
            ),
        ])
        results = _with_explanations(
            results, _faults.explanations(faults, self.state.get("explanations") or {}))
        outcomes = {r.check_id: r.outcome for r in results}
        review = _faults.review(faults, rules.review_required(outcomes))
        tri = _faults.triage(faults, rules.triage(self.line, plain, docs, review))
        facts = _faults.facts_stored(faults, facts)
        number = self.store.next_claim_number()
        claim = {
            "_id": number,
            "claim_number": number,
            "status": "submitted",
            "session_id": self.session_id,
            "line": self.line,
            "policy_number": plain.get("policy_number"),
            "policy_id": policy.get("_id"),
            "customer_id": policy.get("customer_id") or self.session.get("customer_id"),
            "facts": {k: {"value": v["value"], "state": v["state"]} for k, v in facts.items()},
            "materials": [
                {"kind": k, "status": m["status"], "evidence": m["evidence"]}
                for k, m in self.materials().items()
            ],
            "triage": {"class": tri.triage_class, "reasons": tri.reasons, "urgency": tri.urgency},
            "queue": queue_of(review, tri.triage_class),
            "review": {
                "review_required": review,
                "checks": {
                    r.check_id: {"outcome": r.outcome, "rests_on": r.rests_on} for r in results
                },
            },
            "runtime": self.settings.runtime,
            "staff_notes": list(self.state.get("staff_notes") or []),
            "created_at": now_iso(),
        }
        self.db.claims.insert_one(claim)
        attached = self.db.evidence.update_many(
            {"session_id": self.session_id}, {"$set": {"claim_number": number}}
        )
        self.db.waiting_list.update_many(
            {"session_id": self.session_id, "claim_number": None},
            {"$set": {"claim_number": number}},
        )
        self.session["claim_number"] = number
        self.state["pending"] = {"kind": "done"}
        self.state["confirm_ready"] = False
        self.audit(
            "create_claim", claim_number=number, triage=claim["triage"], review_required=review
        )
        if attached.modified_count:
            self.audit("attach_documents", claim_number=number,
                       evidence=[e["_id"] for e in evidence])
        return number

    # ------------------------------------------------------------------ screen
    def todo(self) -> list[str]:
        from ._text import material, wording

        if self.session.get("claim_number"):
            return []
        if self.state.get("signin_prompt") and not self.signed_in():
            return ["Sign in to your account to continue"]
        items = [
            material(k, "todo")
            for k, m in self.materials().items()
            if m["status"] in ("requested", "later") and k in wording()["materials"]
        ]
        if self.state.get("confirm_ready"):
            items.append("Check the details and confirm them")
        pending = self.state.get("pending") or {}
        if not items and pending.get("kind") == "fact":
            items.append(f"Answer the question about: {fact_label(pending['key']).lower()}")
        return items


def _documents(evidence: list[dict[str, Any]]) -> list[rules.SuppliedDocument]:
    return [rules.SuppliedDocument(e["file_name"], reading_from_record(e["reading"]))
            for e in evidence if e.get("reading")]


def _document_checks(docs: list[rules.SuppliedDocument], incident_date: str | None
                     ) -> list[rules.CheckResult]:
    return [rules.check_receipt_after_incident(docs, incident_date),
            rules.check_quote_before_incident(docs, incident_date)]


def _with_explanations(results: list[rules.CheckResult], explanations: dict[str, str]
                       ) -> list[rules.CheckResult]:
    """A check that hits, with the customer's explanation of it after what it rests on."""
    return [dataclasses.replace(r, rests_on=f'{r.rests_on}. The customer explains: '
                                f'"{explanations[r.check_id]}"')
            if r.outcome == "hit" and explanations.get(r.check_id) else r for r in results]
