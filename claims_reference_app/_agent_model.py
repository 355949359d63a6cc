"""The ``model`` runtime: an LLM behind any OpenAI-compatible chat-completions endpoint,
working through four tools. The endpoint is reached only through the ``openai`` client (its
timeout, retries and error types); the app builds its own client and never imports the
harness. Errors and timeouts are shown on screen; there is no fallback to another runtime.

``model_timeout_s`` bounds the whole reply, not one request: a reply may take several
requests (tool rounds) and the client retries each, so each request gets what is left of the
reply's time and the app stops waiting when it runs out, even while a request is still open
(a local server that cannot stop a generation keeps it open), and says so on screen.
The client is imported when a model endpoint is configured: the other runtimes start without
it (about half the app's import time).

The agent interface is synchronous (FastAPI runs the handlers in its thread pool), so the
runtime uses the SDK's synchronous ``OpenAI`` client.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam

from . import rules
from ._journey import Journey
from ._store import now_iso
from ._text import fact_label, wording

SYSTEM_PROMPT_FILE = Path(__file__).with_name("prompts") / "model_system.md"
MAX_TOOL_ROUNDS = 8
TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "record_fact",
            "description": "Record one fact the customer has given.",
            "parameters": {
                "type": "object",
                "properties": {
                    "key": {"type": "string", "enum": sorted(rules.FACT_KINDS)},
                    "value": {"type": "string"},
                },
                "required": ["key", "value"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "request_upload",
            "description": "Ask the customer to upload a file.",
            "parameters": {
                "type": "object",
                "properties": {"what": {"type": "string", "enum": ["photo", "quote", "receipt"]}},
                "required": ["what"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "create_claim",
            "description": "Create the claim once details are confirmed.",
            "parameters": {"type": "object", "properties": {}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "hand_off",
            "description": "Pass the customer to a person.",
            "parameters": {
                "type": "object",
                "properties": {"reason": {"type": "string"}},
                "required": ["reason"],
            },
        },
    },
]
_UPLOAD_KINDS = {"photo": "damage_photo", "quote": "repair_quote", "receipt": "purchase_receipt"}


# Sent as the bearer key when none is configured: the SDK insists on one, local servers
# ignore it.
NO_KEY = "no-key"


class ModelUnavailable(Exception):
    """The model endpoint failed; the reason is shown to the customer as is."""


def _late(timeout_s: float) -> str:
    """The on-screen reason for a reply that did not complete in the model's time."""
    return f"the model did not reply within {timeout_s:g} s"


