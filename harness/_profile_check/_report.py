"""What ``profile check`` found, line by line, and how it reads regions off a page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..browser import PageSelectors
from ..profile import Lane, Profile

# Capability -> what is not_implemented without it.
CONSEQUENCES: dict[str, str] = {
    "customer_accounts": "packs whose session mode is 'account' (not_implemented trials); "
                         "'anonymous_then_sign_in' packs run anonymously",
    "staff_side": "triage, review, facts, incident_datetime and waiting_list components",
    "waiting_list": "the waiting_list component",
    "chips": "chips are not read (the customer types its answers)",
    "todo_bar": "the to-do bar is not read",
    "facts_panel": "the facts panel is not read",
    "confirm_step": "no confirm control is looked for",
    "talk_to_person": "no contact request can be made",
    "runtime_report": "runs need a declared runtime ([runtime.declared], --declare-runtime; "
                      "labelled 'runtime declared, not reported') or "
                      "--allow-unreported-runtime (labelled 'runtime not reported')",
}
_REGIONS_JS = """(regions) => {
  const visible = (el) => { const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && el.getClientRects().length > 0; };
  const out = {};
  for (const [name, alts] of Object.entries(regions)) {
    out[name] = null;
    for (let i = 0; i < alts.length; i++) {
      const els = Array.from(document.querySelectorAll(alts[i]));
      if (!els.length) continue;
      const shown = els.filter(visible);
      out[name] = { alternative: i, count: els.length, visible: shown.length,
                    text: shown.length ? (shown[0].innerText || '').trim() : '' };
      break;
    }
  }
  return out;
}"""


@dataclass
class Line:
    what: str
    ok: bool | None  # None: information only
    detail: str
    warn: bool = False  # information that may make a run go wrong (shown WARN, no problem)

    @property
    def mark(self) -> str:
        if self.ok is None:
            return "WARN" if self.warn else "    "
        return "ok  " if self.ok else "FAIL"


@dataclass
class CheckReport:
    """Everything ``profile check`` found; ``problems`` counts what would break a run."""

    profile: str
    lane: Lane
    lines: list[Line] = field(default_factory=list)
    customer: list[tuple[str, str, str]] = field(default_factory=list)
    staff: list[tuple[str, str, str]] = field(default_factory=list)
    staff_note: str = ""
    staff_credentials: dict[str, Any] | None = None
    not_implemented: list[str] = field(default_factory=list)

    @property
    def problems(self) -> int:
        return sum(1 for ln in self.lines if ln.ok is False)

    def render(self) -> str:
        out = [f"Profile {self.profile}", f"Lane {self.lane.name}: {self.lane.base_url}"
               + (f" (staff side {self.lane.staff_base_url})"
                  if self.lane.staff_base_url != self.lane.base_url else ""), ""]
        for ln in self.lines:
            out.append(f"{ln.mark} {ln.what:<16} {ln.detail}")
        for title, rows in (("Customer screen", self.customer), ("Staff side", self.staff)):
            note = self.staff_note if title == "Staff side" else ""
            if not rows and not note:
                continue
            out += ["", title + (f" ({note})" if note else "")]
            if rows:
                w = max(18, *(len(name) for name, _, _ in rows))
                out.append(f"  {'region':<{w}} {'matches':<9} first visible text")
                out += [f"  {name:<{w}} {count:<9} {text}" for name, count, text in rows]
        out += ["", "Not implemented for this product:"]
        out += [f"  - {item}" for item in self.not_implemented] or ["  (nothing)"]
        warnings = sum(1 for ln in self.lines if ln.warn)
        out += ["", f"{self.problems} problem(s)"
                + (f", {warnings} warning(s)" if warnings else "")]
        return "\n".join(out) + "\n"


def shorten(text: str, limit: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def rows(found: dict[str, Any], regions: dict[str, list[str]],
          absent: set[str]) -> list[tuple[str, str, str]]:
    rows = []
    for name, alts in regions.items():
        if name in absent:
            rows.append((name, "-", "(capability absent)"))
        elif not alts:
            rows.append((name, "-", "(no selector: the product has no such region)"))
        elif found.get(name) is None:
            rows.append((name, "0", "(no match on this page)"))
        else:
            f = found[name]
            which = f" [alternative {f['alternative'] + 1}]" if len(alts) > 1 else ""
            rows.append((name, f"{f['count']}{which}", f'"{shorten(f["text"])}"'
                         if f["text"] else "(no visible text)"))
    return rows


async def read_regions(page: Any, regions: dict[str, list[str]]) -> dict[str, Any]:
    selectors = PageSelectors(page, [s for alts in regions.values() for s in alts])
    await selectors.refresh()
    found: dict[str, Any] = await page.evaluate(  # the page's JSON
        _REGIONS_JS, {n: selectors.css(a) for n, a in regions.items()})
    return found


def not_implemented(profile: Profile) -> list[str]:
    """What will be not_implemented for want of a capability (the staff side read from the
    stores: what they do not hold, and what only a staff screen shows)."""
    out = []
    where = profile.staff_side().stores
    for name in profile.capabilities.absent():
        if name == "staff_side" and where is not None:
            gone = where.not_held()
            out.append("staff_side: no staff screen (the staff side is read from the "
                       "stores): the explanation component, scored only from a staff screen"
                       + (f"; what the stores do not hold: {', '.join(gone)}" if gone else ""))
        else:
            out.append(f"{name}: {CONSEQUENCES[name]}")
    return out
