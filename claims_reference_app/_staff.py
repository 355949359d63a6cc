"""Staff workbench: sign-in, claim queue, claim detail, waiting list. Every action audited."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ._decisions import ACTOR_ROLE, OPEN_STATUSES, DecisionRefused, decide
from ._store import verify_password
from ._views import canonical_value

STAFF_COOKIE = "nwf_staff"
router = APIRouter(prefix="/staff")


def _staff(request: Request) -> dict | None:
    """The signed-in staff account (``_staff_identity``: sessions survive a data reset)."""
    identity = request.app.state.staff_identity
    return identity.staff_for(request.app.state.store.db, request.cookies.get(STAFF_COOKIE))


def _render(request: Request, name: str, ctx: dict, status: int = 200) -> Response:
    return request.app.state.templates.TemplateResponse(request, name, ctx, status_code=status)


def _audit(request: Request, staff: dict, action: str, **args: object) -> None:
    request.app.state.store.audit(ACTOR_ROLE.get(staff.get("role", ""), "staff"), action,
                                  {"staff_id": staff["_id"], **args})


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request) -> Response:
    return _render(request, "staff_login.html", {"error": False})


@router.post("/login")
def login(request: Request, username: str = Form(...), password: str = Form(...)) -> Response:
    store = request.app.state.store
    staff = store.db.staff.find_one({"username": username.strip()})
    ok = staff is not None and verify_password(password, staff.get("password_hash"))
    store.audit("staff", "sign_in", {"username": username.strip(), "ok": ok})
    if not ok:
        return _render(request, "staff_login.html", {"error": True}, status=401)
    token = request.app.state.staff_identity.issue(staff)
    resp = RedirectResponse("/staff", status_code=303)
    resp.set_cookie(STAFF_COOKIE, token, httponly=True, samesite="lax")
    return resp


@router.get("", response_class=HTMLResponse)
def queue(request: Request) -> Response:
    staff = _staff(request)
    if staff is None:
        return RedirectResponse("/staff/login", status_code=303)
    _audit(request, staff, "view_queue")
    claims = list(request.app.state.store.db.claims.find().sort("created_at", -1))
    return _render(request, "staff_queue.html", {"staff": staff, "claims": claims})


@router.get("/claims/{claim_number}", response_class=HTMLResponse)
def claim_detail(request: Request, claim_number: str) -> Response:
    return _claim_page(request, claim_number)


def _claim_page(request: Request, claim_number: str, refused: str = "",
                status: int = 200) -> Response:
    """The claim's page (``refused``: why a decision was just refused)."""
    staff = _staff(request)
    if staff is None:
        return RedirectResponse("/staff/login", status_code=303)
    db = request.app.state.store.db
    claim = db.claims.find_one({"claim_number": claim_number})
    _audit(request, staff, "view_claim", claim_number=claim_number, found=claim is not None)
    if claim is None:
        return _render(
            request, "staff_missing.html", {"staff": staff, "claim_number": claim_number}, 404
        )
    facts = [
        {
            "key": k,
            "value": canonical_value(v["value"])
            if v["state"] not in ("unknown", "to_follow")
            else v["state"].replace("_", " ").replace("unknown", "not known"),
            "state": v["state"],
        }
        for k, v in claim.get("facts", {}).items()
    ]
    evidence = list(db.evidence.find({"claim_number": claim_number}).sort("uploaded_at", 1))
    return _render(
        request,
        "staff_claim.html",
        {
            "staff": staff,
            "claim": claim,
            "facts": facts,
            "evidence": evidence,
            "reason_text": REASON_TEXT,
            "can_decide": claim.get("status", "submitted") in OPEN_STATUSES,
            "refused": refused,
        },
        status,
    )


@router.post("/claims/{claim_number}/decision")
def record_decision(request: Request, claim_number: str, decision: str = Form(""),
                    note: str = Form(""), amount: str = Form("")) -> Response:
    """Record a staff decision (approve, amend_amount, decline, return_for_info)."""
    staff = _staff(request)
    if staff is None:
        return RedirectResponse("/staff/login", status_code=303)
    store = request.app.state.store
    claim = store.db.claims.find_one({"claim_number": claim_number})
    if claim is None:
        return _render(
            request, "staff_missing.html", {"staff": staff, "claim_number": claim_number}, 404
        )
    try:
        decide(store, request.app.state.settings.faults, staff, claim, decision, note, amount)
    except DecisionRefused as exc:
        return _claim_page(request, claim_number, refused=str(exc), status=403)
    return RedirectResponse(f"/staff/claims/{claim_number}?recorded=1", status_code=303)


@router.get("/waiting", response_class=HTMLResponse)
def waiting(request: Request) -> Response:
    staff = _staff(request)
    if staff is None:
        return RedirectResponse("/staff/login", status_code=303)
    _audit(request, staff, "view_waiting")
    items = list(request.app.state.store.db.waiting_list.find().sort("created_at", -1))
    return _render(request, "staff_waiting.html", {"staff": staff, "items": items})


@router.post("/logout")
def logout(request: Request) -> Response:
    token = request.cookies.get(STAFF_COOKIE)
    staff = _staff(request)
    if staff is not None:
        _audit(request, staff, "sign_out")
        request.app.state.staff_identity.end(token)
    resp = RedirectResponse("/staff/login", status_code=303)
    resp.delete_cookie(STAFF_COOKIE)
    return resp


REASON_TEXT = {
    "injury_reported": "someone was hurt",
    "vehicle_driveable": "the car can still be driven",
    "vehicle_not_driveable": "the car cannot be driven",
    "third_party_involved": "another vehicle or person was involved",
    "theft": "theft",
    "police_report": "a police reference was given",
    "escape_of_water": "escape of water",
    "storm": "storm damage",
    "fire": "fire",
    "property_uninhabitable": "the home cannot be lived in",
    "high_value": "value over £5,000",
    "review_required": "the review signal fired",
    "document_incomplete": "a supplied document lacks pages",
    "minor_damage": "minor damage, no complicating factor",
    "single_item": "single item, no complicating factor",
}
