"""Lodging a claim: confirm the answers, run the four review checks and triage, store the
case in ``fnol_cases`` under a new claim reference."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from claims_reference_app import rules

from . import _schema as S
from ._store import Store, new_id, utc_now

if TYPE_CHECKING:
    from ._conversation import Conversation


def reading_of(record: dict[str, Any]) -> rules.DocumentReading:
    """A stored upload reading back as the rules' DocumentReading."""
    return rules.DocumentReading(
        readable=bool(record.get("readable")),
        title=record.get("title"),
        kind=S.KINDS_BY_CATEGORY.get(record.get("docType") or "", record.get("docType")),
        date=record.get("printedDate"),
        date_label=record.get("dateLabel"),
        pages_total=record.get("pagesTotal"),
        pages_supplied=list(record.get("pagesPresent") or []),
        total=record.get("amount"),
        problem=record.get("problem"),
    )


def record_of(reading: rules.DocumentReading) -> dict[str, Any]:
    """A rules DocumentReading as Kestrel stores it on an upload."""
    return {
        "readable": reading.readable,
        "title": reading.title,
        "docType": S.CATEGORIES.get(reading.kind or "", reading.kind),
        "printedDate": reading.date,
        "dateLabel": reading.date_label,
        "dateStatus": reading.date_status,
        "pagesTotal": reading.pages_total,
        "pagesPresent": reading.pages_supplied,
        "pagesMissing": reading.missing_pages,
        "amount": reading.total,
        "problem": reading.problem,
    }


def lodge(store: Store, c: Conversation) -> str:
    """Create the case for conversation ``c``; its claim reference."""
    c.confirm_all()
    known = c.known()
    uploads = list(store.db[S.UPLOADS].find({"conversationId": c.id}).sort("receivedAt", 1))
    docs = [rules.SuppliedDocument(u["fileName"], reading_of(u["reading"]))
            for u in uploads if u.get("reading")]
    cover = c.doc["cover"] or {}
    prior = store.loss_dates(cover["holderId"]) if cover.get("holderId") else []
    loss_date = known.get("incident_date")
    results = [
        rules.check_receipt_after_incident(docs, loss_date),
        rules.check_quote_before_incident(docs, loss_date),
        rules.check_prior_claims_12m(bool(cover), prior, loss_date),
        rules.check_policy_start_30d(cover.get("inception") if cover else None, loss_date),
    ]
    refer = rules.review_required({r.check_id: r.outcome for r in results})
    tri = rules.triage(c.line, known, docs, refer)
    ref = store.new_claim_ref()
    case_id = new_id()
    store.db[S.CASES].insert_one({
        "_id": case_id,
        "ref": ref,
        "policyRef": known.get("policy_number"),
        "stage": S.LODGED,
        "conversationId": c.id,
        "product": S.PRODUCT_CODES.get(c.line or ""),
        "coverId": cover.get("id"),
        "holderId": cover.get("holderId"),
        "answers": {k: {"value": a["value"], "status": a["status"]}
                    for k, a in c.doc["answers"].items()},
        "evidence": {cat: {"status": e["status"], "uploads": list(e["uploads"])}
                     for cat, e in c.doc["evidence"].items()},
        "triage": {
            "band": S.BANDS[tri.triage_class],
            "reasons": [S.REASONS[r] for r in tri.reasons],
            "callback": S.CALLBACK[tri.urgency],
        },
        "referral": {
            "refer": refer,
            "checks": {S.CHECK_KEYS[r.check_id]: {"result": S.CHECK_RESULTS[r.outcome],
                                                  "basis": r.rests_on} for r in results},
        },
        "notes": [n["text"] for n in c.doc["notes"]],
        "agentMode": "rules",
        "lodgedAt": utc_now(),
    })
    store.db[S.UPLOADS].update_many({"conversationId": c.id},
                                    {"$set": {"caseId": case_id, "caseRef": ref}})
    store.db[S.FOLLOWUPS].update_many({"conversationId": c.id, "caseRef": None},
                                      {"$set": {"caseRef": ref}})
    c.doc.update(stage=S.LODGED, caseId=case_id, caseRef=ref, open={"kind": "done"})
    c.event("lodge_case", ref=ref, band=S.BANDS[tri.triage_class], refer=refer)
    return ref
