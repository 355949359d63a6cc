"""The ``reference`` runtime: a deterministic scripted agent that follows the claim rules.

It asks one question at a time for each missing needed fact, in the order of
docs/claim-rules.md, never asks again for a fact it has (an unreadable reply gets one
clarifying re-ask), asks for materials through the to-do bar, reads documents, shows a
summary with a confirm step and creates the claim.
"""

from __future__ import annotations

import re
from typing import Any

from . import _faults, rules
from ._journey import Journey
from ._text import chip, choice_labels, clarify, material, question, reply

_LATER = re.compile(
    r"\blater\b|\btomorrow\b|\bnot yet\b|\byet\b|\bwill (?:send|upload|get)\b|"
    r"\bnext week\b|\bwhen i (?:get|have)\b|\bonce i\b|\bwaiting for\b",
    re.I,
)
_NOT_HAVE = re.compile(
    r"\b(?:don'?t|do not|dont|haven'?t|have not|no longer)\b.*\b(?:have|got|"
    r"one|it)\b|\bno\b|\bnone\b|\bcan'?t find\b|\blost\b|\bwithout\b",
    re.I,
)
_AFFIRM = re.compile(
    r"^\W*(?:yes|yep|yeah|yup|correct|confirm|confirmed|that'?s (?:all )?right|"
    r"that is (?:all )?right|looks (?:good|right|correct)|all (?:good|correct)|"
    r"right|ok|okay|perfect|spot on)\b",
    re.I,
)
_POLICE_REF = re.compile(r"\b[A-Z]{1,6}[-/ ]?\d[\w/-]{3,}\b|\b\d{2,}[-/]\d[\w/-]{2,}\b", re.I)
_LINE_WORDS = {
    "motor": ("car", "vehicle", "motor", "van"),
    "home": ("home", "house", "flat", "building", "property"),
    "contents": ("belongings", "contents", "item", "items", "phone", "laptop", "bike"),
}


