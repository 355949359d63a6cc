"""Customer side: the page shell and the JSON API its script renders from.

``GET /`` is an empty shell; the script fetches ``GET /api/thread`` (a new conversation's
greeting comes after ``greeting_delay_ms``) and sends every turn to ``POST /api/turns``
(text and/or one file, multipart). ``POST /api/review``, ``/api/edit`` and ``/api/create``
are the confirmation step. Every answer is the whole screen state as JSON.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Literal, overload

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from . import _schema as S
from . import _wording as W
from ._conversation import Conversation, new_conversation
from ._display import show_value
from ._files import FileRefused, check_file, store_file

COOKIE = "kestrel_chat"
MAX_TEXT = 4000
router = APIRouter()
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


class Busy(Exception):
    """A turn arrived while the previous one of the same conversation was being answered."""


_MAX_LOCKS = 5000


def _lock(conversation_id: str) -> threading.Lock:
    """The lock that lets one turn of a conversation be answered at a time."""
    with _locks_guard:
        if len(_locks) > _MAX_LOCKS:  # forget idle conversations' locks
            for key in [k for k, lock in _locks.items() if not lock.locked()]:
                del _locks[key]
        return _locks.setdefault(conversation_id, threading.Lock())


@overload
def _conversation(request: Request, create: Literal[True]) -> tuple[Conversation, bool]: ...
@overload
def _conversation(request: Request, create: bool) -> tuple[Conversation | None, bool]: ...
def _conversation(request: Request, create: bool) -> tuple[Conversation | None, bool]:
    store = request.app.state.store
    cid = request.cookies.get(COOKIE)
    doc = store.db[S.CONVERSATIONS].find_one({"_id": cid}) if cid else None
    if doc is not None:
        return Conversation(store, doc), False
    if not create:
        return None, False
    c = Conversation(store, new_conversation())
    request.app.state.assistant.greet(c)
    c.save()
    store.event("customer", "start_conversation", conversation=c.id)
    return c, True


def _pause(request: Request, setting: str) -> None:
    ms = getattr(request.app.state.settings, setting)
    if ms:
        time.sleep(ms / 1000)


def screen(request: Request, c: Conversation) -> dict[str, Any]:
    """What the customer's page shows, as JSON for the script."""
    doc = c.doc
    labels = W.text()["actions"]
    return {
        "turns": [{k: t.get(k) for k in ("n", "who", "text", "parts", "file")}
                  for t in doc["turns"]],
        "quick": list(doc["offer"]["quick"]),
        "actions": [{"id": a, "label": labels[a]} for a in doc["offer"]["actions"]],
        "review": _card(c) if doc["open"].get("kind") == "review" else None,
        "claimRef": doc["caseRef"],
        "chunkGapMs": request.app.state.settings.chunk_gap_ms,
    }


def _card(c: Conversation) -> dict[str, Any]:
    card = W.text()["card"]
    rows = []
    for key in c.answered_keys():
        value = c.value(key)
        shown = show_value(key, value, W.type_labels(c.line), card["yes"], card["no"])
        rows.append({"label": W.label(key), "value": shown or card["not_known"]})
    files = [u["fileName"] for u in c.store.db[S.UPLOADS].find(
        {"conversationId": c.id}, {"fileName": 1}).sort("receivedAt", 1)]
    if files:
        rows.append({"label": W.label("files"), "value": ", ".join(files)})
    return {"rows": rows}


def _answer(request: Request, c: Conversation, fresh: bool, status: int = 200) -> Response:
    resp = JSONResponse(screen(request, c), status_code=status)
    if fresh:
        resp.set_cookie(COOKIE, c.id, httponly=True, samesite="lax")
    return resp


def _refusal(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


@router.get("/", response_class=HTMLResponse)
def shell(request: Request) -> Response:
    return request.app.state.templates.TemplateResponse(request, "shell.html", {})


@router.get("/api/thread")
def thread(request: Request) -> Response:
    c, fresh = _conversation(request, create=True)
    if fresh:
        _pause(request, "greeting_delay_ms")
    return _answer(request, c, fresh)


def _run(request: Request, c: Conversation, act) -> bool:
    lock = _lock(c.id)
    if not lock.acquire(blocking=False):
        raise Busy
    try:
        _pause(request, "agent_latency_ms")
        fresh_doc = c.store.db[S.CONVERSATIONS].find_one({"_id": c.id}) or c.doc
        c.doc = fresh_doc
        done = act(c)
        c.save()
        return done
    finally:
        lock.release()


@router.post("/api/turns")
async def send_turn(request: Request, text: str = Form(""),
                    file: UploadFile | None = File(None)) -> Response:
    c, fresh = _conversation(request, create=True)
    settings = request.app.state.settings
    said = " ".join(text.split())[:MAX_TEXT]
    upload: tuple[str, str, bytes] | None = None
    if file is not None and file.filename:
        data = await file.read(settings.max_upload_bytes + 1)
        mime = (file.content_type or "").lower()
        try:
            check_file(file.filename, mime, data, settings.max_upload_bytes)
        except FileRefused as exc:
            return _refusal(str(exc), exc.status)
        upload = (file.filename, mime, data)
    if not said and upload is None:
        return _refusal("Type a message or add a file first.", 422)
    assistant = request.app.state.assistant
    store = request.app.state.store

    def act(conv: Conversation) -> bool:
        conv.add_customer(said, upload[0] if upload else None)
        if upload is not None:
            record, kind = store_file(store, conv, *upload)
            if said.endswith("?"):
                conv.follow_up(said)
            assistant.on_upload(conv, record, kind)
        else:
            assistant.on_text(conv, said)
        return True

    try:
        await run_in_threadpool(_run, request, c, act)
    except Busy:
        return _refusal("Please wait for the reply to your last message.", 409)
    return _answer(request, c, fresh)


def _step(request: Request, name: str) -> Response:
    c, _ = _conversation(request, create=False)
    if c is None:
        return _refusal("There is no conversation to continue; reload the page.", 404)
    method = getattr(request.app.state.assistant, f"on_{name}")
    try:
        done = _run(request, c, method)
    except Busy:
        return _refusal("Please wait for the reply to your last message.", 409)
    if not done:
        return _refusal("That step isn't available right now.", 409)
    return _answer(request, c, False)


@router.post("/api/review")
def review(request: Request) -> Response:
    return _step(request, "review")


@router.post("/api/edit")
def edit(request: Request) -> Response:
    return _step(request, "edit")


@router.post("/api/create")
def create(request: Request) -> Response:
    return _step(request, "create")
