"""The corpus checker: every problem of every pack in one run, and freezing."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from claims_records import PackError

from . import _io
from ._check_corpus_files import acceptance_problems, other_customer_problems
from ._check_extra import checked_pack, extra_pack_problems, unsafe_pack
from ._check_fields import corpus_field_problems
from ._check_keys import declared_note, declared_problems
from ._check_pack import Problem, sign_off_problems
from ._check_setup import baseline_problems
from ._loading import Pack, load_baseline, load_manifest
from ._manifest import manifest_entry, save_manifest
from .formats import PACK_ID_PATTERN, Baseline, Manifest, ManifestPack

_PACK_ID = re.compile(PACK_ID_PATTERN)
# Folders under the corpus root that are not packs.
NON_PACK_FOLDERS: tuple[str, ...] = ("schema",)


@dataclass
class CheckReport:
    """The result of one checker run."""

    root: Path
    packs_checked: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    frozen: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


_SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$")


def _version_key(v: str) -> tuple:
    """Order corpus versions as semantic versions: 1.0.0-rc.1 < 1.0.0-rc.2 < 1.0.0 < 1.0.1
    (a release sorts after its pre-releases); () for a version that is neither semantic nor
    dotted numbers."""
    m = _SEMVER.match(v)
    if m is None:
        try:
            return tuple(int(part) for part in v.split("."))
        except ValueError:
            return ()
    core = tuple(int(x) for x in m.group(1, 2, 3))
    if m.group(4) is None:
        return (*core, 1)
    pre = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in m.group(4).split("."))
    return (*core, 0, pre)


def _changed_files(old: ManifestPack | None, new: ManifestPack | None) -> list[str]:
    before = old.files if old else {}
    after = new.files if new else {}
    changed = sorted(f for f in set(before) | set(after) if before.get(f) != after.get(f))
    if not changed and old != new:
        return [_io.MANIFEST]  # the entry itself was edited, or recorded without file hashes
    return changed


def _manifest_problems(manifest: Manifest, current: dict[str, ManifestPack | None],
                       freeze: bool) -> tuple[list[Problem], list[str]]:
    """Compare the manifest's entries with the packs as they are.

    ``current`` maps each pack id on disk (or in the manifest) to its entry as computed now
    (None when the folder is gone, or the pack does not load). Returns problems and notes.
    """
    problems: list[Problem] = []
    notes: list[str] = []
    ids = sorted(set(current) | set(manifest.packs))
    bumped = (manifest.hashes_version is not None
              and _version_key(manifest.corpus_version) > _version_key(manifest.hashes_version))
    entry_now = [c for c in manifest.changelog if c.version == manifest.corpus_version]
    for pack_id in ids:
        old = manifest.packs.get(pack_id)
        new = current.get(pack_id)
        if pack_id in current and new is None:
            continue  # the pack has its own problems; nothing to compare
        if old is not None and new is not None and old == new:
            continue
        changed = _changed_files(old, new)
        if not manifest.frozen:
            if freeze and new is not None:
                continue  # freezing records the entry
            what = ("the pack folder is gone" if new is None
                    else "not listed" if old is None
                    else f"out of date (changed: {', '.join(changed)})")
            problems.append(Problem(None, _io.MANIFEST, f"packs.{pack_id}",
                                    f"entry for {pack_id} {what}; run `claims-harness corpus "
                                    "manifest`"))
            continue
        noted = any(pack_id in change for e in entry_now for change in e.changes)
        if not (bumped and noted):
            for file in changed:
                problems.append(Problem(
                    None if file == _io.MANIFEST else pack_id, file,
                    f"packs.{pack_id}" if file == _io.MANIFEST else "<content>",
                    f"frozen pack {pack_id} changed since corpus {manifest.hashes_version} "
                    f"without a version bump: raise corpus_version and add a changelog entry "
                    f"for it naming {pack_id}"))
        elif not freeze:
            problems.append(Problem(
                None, _io.MANIFEST, f"packs.{pack_id}",
                f"{pack_id} changed under corpus {manifest.corpus_version} "
                f"({', '.join(changed)}); run `claims-harness corpus check --freeze` to record "
                "the new hashes"))
        else:
            notes.append(f"{pack_id}: new hashes recorded under {manifest.corpus_version}")
    return problems, notes


def check_corpus(root: Path | str, freeze: bool = False) -> CheckReport:
    """Check every pack and the corpus files under ``root``; report all problems.

    With ``freeze``, also require a named person's sign-off on every image and a changelog
    entry for the corpus version; when nothing is wrong, record the content hashes with
    ``frozen: true`` in the manifest.
    """
    root = Path(root)
    report = CheckReport(root=root)
    if not root.is_dir():
        report.problems.append(Problem(None, str(root), "<folder>", "corpus folder not found"))
        return report
    manifest: Manifest | None = None
    baseline: Baseline | None = None
    for file, loader in ((_io.MANIFEST, load_manifest), (_io.BASELINE, load_baseline)):
        try:
            loaded = loader(root)
        except PackError as exc:
            report.problems.append(Problem(None, file, exc.field or "<file>",
                                           exc.message))
            continue
        if isinstance(loaded, Manifest):
            manifest = loaded
        else:
            baseline = loaded
            report.problems.extend(baseline_problems(loaded))
    story_facts = manifest.story_facts if manifest is not None else {}
    report.problems.extend(declared_problems(story_facts))
    note = declared_note(story_facts)
    if note:
        report.notes.append(note)
    report.problems.extend(acceptance_problems(root))
    report.problems.extend(corpus_field_problems(root))
    packs: dict[str, Pack] = {}
    current: dict[str, ManifestPack | None] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        if folder.name in NON_PACK_FOLDERS or folder.name.startswith("."):
            continue
        if not _PACK_ID.match(folder.name):
            report.problems.append(Problem(None, folder.name, "<folder>",
                                           f"not a pack id (pattern {PACK_ID_PATTERN})"))
            continue
        if manifest is not None and not folder.name.startswith(f"{manifest.id_prefix}-"):
            report.problems.append(Problem(None, folder.name, "<folder>",
                                           f"pack id does not start with the corpus's id "
                                           f"prefix {manifest.id_prefix!r} ({_io.MANIFEST})"))
            continue
        report.packs_checked.append(folder.name)
        links = unsafe_pack(folder)
        if links:  # a link may point at a secret or a device: read nothing through it
            report.problems.extend(links)
            current[folder.name] = None
            continue
        problems, pack = checked_pack(folder)
        report.problems.extend(problems)
        report.problems.extend(extra_pack_problems(folder, baseline, story_facts))
        current[folder.name] = manifest_entry(pack) if pack is not None else None
        if pack is not None:
            packs[folder.name] = pack
            if freeze:
                report.problems.extend(sign_off_problems(folder.name, folder, pack.review,
                                                         list(pack.material_files)))
    if baseline is not None:
        report.problems.extend(other_customer_problems(
            baseline, [root / pid for pid in report.packs_checked]))
    if manifest is None:
        return report
    report.frozen = manifest.frozen
    problems, notes = _manifest_problems(manifest, current, freeze)
    report.problems.extend(problems)
    report.notes.extend(notes)
    if freeze and not any(c.version == manifest.corpus_version for c in manifest.changelog):
        report.problems.append(Problem(None, _io.MANIFEST, "changelog",
                                       f"no changelog entry for corpus_version "
                                       f"{manifest.corpus_version!r}"))
    if freeze and report.ok:
        entries = {pid: e for pid, e in current.items() if e is not None}
        frozen = manifest.model_copy(update={"frozen": True, "packs": entries,
                                             "hashes_version": manifest.corpus_version})
        save_manifest(root, Manifest.model_validate(frozen.model_dump()))
        report.frozen = True
        report.notes.append(f"frozen corpus {manifest.corpus_version}: "
                            f"{len(entries)} pack hashes recorded")
    return report
