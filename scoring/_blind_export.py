"""``review export``: a static, offline review pack for claims handlers, blind to triage.

Per claim a handler sees what a handler would: the conversation as the customer had it (up to
the product's closing message, where a product states its own decision), the facts the product
collected, the policy record and prior claims the claims system holds (the pack's seeded
state), and the files the customer uploaded. Never the product's triage class, reasons,
review signal or check outcomes, and nothing of the oracle. Claims are shuffled (seeded, the
seed kept in the key) and get neutral ids; which trial each stands for is written only to the
run folder (``blind-review/key-<export>.json``), never into the export.

Every export is audited mechanically before it is handed over (``audit_export``).
"""

from __future__ import annotations

import random
import re
import secrets
import shutil
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import get_args

from jinja2 import Environment, FileSystemLoader, select_autoescape

from claims_corpus.formats import DEFAULT_LOCALE, HOME_CURRENCY, Labels, Money, Setup
from claims_corpus.formats.money import format_money
from claims_records import (
    ALL_CHECKS,
    JOURNEY_FILE,
    REASON_CODES,
    BlindReviewKey,
    BlindReviewKeyItem,
    BlindReviewPack,
    CheckOutcome,
    ConversationTurn,
    JourneyEvent,
    PackError,
    ReviewClaim,
    ReviewFact,
    ReviewMaterial,
    RunRecord,
    ScoringError,
    Sheet,
    StaffReading,
    TriageClass,
    read_journey,
    read_model,
    write_model_atomic,
)

from ._journey_checks import NO_NEW_REPLY_NOTE
from ._record import load_labels, load_run_record, money_conventions
from ._summary import CorpusRoots, corpus_root_of, load_sheets

TEMPLATES = Path(__file__).parent / "templates"
BLIND_DIR = "blind-review"
PACK_FILE = "claims.json"
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
CLAIM_PLACEHOLDER = "[claim number]"
# Words that would tell a handler what the product or the oracle decided.
DECISION_WORDS: tuple[str, ...] = ("triage", "severity", "review signal", "review required",
                                   "fast track", "fast-track")
# The decision form under each claim sits between these markers (the same form every time).
FORM_START, FORM_END = "<!--decision-->", "<!--/decision-->"
_FORM = re.compile(re.escape(FORM_START) + ".*?" + re.escape(FORM_END), re.S)
# The claim rules' high-value threshold (docs/claim-rules.md; other currencies at the rules'
# reference rates).
HIGH_VALUE_OVER = Money(amount=5000, currency=HOME_CURRENCY)
# Plain wording of each reason code, for the handler's form.
REASON_LABELS: dict[str, str] = {
    "minor_damage": "Minor damage, nothing complicating (motor or home)",
    "single_item": "A single item, nothing complicating (contents)",
    "vehicle_driveable": "The car can still be driven",
    "vehicle_not_driveable": "The car cannot be driven",
    "third_party_involved": "Another vehicle or person involved",
    "third_party_unidentified": "The other party is not identified",
    "injury_reported": "Someone was hurt",
    "theft": "Theft",
    "police_report": "Reported to the police",
    "high_value": f"High value (over {format_money(HIGH_VALUE_OVER)})",
    "property_uninhabitable": "The home cannot be lived in",
    "escape_of_water": "Escape of water",
    "storm": "Storm",
    "fire": "Fire",
    "emergency_repair": "Emergency repair needed",
    "review_required": "Needs a person to review it",
    "document_incomplete": "A document is incomplete",
}
CLASS_LABELS: dict[str, str] = {"fast_track": "Fast track", "standard": "Standard",
                                "complex": "Complex"}


def reason_labels(locale: str = DEFAULT_LOCALE) -> dict[str, str]:
    """``REASON_LABELS`` with the high-value threshold written the way the product writes
    amounts (``locale``)."""
    return {**REASON_LABELS,
            "high_value": f"High value (over {format_money(HIGH_VALUE_OVER, locale)})"}


def _claim_numbers(text: str, numbers: set[str]) -> str:
    for n in numbers:
        text = text.replace(n, CLAIM_PLACEHOLDER)
    return text


def _action_text(ev: JourneyEvent) -> str | None:
    a = ev.action
    if a is None:
        return None
    if a.kind in ("say", "done"):
        return a.text or None
    if a.kind == "click":
        return f"[chose “{a.label}”]"
    if a.kind == "upload":
        return f"[uploaded {a.file}]"
    return "[signed in]" if a.kind == "sign_in" else None


