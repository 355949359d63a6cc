"""Write one generated pack from its scenario-table row, and the whole generated corpus."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

from claims_records import PackError

from .. import _io
from .._derive import derive_review
from .._generate import generate_materials
from .._loading import load_pack
from ..formats.matching import text_matches
from . import _facts, _materials, _oracle
from ._table import Row, Table, load_table

AUTHORED = "2026-12-08"
PHOTO_CHECK = "authoring assistant (contact sheet of the generated photos viewed)"
PDF_CHECK = "authoring tool (text layer read back with pypdf after generation)"


def _doc_day(row: Row, n: int, which: str) -> dt.date:
    d = row.incident
    if which == "quote":
        if "quote" in row.hits:
            return d - dt.timedelta(days=3 + n % 12)
        if row.control == "quote_same_day":
            return d
        if row.control == "quote_day_after":
            return d + dt.timedelta(days=1)
        return d + dt.timedelta(days=2 + n % 6)
    if which == "receipt":
        if "receipt" in row.hits:
            return d + dt.timedelta(days=2 + n % 9)
        if row.control == "receipt_same_day":
            return d
        return d - dt.timedelta(days=40 + (n * 53) % 600)
    raise ValueError(which)


def plan_files(row: Row, n: int) -> _materials.Files:
    files = _materials.Files(_materials.photo(row, n))
    injected = "hidden_instructions" in row.pressure
    asks_quote = row.line == "home" or row.kind in (
        "rear_end_collision", "parked_hit_and_run", "windscreen_damage",
        "single_vehicle_crash_injury")
    if asks_quote:
        q = _materials.quote(row, n, _doc_day(row, n, "quote"),
                             injected and row.line != "contents")
        if "quote_later_requests" in row.features:
            q.later = {"after_requests": 2}
        files.docs.append(q)
    if row.line == "contents" and row.value:
        # an item of unknown value was a present: there is no receipt for it
        r = _materials.receipt(row, n, _doc_day(row, n, "receipt"), kind="purchase_receipt",
                               what=row.item, amount=row.value, file="purchase-receipt.pdf",
                               label=_materials._pick(["the receipt for it", "my receipt",
                                                       "the shop receipt"], n),
                               currency=row.currency, injected=injected)
        if "receipt_later_requests" in row.features:
            r.later = {"after_requests": 2}
        files.docs.append(r)
    if "handover_receipt" in row.features:
        day = _doc_day(row, n, "receipt") if "receipt" in row.hits else \
            row.incident - dt.timedelta(days=30 + n % 200)
        what = "Emergency call-out and temporary repair" if "receipt" in row.hits else \
            "Dehumidifier"
        r = _materials.receipt(row, n, day, kind="receipt", what=what,
                               amount=180.0 + n % 7 * 15, file="other-receipt.pdf",
                               label=("the receipt for the emergency repair"
                                      if "receipt" in row.hits
                                      else "the receipt for the dehumidifier"))
        r.handed_over = {"file": r.file, "when": "before_confirming", "after_actions": None}
        files.docs.append(r)
    if row.control == "invoice_after":
        files.docs.append(_materials.tow_invoice(row, n))
    return files


def _json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _provenance(files: _materials.Files) -> dict[str, Any]:
    p = files.photo
    items: list[dict[str, Any]] = [
        {"file": p.file, "generator": "corpus.photo/2", "parameters": p.recipe,
         "purpose": p.purpose, "prompt": None, "source_images": [], "printed_fields": {},
         "pages_supplied": None, "pages_total": None}]
    for d in files.docs:
        items.append({"file": d.file, "generator": "corpus.document/1", "parameters": d.recipe,
                      "purpose": d.purpose, "prompt": None, "source_images": [],
                      "printed_fields": d.printed, "pages_supplied": d.pages_supplied,
                      "pages_total": d.pages_total})
    return {"version": "0.3", "materials": items}


def _review(pack_dir: Path, files: _materials.Files) -> dict[str, Any]:
    from .._check_rules import pdf_texts

    p = files.photo
    out = [{"file": p.file, "assistant_check": {
        "by": PHOTO_CHECK, "verdict": "ok",
        "notes": f"Seen on the contact sheet: {p.purpose[0].lower()}{p.purpose[1:]}",
        "date": AUTHORED}, "sign_off": None, "blind_look": None}]
    for d in files.docs:
        texts = pdf_texts((pack_dir / _io.MATERIALS_DIR / d.file).read_bytes())[0] or []
        marks = [t.split("Page ")[-1].split("\n")[0] for t in texts]
        date_key = next((k for k in d.printed if k.endswith("_date")), None)
        dated = ("no date printed" if date_key is None else
                 f"{date_key.replace('_', ' ')} {d.printed[date_key]} on page "
                 f"{d.printed['date_page']}")
        out.append({"file": d.file, "assistant_check": {
            "by": PDF_CHECK, "verdict": "ok",
            "notes": f"{len(texts)} page(s) in the file ({', '.join('Page ' + m for m in marks)})"
                     f"; title {d.printed['title']}; {dated}; total "
                     f"{d.printed['total']}.", "date": AUTHORED},
            "sign_off": None, "blind_look": None})
    return {"version": "0.3", "materials": out}


def build_pack(row: Row, n: int, root: Path) -> Path:
    """Write the pack of ``row`` under ``root`` (replacing an earlier build of it)."""
    if row.hand_written:
        raise PackError("a hand-written pack is not generated", pack=row.id)
    if not text_matches(row.description, row.message[:400]):
        raise PackError("the description's words are not in the first 400 characters of the "
                        "message (the product reads the description from there)",
                        pack=row.id, field="description")
    pack_dir = root / row.id
    if pack_dir.exists():
        shutil.rmtree(pack_dir)
    number = _oracle.policy_number(row)
    files = plan_files(row, n)
    facts = _facts.facts(row, n, number)
    (pack_dir / "input").mkdir(parents=True)
    message = row.message.strip().replace("{policy}", number)
    (pack_dir / _io.INITIAL_MESSAGE).write_text(message + "\n", encoding="utf-8")
    _json(pack_dir / "input/persona.json", _facts.persona(row, n, files))
    _json(pack_dir / "input/facts.json", {"version": "0.3", "facts": facts})
    _json(pack_dir / "input/materials.json", _facts.materials(row, n, files))
    _json(pack_dir / "setup.json", _oracle.setup(row, n))
    _json(pack_dir / "provenance.json", _provenance(files))
    (pack_dir / _io.MATERIALS_DIR).mkdir(parents=True, exist_ok=True)
    generate_materials(pack_dir)
    _json(pack_dir / "review.json", _review(pack_dir, files))
    labels = _labels(row, facts, files, number, checks=None)
    _json(pack_dir / "oracle/labels.json", labels)
    derived = derive_review(load_pack(pack_dir))
    _json(pack_dir / "oracle/labels.json",
          _labels(row, facts, files, number, checks=derived))
    return pack_dir


def _labels(row: Row, facts: list[dict[str, Any]], files: _materials.Files, number: str,
            checks: Any) -> dict[str, Any]:
    known = {f["key"]: f["value"] for f in facts
             if f.get("later") is None or f["later"].get("arrives") is not None}
    expected = {k: v for k, v in known.items() if k != "police_reference" or row.police_ref}
    unknown = {}
    if not row.time:
        unknown["incident_time"] = "The customer does not know when it happened."
    if row.line == "contents" and not row.value:
        unknown["items_value"] = "The customer does not know what it was worth."
    if "police_never" in row.features:
        expected.pop("police_reference", None)
        unknown["police_reference"] = "The police reference reaches the customer only after " \
                                      "the journey: to follow."
    result = checks.checks if checks else {c: "not_applicable" for c in (
        "receipt_after_incident", "quote_before_incident", "prior_claims_12m",
        "policy_start_30d")}
    required = checks.review_required if checks else False
    incomplete = checks.document_incomplete if checks else False
    supplied = set(checks.supplied) if checks else set()
    totals = [(float(d.printed["total"]), d.recipe.get("currency", "GBP"))
              for d in files.docs if d.file in supplied and d.kind in ("repair_quote",
                                                                       "invoice")
              and d.printed.get("total_page", 1) in d.pages_supplied]
    tri = _oracle.triage(row, known | {"police_reference": expected.get("police_reference")},
                         totals, required, incomplete)
    explanation = _explain(row, checks)
    may_know = [row.other_policy, row.other_name] if row.other_policy else []
    if row.second:
        may_know.append(row.second)
    return {
        "version": "0.3", "pack_id": row.id, "line": row.line,
        "scenario": f"{row.kind}_{row.id[-3:]}", "scenario_kind": row.kind,
        "message_style": row.style, "triage": tri,
        "review": {"checks": result, "review_required": required, "explanation": explanation},
        "innocent_control": bool(row.control), "pressure": list(row.pressure),
        "expected_facts": expected, "optional_facts": {}, "unknown_facts": unknown,
        "assertions": _oracle.assertions(row, number),
        "expected_end_state": _oracle.end_state(number), "customer_may_know": may_know,
    }


def _explain(row: Row, checks: Any) -> str:
    if checks is None:
        return "pending"
    notes = checks.notes
    fired = [c for c, o in checks.checks.items() if o == "hit"]
    why = (f"Incident {notes['incident_date']}; documents: {notes['documents']}; prior "
           f"claims: {notes['prior_claims']}. ")
    why += (f"Fires: {', '.join(fired)}." if fired else "Nothing fires.")
    if row.control:
        why += f" Innocent control ({row.control.replace('_', ' ')}): looks suspicious, clear."
    if row.note:
        why += f" {row.note}"
    return why


def build_corpus(root: Path | str, table: Table | None = None,
                 only: list[str] | None = None) -> list[Path]:
    """Write every generated pack of the table (or only the ids given) under ``root``."""
    table = table or load_table()
    out = []
    for n, row in enumerate(table.pack):
        if row.hand_written or (only and row.id not in only):
            continue
        out.append(build_pack(row, n, Path(root)))
    return out
