"""The staff workbench: its own app on its own port, every request authorised by
``Authorization: Bearer <staff token>`` (no sign-in form; 401 without it).

``/`` is the queue (a table; a row opens its case by the internal case id), ``/cases/{id}``
a case, ``/followups`` the customer questions raised during journeys. Everything is shown in
the workbench's own words (text/workbench.toml).
"""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from . import _schema as S
from ._display import show_value
from ._store import Store
from ._wording import load

HERE = Path(__file__).parent
REALM = 'Bearer realm="kestrel-workbench"'


def words() -> dict[str, Any]:
    return load("workbench")


def _authorised(request: Request, token: str) -> bool:
    given = request.headers.get("authorization", "")
    scheme, _, value = given.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(),
                                                              token.encode())


def _case_view(store: Store, case: dict[str, Any]) -> dict[str, Any]:
    w = words()
    inverse_band = {v: k for k, v in S.BANDS.items()}
    inverse_callback = {v: k for k, v in S.CALLBACK.items()}
    inverse_reason = {v: k for k, v in S.REASONS.items()}
    inverse_check = {v: k for k, v in S.CHECK_KEYS.items()}
    inverse_result = {v: k for k, v in S.CHECK_RESULTS.items()}
    states = {S.CONFIRMED: "confirmed", S.NOT_KNOWN: "unknown", S.PROPOSED: "suggested"}
    triage = case.get("triage") or {}
    facts = []
    for pkey, answer in (case.get("answers") or {}).items():
        key = S.CANONICAL_KEYS[pkey]
        value = show_value(key, answer["value"], w["incident_types"], w["yes_no"]["yes"],
                           w["yes_no"]["no"])
        facts.append({"label": w["facts"][key], "value": value or "—",
                      "state": w["fact_states"][states[answer["status"]]]})
    checks = []
    for ckey, check in (case.get("referral") or {}).get("checks", {}).items():
        canonical = inverse_check[ckey]
        checks.append({"name": w["checks"][canonical],
                       "outcome": w["outcomes"][inverse_result[check["result"]]],
                       "basis": check.get("basis", "")})
    line = S.LINES_BY_PRODUCT.get(case.get("product") or "")
    holder = store.holder(case.get("holderId")) or {}
    inverse_status = {v: k for k, v in S.FILE_STATUS.items()}
    files = [{"what": cat.replace("_", " ").capitalize(),
              "status": w["files"].get(inverse_status.get(e["status"], ""), e["status"]),
              "count": len(e.get("uploads") or [])}
             for cat, e in (case.get("evidence") or {}).items()]
    return {
        "case": case,
        "line": w["lines"].get(line or "", "—"),
        "holder": holder.get("fullName") or "—",
        "band": w["bands"][inverse_band[triage["band"]]] if triage.get("band") else "—",
        "callback": w["callback"][inverse_callback[triage["callback"]]]
        if triage.get("callback") else "—",
        "reasons": [w["reasons"][inverse_reason[r]] for r in triage.get("reasons", [])],
        "referral": w["referral"]["refer" if case["referral"]["refer"] else "none"],
        "checks": checks,
        "facts": facts,
        "files": files,
        "notes": list(case.get("notes") or []),
    }


def create_workbench_app(store: Store, token: str, version: str) -> FastAPI:
    """The workbench app for ``store``; every request needs the bearer ``token``."""
    if not token:
        raise ValueError("the staff workbench needs a token")
    app = FastAPI(title="Kestrel workbench", version=version, docs_url=None, redoc_url=None,
                  openapi_url=None)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/assets", StaticFiles(directory=str(HERE / "static")), name="assets")

    @app.middleware("http")
    async def bearer_only(request: Request, call_next):
        if not _authorised(request, token):
            return HTMLResponse("<!doctype html><title>401</title><h1>Not authorised</h1>",
                                status_code=401, headers={"WWW-Authenticate": REALM})
        return await call_next(request)

    def page(request: Request, name: str, ctx: dict[str, Any], status: int = 200) -> Response:
        return templates.TemplateResponse(request, name, {"w": words(), **ctx},
                                          status_code=status)

    @app.get("/", response_class=HTMLResponse)
    def queue(request: Request) -> Response:
        store.event("staff", "view_queue")
        w = words()
        inverse_band = {v: k for k, v in S.BANDS.items()}
        rows = [{"id": c["_id"], "ref": c["ref"], "lodged": str(c.get("lodgedAt", ""))[:16]
                 .replace("T", " "),
                 "line": w["lines"].get(S.LINES_BY_PRODUCT.get(c.get("product") or "", ""), "—"),
                 "band": w["bands"][inverse_band[c["triage"]["band"]]],
                 "referral": w["referral"]["refer" if c["referral"]["refer"] else "none"]}
                for c in store.db[S.CASES].find().sort("lodgedAt", -1)]
        return page(request, "wb_queue.html", {"rows": rows})

    @app.get("/cases/{case_id}", response_class=HTMLResponse)
    def case(request: Request, case_id: str) -> Response:
        doc = store.db[S.CASES].find_one({"_id": case_id})
        store.event("staff", "view_case", case=case_id, found=doc is not None)
        if doc is None:
            return page(request, "wb_missing.html", {"case_id": case_id}, 404)
        return page(request, "wb_case.html", _case_view(store, doc))

    @app.get("/followups", response_class=HTMLResponse)
    def followups(request: Request) -> Response:
        store.event("staff", "view_followups")
        w = words()
        kinds = {v: k for k, v in S.FOLLOWUP_TYPES.items()}
        items = [{"kind": w["followup_kinds"][kinds[f["type"]]], "text": f["body"],
                  "ref": f.get("caseRef") or "Not yet lodged",
                  "state": w["followup_states"]["waiting"] if f["state"] == S.FOLLOWUP_OPEN
                  else f["state"],
                  "raised": str(f.get("raisedAt", ""))[:16].replace("T", " ")}
                 for f in store.db[S.FOLLOWUPS].find().sort("raisedAt", -1)]
        return page(request, "wb_followups.html", {"items": items})

    return app