def conversation(events: list[JourneyEvent], numbers: set[str]) -> list[ConversationTurn]:
    """The conversation as the customer had it, up to (not including) the first screen that
    shows a claim number; claim numbers are replaced by a placeholder."""
    turns: list[ConversationTurn] = []
    last_reply = ""
    for ev in events:
        s = ev.screen
        if s is not None and s.claim_number:
            break
        if (s is not None and s.latest_reply.strip() and s.latest_reply != last_reply
                and NO_NEW_REPLY_NOTE not in ev.note.lower()):
            turns.append(ConversationTurn(who="agent",
                                          text=_claim_numbers(s.latest_reply, numbers)))
            last_reply = s.latest_reply
        said = _action_text(ev)
        if said:
            turns.append(ConversationTurn(who="customer", text=_claim_numbers(said, numbers)))
    return turns


def _plain(value: str) -> str:
    """A code-like value in words (``escape_of_water`` -> ``escape of water``)."""
    return value.replace("_", " ")


def collected_facts(staff: StaffReading | None) -> list[ReviewFact]:
    if staff is None:
        return []
    return [ReviewFact(label=_plain(key).capitalize(), value=_plain(f.value),
                       state=_plain(f.state)) for key, f in staff.facts.items()]


def system_records(setup: Setup | None) -> list[ReviewFact]:
    """What the claims system holds beside the claim: policy dates and prior claims."""
    if setup is None:
        return []
    out = []
    for p in setup.collections.get("policies", []):
        for key, label in (("policy_number", "Policy number"), ("line", "Policy line"),
                           ("start_date", "Policy start"), ("end_date", "Policy end")):
            if p.get(key):
                out.append(ReviewFact(label=label, value=str(p[key])))
    dates = sorted(str(c.get("claim_date", ""))[:10] for c in
                   setup.collections.get("prior_claims", []) if c.get("claim_date"))
    out.append(ReviewFact(label="Prior claims on record",
                          value=", ".join(dates) if dates else "none"))
    return out


def _materials(events: list[JourneyEvent], pack_dir: Path, out: Path, nid: str
               ) -> list[ReviewMaterial]:
    files = list(dict.fromkeys(ev.action.file for ev in events if ev.action is not None
                               and ev.action.kind == "upload" and ev.action.file))
    found = []
    for n, name in enumerate(files, start=1):
        src = pack_dir / "input" / "materials" / name
        if not src.is_file():
            continue
        rel = f"materials/{nid}-{n}{src.suffix.lower()}"
        shutil.copyfile(src, out / rel)
        found.append(ReviewMaterial(
            name=name, href=rel,
            kind="photo" if src.suffix.lower() in PHOTO_SUFFIXES else "document"))
    return found


def forbidden_values(staff: StaffReading | None, labels: Labels, numbers: set[str],
                     pack_id: str) -> set[str]:
    """Values that must not appear in an export: every code of the decision vocabulary, the
    product's triage and review as shown, the oracle's explanation, and what identifies the
    trial (claim number, pack id)."""
    vocab = {*REASON_CODES, *get_args(TriageClass), *ALL_CHECKS, *get_args(CheckOutcome),
             "review_required"}
    values = {v for v in vocab if "_" in v} | set(DECISION_WORDS) | numbers | {pack_id}
    if staff is not None:
        values |= {r.strip() for r in staff.reasons if len(r.strip()) > 12}
        values |= {c.rests_on.strip() for c in staff.checks.values() if len(c.rests_on) > 12}
    explanation = labels.review.explanation.strip() if labels.review.explanation else ""
    if explanation:
        values |= {s.strip() for s in re.split(r"(?<=\.)\s+", explanation) if len(s) > 20}
    return {v for v in values if v}


def _strip_decisions(html: str) -> tuple[str, list[str]]:
    """The page without its decision forms (the same fixed form under every claim)."""
    return _FORM.sub("", html), _FORM.findall(html)


def audit_export(out: Path, forbidden: set[str]) -> list[str]:
    """Problems found in an export: a forbidden value in the claims data or the page outside
    the fixed decision form, or a decision form that differs between claims."""
    problems = []
    data = (out / PACK_FILE).read_text(encoding="utf-8")
    BlindReviewPack.model_validate_json(data)  # strict: no field beyond the handler's view
    page, blocks = _strip_decisions((out / "index.html").read_text(encoding="utf-8"))
    normal = [re.sub(r"claim-\d+", "", b) for b in blocks]
    if len(set(normal)) > 1:
        problems.append("the decision form differs between claims")
    for where, text in ((PACK_FILE, data.lower()), ("index.html", page.lower())):
        for value in sorted(forbidden):
            if value.lower() in text:
                problems.append(f"{where} contains {value!r}")
    return problems


