"""The customer view: everything the simulated customer may know about a pack, and nothing else.

Built from an allowlist of four files plus the material files' paths. It never opens
``oracle/``, ``setup.json``, ``provenance.json`` or ``review.json``, and it drops each
material's ``evidence_kind``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from claims_records import PackError

from . import _io
from .formats import Arrival, Fact, Facts, Materials, Persona

# The only pack files the customer view may open.
CUSTOMER_FILES: tuple[str, ...] = (_io.INITIAL_MESSAGE, _io.PERSONA, _io.FACTS, _io.MATERIALS)


@dataclass(frozen=True)
class Progress:
    """How far the journey has come, as the customer knows it: what decides when a later
    file or fact arrives (``formats.Arrival``)."""

    messages: int = 0
    actions: int = 0
    requests: Mapping[str, int] = field(default_factory=dict)
    """How many times the agent has asked for each file (by file name) or fact (by key)."""

    def reached(self, arrives: Arrival | None, name: str) -> bool:
        return arrives is not None and arrives.reached(self.messages, self.actions,
                                                       self.requests.get(name, 0))


@dataclass(frozen=True)
class CustomerMaterial:
    """One file the customer holds or will hold, as the customer knows it."""

    file: str
    label: str
    path: Path
    availability: Literal["at_start", "later"]
    describe_before: str | None = None
    arrives: Arrival | None = None

    def available(self, progress: Progress) -> bool:
        """Does the customer have this file at this point of the journey?"""
        return self.availability == "at_start" or progress.reached(self.arrives, self.file)


@dataclass(frozen=True)
class CustomerView:
    """What the simulated customer may see of a pack."""

    pack_id: str
    initial_message: str
    persona: Persona
    facts: tuple[Fact, ...]
    materials: tuple[CustomerMaterial, ...]

    def material(self, file: str) -> CustomerMaterial:
        for m in self.materials:
            if m.file == file:
                return m
        raise PackError(f"no material named {file!r}", pack=self.pack_id, file=_io.MATERIALS,
                        field="materials")

    def knows(self, fact: Fact, progress: Progress) -> bool:
        """Does the customer know this fact at this point of the journey?"""
        return fact.later is None or progress.reached(fact.later.arrives, fact.key)

    def visible_text(self) -> str:
        """Every customer-visible string of the view, one per line (for leak checks)."""
        parts: list[str] = [self.initial_message]
        p = self.persona
        parts += [p.name, p.personality, p.speaking_style, p.dont_know_phrase,
                  p.correction_phrase, *(a.text for a in p.asks)]
        for f in self.facts:
            parts += [str(f.value), f.say, f.topic]
            if f.later is not None:
                parts.append(f.later.describe_before)
        for m in self.materials:
            parts += [m.file, m.label]
            if m.describe_before:
                parts.append(m.describe_before)
        return "\n".join(parts)


def load_customer_view(pack_dir: Path | str) -> CustomerView:
    """Load the customer view of a pack from its customer-visible files only."""
    pack_dir = Path(pack_dir)
    pack = pack_dir.name
    message = _io.read_text(pack_dir / _io.INITIAL_MESSAGE, pack=pack, file=_io.INITIAL_MESSAGE)
    persona = _io.read_model(pack_dir / _io.PERSONA, Persona, pack=pack, file=_io.PERSONA)
    facts = _io.read_model(pack_dir / _io.FACTS, Facts, pack=pack, file=_io.FACTS)
    listed = _io.read_model(pack_dir / _io.MATERIALS, Materials, pack=pack, file=_io.MATERIALS)
    materials: list[CustomerMaterial] = []
    for i, m in enumerate(listed.materials):
        path = (pack_dir / _io.MATERIALS_DIR / m.file).absolute()
        if Path(m.file).name != m.file or not path.is_file():
            raise PackError(f"material file {m.file!r} is missing", pack=pack,
                            file=_io.MATERIALS, field=f"materials.{i}.file")
        if path.is_symlink():  # it could point at anything; the customer uploads only the pack's
            raise PackError(f"material file {m.file!r} is a symbolic link", pack=pack,
                            file=_io.MATERIALS, field=f"materials.{i}.file")
        materials.append(
            CustomerMaterial(
                file=m.file,
                label=m.label,
                path=path,
                availability=m.availability,
                describe_before=m.later.describe_before if m.later else None,
                arrives=m.later.arrives if m.later else None,
            )
        )
    return CustomerView(
        pack_id=pack,
        initial_message=message[:-1] if message.endswith("\n") else message,
        persona=persona,
        facts=tuple(facts.facts),
        materials=tuple(materials),
    )
