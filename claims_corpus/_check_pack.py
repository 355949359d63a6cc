"""Checks of one pack: every file validates, and the pack obeys the corpus standard."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError
from pypdf.errors import PyPdfError

from claims_records import PackError, review_required_from

from . import _io
from ._check_oracle import oracle_problems
from ._check_rules import is_image, pdf_page_problems, pdf_pages, relative_date_words
from ._generate import is_external, render_material
from ._loading import Pack, material_files
from ._review._sign_off import name_problem, sign_off_state
from .formats import (
    PACK_FORMAT_VERSION,
    Facts,
    Labels,
    Materials,
    Persona,
    Provenance,
    Review,
    Setup,
)

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the corpus, located by pack, file and field."""

    pack: str | None
    file: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.pack}/{self.file}" if self.pack else self.file
        return f"{where}: {self.field}: {self.message}"


class _Collector:
    def __init__(self, pack: str) -> None:
        self.pack = pack
        self.problems: list[Problem] = []

    def add(self, file: str, field: str, message: str) -> None:
        self.problems.append(Problem(self.pack, file, field, message))

    def model(self, pack_dir: Path, file: str, model: type[M]) -> M | None:
        try:
            raw = _io.parse_json(_io.read_bytes(pack_dir / file, pack=self.pack, file=file),
                                 pack=self.pack, file=file)
        except PackError as exc:
            self.add(file, exc.field or "<file>", exc.message)
            return None
        try:
            parsed = model.model_validate(raw, strict=True)
        except ValidationError as exc:
            for fld, msg in _io.validation_problems(exc):
                self.add(file, fld, msg)
            return None
        if getattr(parsed, "version", PACK_FORMAT_VERSION) != PACK_FORMAT_VERSION:
            self.add(file, "version", f"pack format version must be {PACK_FORMAT_VERSION!r}")
        return parsed


def check_pack(pack_dir: Path) -> tuple[list[Problem], Pack | None]:
    """Every problem of one pack, and the parsed pack when every file validated."""
    c = _Collector(pack_dir.name)
    message: str | None = None
    try:
        message = _io.read_text(pack_dir / _io.INITIAL_MESSAGE, pack=c.pack,
                                file=_io.INITIAL_MESSAGE)
        if not message.strip():
            c.add(_io.INITIAL_MESSAGE, "<text>", "the first message is empty")
    except PackError as exc:
        c.add(_io.INITIAL_MESSAGE, "<file>", exc.message)
    persona = c.model(pack_dir, _io.PERSONA, Persona)
    facts = c.model(pack_dir, _io.FACTS, Facts)
    materials = c.model(pack_dir, _io.MATERIALS, Materials)
    labels = c.model(pack_dir, _io.LABELS, Labels)
    setup = c.model(pack_dir, _io.SETUP, Setup)
    provenance = c.model(pack_dir, _io.PROVENANCE, Provenance)
    review = c.model(pack_dir, _io.REVIEW, Review)
    present = material_files(pack_dir)
    _check_layout(c, pack_dir)

    if message is not None:
        for word in relative_date_words(message):
            c.add(_io.INITIAL_MESSAGE, "<text>", f"relative date {word!r}: use an absolute date")
    if facts is not None:
        for i, f in enumerate(facts.facts):
            for name in ("value", "say", "topic"):
                for word in relative_date_words(str(getattr(f, name))):
                    c.add(_io.FACTS, f"facts.{i}.{name}",
                          f"relative date {word!r} in fact {f.key!r}: use an absolute date")
    for file, model in ((_io.LABELS, labels), (_io.SETUP, setup)):
        if model is not None and model.pack_id != c.pack:
            c.add(file, "pack_id", f"{model.pack_id!r} differs from the folder name {c.pack!r}")
    if materials is not None:
        _check_materials(c, pack_dir, materials, present)
    if labels is not None:
        _check_labels(c, labels, facts)
    if provenance is not None:
        _check_provenance(c, pack_dir, provenance, present)
    if review is not None:
        _check_review(c, pack_dir, review, present)

    if (message is None or persona is None or facts is None or materials is None
            or labels is None or setup is None or provenance is None or review is None):
        return c.problems, None
    pack = Pack(c.pack, pack_dir, message, persona, facts, materials, labels,
                setup, provenance, review, tuple(present))
    try:
        for file, field, msg in oracle_problems(pack):
            c.add(file, field, msg)
    except (OSError, ValueError, PyPdfError) as exc:  # a broken file is reported above
        c.add(_io.LABELS, "<rules>", f"the claim rules could not be applied: {exc}")
    return c.problems, pack


