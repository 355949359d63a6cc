"""transcript.md: the conversation as the customer saw it."""

from __future__ import annotations

from claims_records import LABEL_SELF_TEST

SELF_TEST_LABEL = "SELF-TEST: run against a controlled runtime; not a measurement of any agent."


def render_transcript(
    pack_id: str,
    trial: int,
    history: list[tuple[str, str]],
    stop_reason: str | None,
    detail: str,
    labels: list[str],
    claim_number: str | None,
) -> str:
    """Markdown transcript: header, then one block per message, then how it ended."""
    lines = [f"# {pack_id} — trial {trial}", ""]
    if LABEL_SELF_TEST in labels:
        lines += [f"> **{SELF_TEST_LABEL}**", ""]
    others = [label for label in labels if label != LABEL_SELF_TEST]
    if others:
        lines += [f"> **Run labelled: {', '.join(others)}**", ""]
    for role, text in history:
        who = "Customer" if role == "customer" else "Agent"
        body = "\n".join(f"> {line}" if line else ">" for line in text.splitlines()) or ">"
        lines += [f"**{who}:**", "", body, ""]
    lines += ["---", "", f"Ended: {stop_reason or 'unknown'} — {detail}".rstrip(" —")]
    if claim_number:
        lines.append(f"Claim number: {claim_number}")
    return "\n".join(lines) + "\n"
