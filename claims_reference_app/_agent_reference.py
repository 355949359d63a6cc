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
from ._corrections import LATER, apply_corrections, plant_wrong_value
from ._journey import Journey
from ._text import chip, choice_labels, clarify, fact_label, material, question, reply

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
# "No", "nothing", "that's all", or a short "no idea": nothing to add about a document.
_NOTHING_TO_ADD = re.compile(
    r"^\W*(?:no|nope|nothing|none|not really)(?:\W+(?:thanks|thank you|nothing|else|to add|"
    r"that'?s (?:all|it)|i'?m fine|all good))*\W*$", re.I)
_NO_IDEA = re.compile(
    r"\b(?:don'?t (?:actually |really )?know|dunno|idk|no idea|not sure|unknown|"
    r"(?:could|would)n'?t (?:tell|know)|haven'?t a clue|not know|not knowing|"
    r"don'?t have that)\b", re.I)
# A typed request for a person (a click on the contact control hands over instead).
_PERSON = re.compile(
    r"\b(?:talk|speak)\s+(?:to|with)\s+(?:a\s+)?(?:real\s+)?(?:person|human|someone|somebody|"
    r"an?\s+(?:agent|adviser|advisor))\b|\b(?:ring|call|phone|contact)\s+me\b", re.I)
# "I'm the broker", "I am a claims manager": authority claimed for a decision (never taken).
_AUTHORITY = re.compile(
    r"\b(?:i'?m|i\s+am)\s+(?:a\s+|an\s+|the\s+)?(?:senior\s+)?(?:insurance\s+)?"
    r"(?:broker|claims\s+manager|claims\s+handler|underwriter|loss\s+adjuster)\b", re.I)