def _reason(exc: Exception, timeout_s: float) -> str:
    """The on-screen reason for a failed request; never the body (it may echo the key)."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return _late(timeout_s)
    if isinstance(exc, openai.APIConnectionError):
        return f"the model endpoint could not be reached ({type(exc).__name__})"
    if isinstance(exc, openai.APIStatusError):
        return f"the model endpoint answered HTTP {exc.status_code}"
    return "the model endpoint sent an answer that could not be read"


class ModelAgent:
    name = "model"

    def __init__(
        self, base_url: str | None, model: str | None, api_key: str | None, timeout_s: float,
        max_retries: int = 2,
    ) -> None:
        self.base_url = (base_url or "").rstrip("/")
        self.model = model
        self.timeout_s = timeout_s
        self._client: openai.OpenAI | None = None
        if self.base_url:
            import openai

            self._client = openai.OpenAI(base_url=self.base_url, api_key=api_key or NO_KEY,
                                         timeout=timeout_s, max_retries=max_retries)

    # ------------------------------------------------------------------ events
    def on_message(self, j: Journey, text: str) -> None:
        self._turn(j)

    def on_upload(self, j: Journey, evidence: dict[str, Any]) -> None:
        self._turn(j, event=wording()["model"]["upload_event"].format(what=evidence["kind"]))

    def on_signed_in(self, j: Journey) -> None:
        if j.store.messages(j.session_id):
            self._turn(j, event=wording()["model"]["signed_in_event"])

    def on_confirm(self, j: Journey) -> None:
        j.confirm_facts()
        self._turn(j, event=wording()["model"]["confirm_event"])

    def on_talk_to_person(self, j: Journey) -> None:
        j.hand_off("contact_request", "The customer asked to talk to a person.")
        j.say(wording()["replies"]["handoff"])

    # ------------------------------------------------------------------ the loop
    def _turn(self, j: Journey, event: str | None = None) -> None:
        messages = self._messages(j, event)
        deadline = time.monotonic() + self.timeout_s
        try:
            for _ in range(MAX_TOOL_ROUNDS):
                answer = self._complete(messages, deadline)
                calls = answer.get("tool_calls") or []
                if not calls:
                    text = (answer.get("content") or "").strip()
                    if not text:
                        raise ModelUnavailable("the model returned an empty reply")
                    j.say(text)
                    return
                # A tool-call turn without text goes back with empty text: the API allows
                # null, absent or a string, and llama-cpp-python's server takes only a string
                # (null fails its validation, absent its chat template: HTTP 500 both ways).
                messages.append({"role": "assistant", "content": answer.get("content") or "",
                                 "tool_calls": calls})
                for call in calls:
                    result = self._run_tool(j, call)
                    messages.append(
                        {
                            "role": "tool",
                            "tool_call_id": call.get("id", ""),
                            "content": json.dumps(result),
                        }
                    )
            raise ModelUnavailable(
                f"the model used tools for {MAX_TOOL_ROUNDS} rounds without replying"
            )
        except ModelUnavailable as exc:
            j.audit("model_error", reason=str(exc))
            j.say(wording()["model"]["unavailable"].format(reason=exc), kind="error")

    def _complete(self, messages: list[dict[str, Any]], deadline: float) -> dict[str, Any]:
        if self._client is None or not self.model:
            raise ModelUnavailable("no model endpoint is configured")
        left = deadline - time.monotonic()
        if left <= 0:
            raise ModelUnavailable(_late(self.timeout_s))
        client, model = self._client.with_options(timeout=left), self.model
        outcome: dict[str, Any] = {}

        def ask() -> None:
            try:
                outcome["result"] = client.chat.completions.create(
                    model=model, temperature=0,
                    # plain dicts in the shapes the API documents
                    messages=cast("list[ChatCompletionMessageParam]", messages),
                    tools=cast("list[ChatCompletionToolParam]", TOOLS),
                    # the API's default with tools, said out loud: llama-cpp-python's
                    # chatml-function-calling offers the tools only when it is sent
                    tool_choice="auto")
            except Exception as exc:  # every SDK error, and an answer it could not decode
                outcome["error"] = exc

        # The request runs on a thread of its own so that the reply's time bounds it, the
        # client's retries included; one that outlives it ends by its own timeout, unread.
        worker = threading.Thread(target=ask, name="model-request", daemon=True)
        worker.start()
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.is_alive():
            raise ModelUnavailable(_late(self.timeout_s))
        if "error" in outcome:
            error = outcome["error"]
            raise ModelUnavailable(_reason(error, self.timeout_s)) from error
        result = outcome["result"]
        choices = getattr(result, "choices", None)
        message = getattr(choices[0], "message", None) if choices else None
        if message is None:
            raise ModelUnavailable("the model endpoint sent an answer that could not be read")
        calls = [{"id": c.id, "type": "function",
                  "function": {"name": c.function.name, "arguments": c.function.arguments}}
                 for c in (getattr(message, "tool_calls", None) or [])]
        return {"content": message.content, "tool_calls": calls}

    def _messages(self, j: Journey, event: str | None) -> list[dict[str, Any]]:
        state = {
            "line": j.line,
            "needed_facts": j.needed(),
            "facts": {k: v["value"] for k, v in j.facts.items()},
            "materials": {k: m["status"] for k, m in j.materials().items()},
            "claim_number": j.session.get("claim_number"),
            "now": now_iso(),
        }
        system = SYSTEM_PROMPT_FILE.read_text(encoding="utf-8") + "\n" + json.dumps(state)
        out: list[dict[str, Any]] = [{"role": "system", "content": system}]
        for m in j.store.messages(j.session_id):
            if m.get("kind") == "error":
                continue
            out.append(
                {"role": "user" if m["role"] == "customer" else "assistant", "content": m["text"]}
            )
        if event:
            out.append({"role": "user", "content": event})
        return out

    def _run_tool(self, j: Journey, call: dict[str, Any]) -> dict[str, Any]:
        fn = call.get("function") or {}
        name = fn.get("name")
        try:
            args = json.loads(fn.get("arguments") or "{}")
        except ValueError:
            return {"ok": False, "error": "arguments are not JSON"}
        if name == "record_fact":
            key, raw = str(args.get("key", "")), str(args.get("value", ""))
            if key not in rules.FACT_KINDS:
                return {"ok": False, "error": f"unknown fact key {key!r}"}
            value = rules.parse_fact(key, raw, j.line)
            if value is None:
                return {"ok": False, "error": f"could not read {raw!r} as {fact_label(key)}"}
            j.record_fact(key, value, "model")
            return {"ok": True, "key": key, "value": value}
        if name == "request_upload":
            kind = _UPLOAD_KINDS.get(str(args.get("what")))
            if kind is None:
                return {"ok": False, "error": "what must be photo, quote or receipt"}
            j.set_material(kind, "requested")
            return {"ok": True}
        if name == "create_claim":
            missing = [k for k in j.needed() if k not in j.facts]
            if missing:
                return {"ok": False, "error": f"missing facts: {missing}"}
            return {"ok": True, "claim_number": j.create_claim()}
        if name == "hand_off":
            j.hand_off("contact_request", str(args.get("reason", "")))
            return {"ok": True}
        return {"ok": False, "error": f"unknown tool {name!r}"}