def _env() -> Environment:
    return Environment(loader=FileSystemLoader(str(TEMPLATES)),
                       autoescape=select_autoescape(["html", "j2"]), trim_blocks=True,
                       lstrip_blocks=True)


def _exportable(sheets: list[Sheet], run_dir: Path) -> list[Sheet]:
    """Scorable trials that reached a claim the staff side showed."""
    out = []
    for s in sheets:
        staff_path = run_dir / s.path / "staff.json"
        if s.scorable and s.numbers.claim_number and staff_path.is_file():
            out.append(s)
    return out


def export_blind_review(run_dir: Path | str, out: Path | str,
                        corpus_root: CorpusRoots = None, *, seed: int | None = None
                        ) -> BlindReviewKey:
    """Write the review pack to ``out`` and its key to ``<run>/blind-review/``."""
    run_dir, out = Path(run_dir).resolve(), Path(out).resolve()
    run = load_run_record(run_dir)
    keys_dir = run_dir / BLIND_DIR
    if out.exists() and any(out.iterdir()):
        raise ScoringError("the export folder is not empty; choose a new one", file=str(out))
    if keys_dir == out or keys_dir.is_relative_to(out):
        raise ScoringError("the export may not contain the run's blind-review key folder",
                           file=str(out))
    root = corpus_root_of(run, run_dir, corpus_root)
    trials = _exportable(load_sheets(run_dir), run_dir)
    if not trials:
        raise ScoringError("no trial reached a claim the staff side showed: nothing to review",
                           run=run.run_id)
    seed = secrets.randbits(32) if seed is None else seed
    random.Random(seed).shuffle(trials)
    export_id = "br-" + secrets.token_hex(4)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        key = _write(run, run_dir, root, trials, work, export_id, seed)
        if out.exists():
            out.rmdir()  # empty, checked above
        work.rename(out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    key = key.model_copy(update={"out": str(out)})
    keys_dir.mkdir(exist_ok=True)
    write_model_atomic(keys_dir / f"key-{export_id}.json", key)
    return key


def _write(run: RunRecord, run_dir: Path, root: Callable[[str], Path], trials: list[Sheet],
           out: Path, export_id: str, seed: int) -> BlindReviewKey:
    """Write the pack into ``out`` and audit it; returns its key (not written)."""
    (out / "materials").mkdir()
    claims, items, forbidden = [], {}, set()
    for n, sheet in enumerate(trials, start=1):
        nid = f"claim-{n:02d}"
        tdir = run_dir / sheet.path
        pack_dir = root(sheet.pack_id) / sheet.pack_id
        staff = read_model(StaffReading, tdir / "staff.json")
        events = read_journey(tdir / JOURNEY_FILE, pack=sheet.pack_id, trial=sheet.trial)
        numbers = {x for x in (sheet.numbers.claim_number, staff.claim_number) if x}
        setup_path = pack_dir / "setup.json"
        setup = (read_model(Setup, setup_path, error=PackError, pack=sheet.pack_id)
                 if setup_path.is_file() else None)
        claims.append(ReviewClaim(
            id=nid, line=sheet.line, conversation=conversation(events, numbers),
            facts=collected_facts(staff), records=system_records(setup),
            materials=_materials(events, pack_dir, out, nid)))
        items[nid] = BlindReviewKeyItem(pack_id=sheet.pack_id, trial=sheet.trial,
                                        path=sheet.path)
        labels = load_labels(root(sheet.pack_id), sheet.pack_id)
        forbidden |= forbidden_values(staff, labels, numbers, sheet.pack_id)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    pack = BlindReviewPack(export_id=export_id, created_at=now, claims=claims)
    write_model_atomic(out / PACK_FILE, pack)
    for name in ("report.css", "blind_review.js"):
        shutil.copyfile(TEMPLATES / name, out / name)
    (out / "index.html").write_text(_env().get_template("blind_review.html.j2").render(
        pack=pack, classes=CLASS_LABELS, reasons=reason_labels(money_conventions(run).locale)),
        encoding="utf-8")
    problems = audit_export(out, forbidden)
    if problems:
        raise ScoringError("the export would show what it must hide (nothing was written): "
                           + "; ".join(problems), run=run.run_id)
    return BlindReviewKey(export_id=export_id, run_id=run.run_id, created_at=now, seed=seed,
                          out=str(out), items=items)