PACK_FILES: tuple[str, ...] = (_io.INITIAL_MESSAGE, _io.PERSONA, _io.FACTS, _io.MATERIALS,
                               _io.LABELS, _io.SETUP, _io.PROVENANCE, _io.REVIEW)


def _check_layout(c: _Collector, pack_dir: Path) -> None:
    """No file outside the pack layout (a misplaced copy is easy to mistake for the real one)."""
    for path in sorted(pack_dir.rglob("*")):
        rel = path.relative_to(pack_dir)
        if not path.is_file() or any(part.startswith(".") for part in rel.parts):
            continue
        name = rel.as_posix()
        if name not in PACK_FILES and rel.parent.as_posix() != _io.MATERIALS_DIR:
            c.add(name, "<file>", "not part of the pack layout (see packs/STANDARD.md)")


def _check_materials(c: _Collector, pack_dir: Path, materials: Materials,
                     present: list[str]) -> None:
    listed: set[str] = set()
    for i, m in enumerate(materials.materials):
        if m.file in listed:
            c.add(_io.MATERIALS, f"materials.{i}.file", f"{m.file!r} is listed twice")
        listed.add(m.file)
        if m.file not in present:
            c.add(_io.MATERIALS, f"materials.{i}.file",
                  f"{m.file!r} is listed but missing from {_io.MATERIALS_DIR}/")
    for name in present:
        if name not in listed:
            c.add(f"{_io.MATERIALS_DIR}/{name}", "<file>",
                  f"file is not listed in {_io.MATERIALS}")
        if name.lower().endswith(".pdf"):
            data = (pack_dir / _io.MATERIALS_DIR / name).read_bytes()
            for fld, msg in pdf_page_problems(data):
                c.add(f"{_io.MATERIALS_DIR}/{name}", fld, msg)


def _check_labels(c: _Collector, labels: Labels, facts: Facts | None) -> None:
    rule = review_required_from(dict(labels.review.checks))
    if labels.review.review_required != rule:
        c.add(_io.LABELS, "review.review_required",
              f"is {labels.review.review_required} but the check outcomes give {rule} "
              "(review_required iff >=1 strong hit or >=2 weak hits)")
    overlap = set(labels.triage.required_reasons) & set(labels.triage.allowed_reasons)
    if overlap:
        c.add(_io.LABELS, "triage.allowed_reasons",
              f"reasons both required and allowed: {sorted(overlap)}")
    if facts is None:
        return
    known = facts.as_dict()
    for group in ("expected_facts", "optional_facts"):
        for key, value in getattr(labels, group).items():
            if key not in known:
                c.add(_io.LABELS, f"{group}.{key}", f"fact {key!r} is not in {_io.FACTS}")
            elif known[key].value != value or type(known[key].value) is not type(value):
                c.add(_io.LABELS, f"{group}.{key}",
                      f"value {value!r} differs from {_io.FACTS} ({known[key].value!r})")


