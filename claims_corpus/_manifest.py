"""Writing the manifest's per-pack entries (hash, classification) for a corpus."""

from __future__ import annotations

from pathlib import Path

from claims_records import PackError

from . import _io
from ._loading import Pack, list_packs, load_manifest, load_pack, pack_file_hashes, pack_hash
from .formats import Manifest, ManifestPack, Money, TimeWindow


def manifest_entry(pack: Pack) -> ManifestPack:
    """The manifest entry a pack should have, from its files as they are now."""
    files = pack_file_hashes(pack.path)
    return ManifestPack(
        hash=pack_hash(files),
        line=pack.labels.line,
        scenario=pack.labels.scenario,
        scenario_kind=pack.labels.scenario_kind,
        pressure=list(pack.labels.pressure),
        message_style=pack.labels.message_style,
        claimant_session=pack.setup.claimant_session,
        review_required=pack.labels.review.review_required,
        innocent_control=pack.labels.innocent_control,
        has_later_material=any(m.availability == "later" for m in pack.materials.materials),
        has_not_checked="not_checked" in pack.labels.review.checks.values(),
        has_explanation=bool(pack.labels.review.customer_explanations),
        has_later_fact=any(f.later is not None for f in pack.facts.facts),
        has_unknown_fact=bool(pack.labels.unknown_facts),
        has_time_window=any(isinstance(f.value, TimeWindow) for f in pack.facts.facts),
        handed_over_unasked=bool(pack.persona.hands_over),
        currencies=sorted({f.value.currency for f in pack.facts.facts
                           if isinstance(f.value, Money)}),
        files=files,
    )


def save_manifest(root: Path | str, manifest: Manifest) -> None:
    _io.write_json(Path(root) / _io.MANIFEST, manifest.model_dump(mode="json"))


def update_manifest(root: Path | str) -> Manifest:
    """Rewrite every pack entry of a non-frozen corpus's manifest from the packs on disk.

    Keeps corpus_version and the changelog. Refuses on a frozen corpus (freezing records
    hashes there) and on any pack that does not load.
    """
    root = Path(root)
    manifest = load_manifest(root)
    if manifest.frozen:
        raise PackError("the corpus is frozen: its hashes change only through "
                        "`corpus check --freeze` after a version bump", file=_io.MANIFEST,
                        field="frozen")
    packs = {p.name: manifest_entry(load_pack(p)) for p in list_packs(root)}
    manifest = manifest.model_copy(update={"packs": packs})
    save_manifest(root, Manifest.model_validate(manifest.model_dump()))
    return manifest
