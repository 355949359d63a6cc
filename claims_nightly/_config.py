"""Reading a nightly configuration (TOML) and turning it into a run's configuration."""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from claims_records import BrowserConfig, ConfigError, NightlyConfig, RunConfig, RunSettings

CORPUS_MANIFEST = "manifest.json"  # what makes a folder a corpus


@dataclass(frozen=True)
class Night:
    """A configuration with its paths resolved against the file it came from."""

    config: NightlyConfig
    path: Path
    runs_dir: Path
    corpora: list[Path]
    profile: str  # a shipped profile name or an absolute TOML path

    @property
    def name(self) -> str:
        return self.config.name

    def digest(self) -> str:
        """sha256 of the settings (two nights with equal digests ran the same way)."""
        data = self.config.model_dump(mode="json")
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def load_config(path: Path | str) -> Night:
    """Load and check ``path``; every problem names the file and the key."""
    path = Path(path).resolve()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError("no such nightly configuration", file=str(path)) from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"the nightly configuration is not readable TOML: {exc}",
                           file=str(path)) from exc
    try:
        config = NightlyConfig.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "(top level)"
        raise ConfigError(f"invalid nightly configuration: {err['msg']}", file=str(path),
                           field=where) from None
    base = path.parent

    def resolve(p: str, field: str) -> Path:
        if "\0" in p:
            raise ConfigError("a path cannot hold a NUL character", file=str(path), field=field,
                              value=repr(p))
        try:
            q = Path(p).expanduser()
        except RuntimeError:  # ~user of no such user
            raise ConfigError("a path's ~user names no user of this machine", file=str(path),
                              field=field, value=p) from None
        return q if q.is_absolute() else (base / q).resolve()

    profile = config.profile
    if profile.endswith(".toml") or "/" in profile or "\\" in profile:
        profile = str(resolve(profile, "profile"))
    return Night(config=config, path=path, runs_dir=resolve(config.runs_dir, "runs_dir"),
                 corpora=[resolve(c, f"corpora[{i}]") for i, c in enumerate(config.corpora)],
                 profile=profile)


def check_paths(night: Night) -> None:
    """Refuse a night whose folders cannot work, before anything runs or is written: each
    problem names the configuration file, the key and the path."""
    for i, corpus in enumerate(night.corpora):
        where = {"file": str(night.path), "field": f"corpora[{i}]", "path": str(corpus)}
        if not corpus.exists():
            raise ConfigError("the corpus folder does not exist", **where)
        if not corpus.is_dir():
            raise ConfigError("the corpus is not a folder", **where)
        if not (corpus / CORPUS_MANIFEST).is_file():
            raise ConfigError(f"the corpus folder holds no {CORPUS_MANIFEST}", **where)
    runs = night.runs_dir
    where = {"file": str(night.path), "field": "runs_dir", "path": str(runs)}
    if runs.exists() and not runs.is_dir():
        raise ConfigError("the runs folder is a file, not a folder", **where)
    above = next((p for p in runs.parents if p.exists()), None)
    if above is not None and not above.is_dir():
        raise ConfigError(f"the runs folder cannot be made: {above} is a file", **where)


def run_config(night: Night, shard: Any = None) -> RunConfig:
    """The run configuration of this night: its run keys (``RunSettings``) with the paths
    resolved, recorded as started by the nightly job."""
    cfg = night.config
    settings = cfg.model_dump(include=set(RunSettings.model_fields))
    return RunConfig.model_validate({
        **settings, "profile": night.profile, "corpora": [str(c) for c in night.corpora],
        "browser": cfg.browser.model_dump(include=set(BrowserConfig.model_fields)),
        "shard": str(shard) if shard else None, "nightly": night.name})


def run_context(night: Night, run_id: str | None, resume: str | None,
                progress: Any = None) -> Any:
    """``harness.RunContext`` for this night: where it goes, the loaded profile, the
    customer model and the browser (from the environment where the configuration leaves
    them out)."""
    import harness
    from harness.customers import LlmSettings

    cfg = night.config
    b = cfg.browser
    ctx = harness.RunContext(
        profile=harness.load_profile(night.profile), runs_dir=night.runs_dir,
        run_id=None if resume else run_id, resume=resume,
        llm=LlmSettings.from_options(**cfg.llm.model_dump())
        if cfg.customer == "llm" and cfg.llm is not None else None,
        browser=harness.BrowserChoice.from_options(
            executable=b.executable, channel=b.channel, cdp_url=b.cdp_url,
            ws_endpoint=b.ws_endpoint))
    if progress is not None:
        ctx.progress = progress
    return ctx


def run_setup(night: Night, run_id: str | None, resume: str | None, shard: Any = None,
              progress: Any = None) -> tuple[RunConfig, Any]:
    """The run configuration and the ``harness.RunContext`` of this night's run."""
    return run_config(night, shard), run_context(night, run_id, resume, progress)
