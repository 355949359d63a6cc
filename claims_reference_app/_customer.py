"""Customer pages and actions: start page, workspace, uploads, sign-in, talk to a person."""

from __future__ import annotations

import secrets
from typing import Any, Literal, overload

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ._decisions import awaiting_info, receive_info
from ._journey import IMAGE_TYPES, PDF_TYPE, Journey, new_state
from ._store import now_iso, session_key, verify_password
from ._views import workspace_context

CUSTOMER_COOKIE = "nwf_session"
router = APIRouter()
_MAGIC = {"image/jpeg": b"\xff\xd8\xff", "image/png": b"\x89PNG\r\n\x1a\n", PDF_TYPE: b"%PDF-"}


class MessageIn(BaseModel):
    """A customer message sent from the composer or a chip."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=4000, description="What the customer typed.")


@overload
def _journey(request: Request, create: Literal[True] = True) -> tuple[Journey, str | None]: ...
@overload
def _journey(request: Request, create: bool) -> tuple[Journey | None, str | None]: ...
def _journey(request: Request, create: bool = True) -> tuple[Journey | None, str | None]:
    """The customer's journey, and the new session token when one was created (for the
    cookie; the database keeps only its hash)."""
    store = request.app.state.store
    sid = request.cookies.get(CUSTOMER_COOKIE)
    session = (store.db.sessions.find_one({"_id": session_key(sid), "kind": "customer"})
               if sid else None)
    created: str | None = None
    if session is None:
        if not create:
            return None, None
        created = secrets.token_urlsafe(24)
        session = {
            "_id": session_key(created),
            "kind": "customer",
            "created_at": now_iso(),
            "account_id": None,
            "customer_id": None,
            "claim_number": None,
            "state": new_state(),
        }
        store.db.sessions.insert_one(session)
    return Journey(store, request.app.state.settings, session), created


def _with_cookie(response: Response, j: Journey, created: str | None) -> Response:
    if created:
        response.set_cookie(CUSTOMER_COOKIE, created, httponly=True, samesite="lax")
    return response


def _fragment(request: Request, j: Journey, created: str | None, status: int = 200
              ) -> Response:
    ctx = workspace_context(j, request.app.state.settings.runtime)
    resp = request.app.state.templates.TemplateResponse(
        request, "_workspace.html", ctx, status_code=status
    )
    return _with_cookie(resp, j, created)


@router.get("/", response_class=HTMLResponse)
def start_page(request: Request) -> Response:
    j, created = _journey(request)
    ctx = workspace_context(j, request.app.state.settings.runtime)
    ctx["signin_error"] = request.query_params.get("signin_error") == "1"
    resp = request.app.state.templates.TemplateResponse(request, "index.html", ctx)
    return _with_cookie(resp, j, created)


@router.get("/api/workspace", response_class=HTMLResponse)
def workspace(request: Request) -> Response:
    j, created = _journey(request)
    return _fragment(request, j, created)


@router.post("/api/messages", response_class=HTMLResponse)
def send_message(request: Request, body: MessageIn) -> Response:
    j, created = _journey(request)
    j.store.add_message(j.session_id, "customer", body.text.strip())
    claim = _returned_claim(j)
    if claim is not None:
        receive_info(j.store, claim, text=body.text.strip())
    else:
        request.app.state.agent.on_message(j, body.text.strip())
    j.save()
    return _fragment(request, j, created)


def _returned_claim(j: Journey) -> dict[str, Any] | None:
    """The session's claim when staff returned it for more information (every runtime answers
    the same way then: what the customer sends goes to the claim)."""
    number = j.session.get("claim_number")
    claim = j.db.claims.find_one({"_id": number}) if number else None
    return claim if awaiting_info(claim) else None


def _upload_error(message: str, status: int, html: str | None = None) -> JSONResponse:
    body: dict[str, Any] = {"error": message}
    if html is not None:
        body["html"] = html
    return JSONResponse(body, status_code=status)


@router.post("/api/uploads")
async def upload(request: Request, file: UploadFile = File(...)) -> Response:
    j, created = _journey(request)
    settings = request.app.state.settings
    name = file.filename or "file"
    limit = settings.max_upload_bytes
    data = await file.read(limit + 1)
    ctype = (file.content_type or "").lower()
    if ctype not in (*IMAGE_TYPES, PDF_TYPE) or not data.startswith(_MAGIC[ctype]):
        return _upload_error(
            f'"{name}" cannot be uploaded: only JPEG, PNG or PDF files are accepted.', 415
        )
    if len(data) > limit:
        return _upload_error(
            f'"{name}" is too large: files can be at most {limit // (1024 * 1024)} MB.', 413
        )
    if request.app.state.settings.runtime == "controlled":
        j.store.add_message(j.session_id, "customer", f"Uploaded {name}")
        request.app.state.agent.on_upload(j, {"kind": "file", "file_name": name})
        j.save()
        return _fragment(request, j, created)
    if j.needs_sign_in():
        j.state["signin_prompt"] = True
        j.save()
        html = request.app.state.templates.get_template("_workspace.html").render(
            workspace_context(j, settings.runtime)
        )
        return _upload_error("Please sign in before uploading files.", 403, html)
    if "ignore_upload" in settings.faults:  # dropped: nothing stored, nothing registered
        j.store.add_message(j.session_id, "customer", f"Uploaded {name}")
        j.repeat_last_reply()
        j.save()
        return _fragment(request, j, created)
    pending = j.state.get("pending") or {}
    expected = pending.get("key") if pending.get("kind") == "material" else None
    evidence = j.store_upload(name, ctype, data, expected_kind=expected)
    j.store.add_message(j.session_id, "customer", f"Uploaded {name}")
    claim = _returned_claim(j)
    if claim is not None:
        receive_info(j.store, claim, evidence=evidence)
    else:
        request.app.state.agent.on_upload(j, evidence)
    j.save()
    return _fragment(request, j, created)


@router.post("/api/confirm", response_class=HTMLResponse)
def confirm(request: Request) -> Response:
    j, created = _journey(request)
    request.app.state.agent.on_confirm(j)
    j.save()
    return _fragment(request, j, created)


@router.post("/api/talk-to-person", response_class=HTMLResponse)
def talk_to_person(request: Request) -> Response:
    j, created = _journey(request)
    j.store.add_message(j.session_id, "customer", "I'd like to talk to a person.")
    request.app.state.agent.on_talk_to_person(j)
    j.save()
    return _fragment(request, j, created)


@router.get("/signin", response_class=HTMLResponse)
def signin_page(request: Request) -> Response:
    return request.app.state.templates.TemplateResponse(request, "signin.html", {"error": False})


@router.post("/signin")
def signin(
    request: Request,
    email: str = Form(...),
    password: str = Form(...),
    next: str = Form("/"),
    origin: str = Form("page"),
) -> Response:
    store = request.app.state.store
    account = store.db.accounts.find_one(
        {"email": email.strip().lower()}
    ) or store.db.accounts.find_one({"email": email.strip()})
    ok = account is not None and verify_password(password, account.get("password_hash"))
    store.audit("customer", "sign_in", {"email": email.strip().lower(), "ok": ok})
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    if not ok:
        if origin == "prompt":
            return RedirectResponse("/?signin_error=1", status_code=303)
        return request.app.state.templates.TemplateResponse(
            request, "signin.html", {"error": True}, status_code=401
        )
    j, created = _journey(request)
    customer = store.db.customers.find_one({"_id": account.get("customer_id")}) or {}
    j.session["account_id"] = account["_id"]
    j.session["customer_id"] = account.get("customer_id")
    j.session["customer_name"] = customer.get("name")
    request.app.state.agent.on_signed_in(j)
    j.save()
    return _with_cookie(RedirectResponse(target, status_code=303), j, created)
