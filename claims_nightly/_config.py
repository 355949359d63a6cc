"""Reading a nightly configuration (TOML) and turning it into run options."""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from claims_records import ConfigError, NightlyConfig


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

    def resolve(p: str) -> Path:
        q = Path(p).expanduser()
        return q if q.is_absolute() else (base / q).resolve()

    profile = config.profile
    if profile.endswith(".toml") or "/" in profile or "\\" in profile:
        profile = str(resolve(profile))
    return Night(config=config, path=path, runs_dir=resolve(config.runs_dir),
                 corpora=[resolve(c) for c in config.corpora], profile=profile)


def run_options(night: Night, run_id: str | None, resume: str | None, shard: Any = None,
                progress: Any = None) -> Any:
    """``harness.RunOptions`` for this night (the profile is loaded here)."""
    import harness
    from harness.customers import LlmSettings

    cfg = night.config
    llm = None
    if cfg.customer == "llm" and cfg.llm is not None:
        llm = LlmSettings.from_options(**cfg.llm.model_dump())
    b = cfg.browser
    browser = harness.BrowserChoice.from_options(
        executable=b.executable, channel=b.channel, cdp_url=b.cdp_url, ws_endpoint=b.ws_endpoint)
    dev = cfg.dev is not None
    recorded = harness.recorded_options(
        profile=night.profile, packs=night.corpora, pack=list(cfg.packs), trials=cfg.trials,
        lanes=cfg.lanes, dev=dev, customer=cfg.customer, tracing=cfg.tracing,
        turn_limit=cfg.turn_limit, stuck_after=cfg.stuck_after, headed=False,
        runtime=cfg.dev.runtime if cfg.dev else None, no_reset=cfg.no_reset,
        allow_unreported_runtime=cfg.allow_unreported_runtime, self_test=False,
        browser_executable=b.executable, browser_channel=b.channel,
        shard=str(shard) if shard else None, llm=llm, nightly=night.name,
        faults=sorted(cfg.dev.faults) if cfg.dev else [])
    options = harness.RunOptions(
        profile=harness.load_profile(night.profile), packs_root=night.corpora[0],
        extra_corpora=list(night.corpora[1:]), runs_dir=night.runs_dir,
        pack_ids=list(cfg.packs), trials=cfg.trials,
        customer=cfg.customer, llm=llm, run_id=None if resume else run_id, resume=resume,
        no_reset=cfg.no_reset, allow_unreported_runtime=cfg.allow_unreported_runtime,
        browser=browser, shard=shard, tracing=cfg.tracing, turn_limit=cfg.turn_limit,
        stuck_after=cfg.stuck_after, recorded_options=recorded)
    if progress is not None:
        options.progress = progress
    return options