class ReferenceAgent:
    name = "reference"

    # ------------------------------------------------------------------ events
    def on_message(self, j: Journey, text: str) -> None:
        st = j.state
        if j.session.get("claim_number"):
            shown = _faults.claim_number_shown(j.settings.faults, j.session["claim_number"])
            j.say(reply("already_created", claim_number=shown) if shown
                  else reply("already_submitted"))
            return
        st["messages_seen"] = st.get("messages_seen", 0) + 1
        pending = st.get("pending") or {}
        if pending.get("kind") == "handed_off" or _faults.hands_off_now(j.settings.faults,
                                                                         st["messages_seen"]):
            if pending.get("kind") != "handed_off":
                j.hand_off("contact_request", "Passed to a colleague by the assistant.")
                st["pending"] = {"kind": "handed_off"}
            j.say(reply("handoff"))
            return
        first = not st["first_message_seen"]
        st["first_message_seen"] = True
        if text.strip().endswith("?") and not self._answers_pending(j, pending, text):
            # A question it cannot answer goes on the waiting list; the claim goes on.
            self._extract(j, text, first)
            j.hand_off("question", text.strip())
            open_fact = pending.get("kind") == "fact" and pending["key"] not in j.facts
            self._continue(
                j,
                prefix=reply("question_queued_first" if first else "question_queued"),
                repeat_pending=open_fact or pending.get("kind") == "summary",
            )
            return
        self._extract(j, text, first)
        kind = pending.get("kind")
        if kind == "fact":
            if not self._fact_answer(j, pending["key"], text):
                return
        elif kind == "line":
            if not self._line_answer(j, text):
                return
        elif kind == "material":
            self._material_answer(j, pending["key"], text)
        elif kind == "summary":
            if _AFFIRM.search(text):
                self.on_confirm(j)
                return
            changed = self._extract(j, text, False, overwrite=True)
            j.say(reply("summary_updated") if changed else reply("summary"))
            return
        self._continue(j)

    def on_upload(self, j: Journey, evidence: dict[str, Any]) -> None:
        what = self._describe_upload(evidence)
        pending = j.state.get("pending") or {}
        repeat = pending.get("kind") in ("fact", "line", "summary")
        self._continue(j, prefix=reply("upload_ok", what=what), repeat_pending=repeat)

    def on_signed_in(self, j: Journey) -> None:
        if (j.state.get("pending") or {}).get("kind") == "signin":
            j.state["signin_prompt"] = False
            j.state["pending"] = None
            self._continue(j, prefix=reply("signed_in"))

    def on_confirm(self, j: Journey) -> None:
        if not j.state.get("confirm_ready"):
            return
        shown = _faults.claim_number_shown(j.settings.faults, j.create_claim())
        j.say(reply("claim_created", claim_number=shown) if shown else reply("claim_submitted"))

    def on_talk_to_person(self, j: Journey) -> None:
        j.hand_off("contact_request", "The customer asked to talk to a person.")
        j.say(reply("handoff"))

    # ------------------------------------------------------------------ reading replies
    def _answers_pending(self, j: Journey, pending: dict, text: str) -> bool:
        if pending.get("kind") != "fact" or rules.FACT_KINDS[pending["key"]] == "text":
            return False
        return rules.parse_fact(pending["key"], text, j.line, choice_labels(j.line)) is not None

    def _extract(self, j: Journey, text: str, first: bool, overwrite: bool = False) -> bool:
        found = rules.extract_facts(text)
        changed = False
        for key, value in found.items():
            if j.line and key not in j.needed():
                continue
            if key in j.facts and not overwrite:
                continue
            if key in j.facts and j.facts[key]["value"] == value:
                continue
            j.record_fact(key, value, "free_text")
            if key == "policy_number" and j.state["policy_found"] is False:
                del j.facts[key]
                continue
            changed = True
        if first and "incident_description" not in j.facts and len(text.strip()) > 15:
            j.record_fact("incident_description", text.strip()[:400], "free_text")
        return changed

    def _fact_answer(self, j: Journey, key: str, text: str) -> bool:
        """Record the answer to question ``key``; False when a clarifying re-ask was sent."""
        st = j.state
        kind = rules.FACT_KINDS[key]
        dont_know = rules.says_dont_know(text)
        rest = rules.without_dont_know(text) if dont_know else text
        value: Any = None
        if key == "police_reference":
            m = _POLICE_REF.search(rest)
            value = m.group(0).upper() if m else None
            if value is None and rules.parse_yes_no(rest) is False:
                dont_know = True  # not reported: nothing to record
        elif kind == "text":
            if not dont_know or len(re.findall(r"\w+", rest)) >= 3:
                value = rules.parse_fact(key, text, j.line)
        else:
            value = rules.parse_fact(key, rest, j.line, choice_labels(j.line))
        if value is None and not dont_know and key not in st["clarified"]:
            st["clarified"].append(key)
            self._ask(j, key, text_override=clarify(key))
            return False
        if "ask_twice" in j.settings.faults and key not in st["repeated"] and value is not None:
            st["repeated"].append(key)
            j.record_fact(key, value, "answer")
            self._ask(j, key, text_override=reply("ask_again_prefix") + question(key))
            return False
        j.record_fact(key, value, "answer")
        not_found = key == "policy_number" and value is not None and st["policy_found"] is False
        if not_found and st["policy_attempts"] < 2:
            del j.facts[key]
            j.say(reply("policy_not_found", policy=value))
            st["pending"] = {"kind": "fact", "key": key}
            return False
        st["notice"] = reply("dont_know_noted") if value is None else None
        return True

    def _line_answer(self, j: Journey, text: str) -> bool:
        low = text.lower()
        for line, words in _LINE_WORDS.items():
            if chip(f"line_{line}").lower() == low.strip() or any(
                re.search(rf"\b{w}\b", low) for w in words
            ):
                j.state["line"] = line
                j.audit("set_line", line=line)
                return True
        if "line" not in j.state["clarified"]:
            j.state["clarified"].append("line")
            j.say(reply("line_clarify"), self._line_chips())
            return False
        j.state["line"] = "motor"
        return True

    def _material_answer(self, j: Journey, kind: str, text: str) -> None:
        st = j.state
        later = _LATER.search(text)
        if later:
            j.set_material(kind, "later")
            st["notice"] = reply("material_later")
        elif _NOT_HAVE.search(text) or rules.says_dont_know(text):
            j.set_material(kind, "not_provided")
            st["notice"] = reply("material_not_provided")
        elif f"material:{kind}" not in st["clarified"]:
            st["clarified"].append(f"material:{kind}")
            st["notice"] = reply("material_clarify")
            st["hold_material"] = kind
        else:
            j.set_material(kind, "not_provided")
            st["notice"] = reply("material_not_provided")

    def _describe_upload(self, evidence: dict[str, Any]) -> str:
        kind = evidence["kind"]
        reading = evidence.get("reading")
        what = (
            f"your {material(kind, 'label').lower()}"
            if kind != "other_document"
            else "your document"
        )
        if kind == "damage_photo":
            return f"your photo ({evidence['file_name']})"
        if reading:
            parts = []
            if reading.get("date"):
                parts.append(f"{reading.get('date_label') or 'dated'} {reading['date']}")
            if reading.get("missing_pages"):
                parts.append(
                    f"page(s) {', '.join(map(str, reading['missing_pages']))} of "
                    f"{reading['pages_total']} missing"
                )
            if parts:
                what += " (" + "; ".join(parts) + ")"
        return what

    # ------------------------------------------------------------------ what next
    def _line_chips(self) -> list[str]:
        return [chip("line_motor"), chip("line_home"), chip("line_contents")]

    def _ask(
        self, j: Journey, key: str, text_override: str | None = None, prefix: str | None = None
    ) -> None:
        st = j.state
        st["pending"] = {"kind": "fact", "key": key}
        if text_override is None:
            st["asked"][key] = st["asked"].get(key, 0) + 1
        kind = rules.FACT_KINDS[key]
        chips: list[str] = []
        if kind == "yes_no":
            chips = [chip("yes"), chip("no"), chip("dont_know")]
        elif kind == "choice":
            chips = list(choice_labels(j.line).values())
        text = text_override or question(key)
        j.audit("ask", key=key)
        j.say(f"{prefix} {text}" if prefix else text, chips)

    def _continue(
        self, j: Journey, prefix: str | None = None, repeat_pending: bool = False
    ) -> None:
        st = j.state
        notice = st.pop("notice", None)
        prefix = " ".join(p for p in (prefix, notice) if p) or None
        pending = st.get("pending") or {}
        if repeat_pending and pending.get("kind") == "fact":
            self._ask(j, pending["key"], text_override=question(pending["key"]), prefix=prefix)
            return
        if repeat_pending and pending.get("kind") == "summary":
            j.say(f"{prefix} {reply('summary')}" if prefix else reply("summary"))
            return
        hold = st.pop("hold_material", None)
        if hold:
            j.say(prefix or material(hold, "ask"))
            return
        if st["policy_found"] is False and st["line"] is None and "policy_number" in j.facts:
            st["pending"] = {"kind": "line"}
            j.say(
                reply("policy_still_not_found", policy=j.value("policy_number")), self._line_chips()
            )
            return
        for key in j.needed():
            if key not in j.facts:
                self._ask(j, key, prefix=prefix)
                return
        mats = rules.materials_needed(j.line, j.value("incident_type"))
        if any(j.material_status(k) in (None, "later") for k in mats) and j.needs_sign_in():
            st["signin_prompt"] = True
            st["pending"] = {"kind": "signin"}
            j.audit("sign_in_prompt")
            j.say(f"{prefix} {reply('sign_in_needed')}" if prefix else reply("sign_in_needed"))
            return
        for kind in mats:
            if j.material_status(kind) in (None, "requested"):
                self._request(j, kind, material(kind, "ask"), prefix)
                return
        for kind in mats:
            if j.material_status(kind) == "later" and kind not in st["reasked"]:
                st["reasked"].append(kind)
                text = reply("material_reask", what=material(kind, "label").lower())
                self._request(j, kind, text, prefix, status="later")
                return
        st["pending"] = {"kind": "summary"}
        st["confirm_ready"] = True
        j.say(f"{prefix} {reply('summary')}" if prefix else reply("summary"))

    def _request(
        self, j: Journey, kind: str, text: str, prefix: str | None, status: str = "requested"
    ) -> None:
        j.set_material(kind, status)
        j.state["pending"] = {"kind": "material", "key": kind}
        j.say(f"{prefix} {text}" if prefix else text)