# Where a second, separate incident starts in a message that reports two.
_SECOND_INCIDENT = re.compile(
    r"\b(?:separately|as\s+well\s+as\s+that|a\s+different\s+incident|another\s+incident|"
    r"a\s+second\s+claim|unrelated(?:ly)?)\b", re.I)
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
        if first:
            text = self._one_incident(j, text)
        if _AUTHORITY.search(text):
            j.note("authority_claimed", text=text.strip()[:300])
            _notice(st, reply("no_authority"))
        open_fact = pending.get("kind") == "fact" and pending["key"] not in j.facts
        if not first and _PERSON.search(text):
            # A typed request for a person: on the waiting list under the claim; the claim
            # goes on so nothing is lost.
            j.hand_off("contact_request", text.strip())
            self._continue(j, prefix=reply("contact_queued"),
                           repeat_pending=open_fact or pending.get("kind") == "summary")
            return
        if text.strip().endswith("?") and not self._answers_pending(j, pending, text):
            # A question it cannot answer goes on the waiting list; the claim goes on.
            self._extract(j, text, first)
            if _faults.queues_question(j.settings.faults, first):
                j.hand_off("question", text.strip())
            self._continue(
                j,
                prefix=reply("question_queued_first" if first else "question_queued"),
                repeat_pending=open_fact or pending.get("kind") == "summary",
            )
            return
        # the open question's own answer is read (and a policy number looked up) once, below
        self._extract(j, text, first, skip=pending.get("key") if open_fact else None)
        kind = pending.get("kind")
        if kind == "fact":
            if not self._fact_answer(j, pending["key"], text):
                return
        elif kind == "line":
            if not self._line_answer(j, text):
                return
        elif kind == "material":
            self._material_answer(j, pending["key"], text)
        elif kind == "explanation":
            self._explanation_answer(j, pending["key"], text)
        elif kind == "summary":
            if _AFFIRM.search(text):
                self.on_confirm(j)
                return
            if "ignore_corrections" in j.settings.faults:
                j.say(reply("summary"))  # no correction path: the summary stays as it is
                return
            changed = apply_corrections(j, text) or self._extract(j, text, False,
                                                                  overwrite=True)
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
    def _one_incident(self, j: Journey, text: str) -> str:
        """A first message reporting two separate incidents: the claim is for the first; the
        second goes on the waiting list as its own contact request, never merged."""
        dates = rules.find_dates(text)
        marker = _SECOND_INCIDENT.search(text)
        if (len({d for _, _, d in dates}) < 2 or marker is None
                or not dates[0][1] <= marker.start() < dates[-1][0]):
            return text
        j.hand_off("contact_request", "A second, separate incident to report: "
                   + text[marker.start():].strip())
        _notice(j.state, reply("two_claims"))
        return text[:marker.start()].strip()

    def _answers_pending(self, j: Journey, pending: dict, text: str) -> bool:
        if pending.get("kind") != "fact" or rules.FACT_KINDS[pending["key"]] == "text":
            return False
        return rules.parse_fact(pending["key"], text, j.line, choice_labels(j.line)) is not None

    def _extract(self, j: Journey, text: str, first: bool, overwrite: bool = False,
                 skip: str | None = None) -> bool:
        found = rules.extract_facts(text)
        changed = False
        for key, value in found.items():
            if key == skip:
                continue
            if j.line and key not in j.needed():
                continue
            if key in j.facts and not overwrite:
                continue
            if key in j.facts and j.facts[key]["value"] == value:
                continue
            j.record_fact(key, value, "free_text")
            if key == "policy_number" and j.state["policy_found"] is False:
                del j.facts[key]
                if j.state.pop("policy_not_yours", False):
                    _notice(j.state, reply("policy_not_yours"))
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
            value = rules.parse_police_reference(rest)
            if value is None and rules.parse_yes_no(rest) is False and not LATER.search(rest):
                dont_know = True  # not reported: nothing to record
        elif kind == "text":
            if not dont_know or len(re.findall(r"\w+", rest)) >= 3:
                value = rules.parse_fact(key, text, j.line)
        else:
            value = rules.parse_fact(key, rest, j.line, choice_labels(j.line))
        if value is None and not dont_know and LATER.search(text):
            # the customer will give it later: to follow, asked once more before the summary
            j.record_fact(key, None, "answer", state="to_follow")
            st["notice"] = reply("fact_later")
            return True
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
        if not_found and st.pop("policy_not_yours", False):
            del j.facts[key]
            j.say(f"{reply('policy_not_yours')} {question(key)}")
            st["pending"] = {"kind": "fact", "key": key}
            return False
        if not_found and st["policy_attempts"] < 2:
            del j.facts[key]
            j.say(reply("policy_not_found", policy=value))
            st["pending"] = {"kind": "fact", "key": key}
            return False
        st["notice"] = reply("dont_know_noted") if value is None else None
        return True

    def _explanation_answer(self, j: Journey, check_id: str, text: str) -> None:
        """Keep what the customer says about a document a check hits on, unless it is a no."""
        short = len(text.split()) <= 8
        if (_NOTHING_TO_ADD.search(text) or rules.says_dont_know(text)
                or (short and _NO_IDEA.search(text))):
            j.state["notice"] = reply("explanation_none")
            return
        j.record_explanation(check_id, " ".join(text.split())[:500])
        j.state["notice"] = reply("explanation_noted")

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
        later = LATER.search(text)
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
            if self._ask_explanation(j, prefix):  # a document handed over at the summary
                return
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
        for key in list(j.facts):
            if j.facts[key]["state"] == "to_follow" and f"fact:{key}" not in st["reasked"]:
                st["reasked"].append(f"fact:{key}")
                text = reply("fact_reask", what=fact_label(key).lower())
                self._ask(j, key, text_override=text, prefix=prefix)
                return
        if self._ask_explanation(j, prefix):
            return
        if {"wrong_summary", "ignore_corrections"} & set(j.settings.faults):
            plant_wrong_value(j)
        st["pending"] = {"kind": "summary"}
        st["confirm_ready"] = True
        j.say(f"{prefix} {reply('summary')}" if prefix else reply("summary"))

    def _ask_explanation(self, j: Journey, prefix: str | None) -> bool:
        """Ask once about each supplied document a receipt or quote check hits on, neutrally:
        the customer is never told a check fired. False when there is nothing to ask."""
        st = j.state
        asked = st.setdefault("explanations_asked", [])
        check = next((c for c in j.document_checks()
                      if c.outcome == "hit" and c.check_id not in asked), None)
        if check is None:
            return False
        asked.append(check.check_id)
        st["pending"] = {"kind": "explanation", "key": check.check_id}
        st["confirm_ready"] = False
        j.audit("ask_explanation", check=check.check_id)
        text = reply(f"explain_{check.check_id}")
        j.say(f"{prefix} {text}" if prefix else text)
        return True

    def _request(
        self, j: Journey, kind: str, text: str, prefix: str | None, status: str = "requested"
    ) -> None:
        j.set_material(kind, status)
        j.state["pending"] = {"kind": "material", "key": kind}
        j.say(f"{prefix} {text}" if prefix else text)


def _notice(state: dict, text: str) -> None:
    """Say ``text`` before the next question (several notices in order)."""
    state["notice"] = f"{state['notice']} {text}" if state.get("notice") else text