def _check_provenance(c: _Collector, pack_dir: Path, provenance: Provenance,
                      present: list[str]) -> None:
    described = {m.file for m in provenance.materials}
    for name in present:
        if name not in described:
            c.add(_io.PROVENANCE, "materials", f"no provenance for {name!r}")
    for i, m in enumerate(provenance.materials):
        if m.file not in present:
            c.add(_io.PROVENANCE, f"materials.{i}.file", f"{m.file!r} is not in the pack")
            continue
        data = (pack_dir / _io.MATERIALS_DIR / m.file).read_bytes()
        if not is_external(m.generator):
            try:
                made = render_material(m.generator, m.parameters, pack=c.pack, file=m.file,
                                       index=i)
            except PackError as exc:
                c.add(_io.PROVENANCE, exc.field or f"materials.{i}",
                      exc.message)
            else:
                if made != data:
                    c.add(f"{_io.MATERIALS_DIR}/{m.file}", "<content>",
                          f"differs from what provenance.json makes ({m.generator}); "
                          "run `claims-harness corpus generate`")
        if m.file.lower().endswith(".pdf") and (m.pages_total or m.pages_supplied):
            xs, total = pdf_pages(data)
            if m.pages_total is not None and total is not None and m.pages_total != total:
                c.add(_io.PROVENANCE, f"materials.{i}.pages_total",
                      f"{m.pages_total} but the document prints 'of {total}'")
            if m.pages_supplied is not None and sorted(m.pages_supplied) != xs:
                c.add(_io.PROVENANCE, f"materials.{i}.pages_supplied",
                      f"{m.pages_supplied} but the file holds pages {xs}")


def _image_hash(pack_dir: Path, name: str) -> str:
    return hashlib.sha256((pack_dir / _io.MATERIALS_DIR / name).read_bytes()).hexdigest()


def _check_review(c: _Collector, pack_dir: Path, review: Review, present: list[str]) -> None:
    entries = {m.file: (i, m) for i, m in enumerate(review.materials)}
    for name in present:
        if not is_image(name):
            continue
        if name not in entries:
            c.add(_io.REVIEW, "materials", f"image {name!r} has no review entry")
            continue
        i, entry = entries[name]
        if entry.assistant_check is None:
            c.add(_io.REVIEW, f"materials.{i}.assistant_check",
                  f"image {name!r} has no assistant check")
        elif entry.assistant_check.verdict != "ok":
            c.add(_io.REVIEW, f"materials.{i}.assistant_check.verdict",
                  f"image {name!r} was judged 'remake'")
        if entry.sign_off is not None:
            state = sign_off_state(entry, _image_hash(pack_dir, name))
            if state == "void":
                c.add(_io.REVIEW, f"materials.{i}.sign_off",
                      f"void: {entry.sign_off.name}'s sign-off of {entry.sign_off.date} is for "
                      f"another version of {name!r} (sha256 {entry.sign_off.sha256[:12]}…); "
                      "have the image looked at again and signed off with `claims-harness "
                      "corpus sign-off`, or remove the sign-off")
            elif state == "not_a_name":
                c.add(_io.REVIEW, f"materials.{i}.sign_off.name",
                      f"{name_problem(entry.sign_off.name)}: a sign-off needs a named person")
    for name, (i, _) in entries.items():
        if name not in present:
            c.add(_io.REVIEW, f"materials.{i}.file", f"{name!r} is not in the pack")


def sign_off_problems(pack: str, pack_dir: Path, review: Review,
                      present: list[str]) -> list[Problem]:
    """For freezing: every image signed off 'ok' by a named person, for its current bytes."""
    out: list[Problem] = []
    entries = {m.file: (i, m) for i, m in enumerate(review.materials)}
    for name in present:
        if not is_image(name) or name not in entries:
            continue
        i, entry = entries[name]
        state = sign_off_state(entry, _image_hash(pack_dir, name))
        if state in ("none", "not_a_name"):
            out.append(Problem(pack, _io.REVIEW, f"materials.{i}.sign_off",
                               f"image {name!r} has no sign-off by a named person"))
        elif state == "void":
            out.append(Problem(pack, _io.REVIEW, f"materials.{i}.sign_off",
                               f"image {name!r} changed after its sign-off; it needs a new one"))
        elif entry.sign_off is not None and entry.sign_off.verdict != "ok":
            out.append(Problem(pack, _io.REVIEW, f"materials.{i}.sign_off.verdict",
                               f"image {name!r} was signed off as 'remake'"))
    return out
