"""A local dev environment for the product a profile names: stores plus the product per lane.

The profile's ``[dev]`` says how: ``builtin = "reference_app"`` (this project's own product)
or a ``command`` with placeholders. A profile without ``[dev]`` is refused — the harness never
silently runs the reference app in a foreign product's place.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from claims_records import ProfileError

from .profile import Lane, Profile

if TYPE_CHECKING:
    from claims_dev import DevEnvironment


def _variables(profile: Profile, env: DevEnvironment) -> dict[str, str]:
    """Environment variables the harness itself needs to reach the started product."""
    out: dict[str, str] = {}
    ep = profile.reset.endpoint
    if ep is not None and ep.auth_env and "reset_token" in env.tokens:
        out[ep.auth_env] = env.tokens["reset_token"]
    if profile.staff.sign_in == "header" and "staff_token" in env.tokens:
        out[profile.staff.token_env] = env.tokens["staff_token"]
    st = profile.stores
    if st is not None:
        if st.mongo_uri_env:
            out[st.mongo_uri_env] = env.mongo_uri
        for var, value in ((st.s3_endpoint_env, env.s3.endpoint),
                           (st.s3_access_key_env, env.s3.access_key),
                           (st.s3_secret_key_env, env.s3.secret_key)):
            if var:
                out[var] = value
        # The product's SQLite files and uploads in the data folder ({sql_url}, {files_dir}):
        # the stores replace the URL's stem with each lane's database and add each lane's
        # bucket to the folder, which gives every lane exactly what its product was given.
        dev = profile.dev
        if env.data_dir is not None and dev is not None:
            if st.sql_url_env and dev.uses("sql_url"):
                out[st.sql_url_env] = env.sql_url(env.database)
            if st.files_dir_env and dev.uses("files_dir"):
                out[st.files_dir_env] = str(env.files_dir())
    if profile.seed.token_env:
        out[profile.seed.token_env] = env.seed_token
    return out


@contextlib.contextmanager
def _environ(values: dict[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def dev_product(profile: Profile, lanes: int, packs_root: Path, runtime: str = "reference",
                faults: Sequence[str] = ()) -> Iterator[tuple[Profile, DevEnvironment]]:
    """Start stores and the profile's product on ``lanes`` lanes; yield (the profile pointed
    at them, the ``claims_dev.DevEnvironment``). Everything started is stopped on exit."""
    from claims_dev import ProductCommand, start_dev

    dev = profile.dev
    if dev is None:
        raise ProfileError(
            "the profile does not say how to start this product ([dev]); start the product "
            "yourself and run without --dev", profile=profile.name, field="dev")
    baseline = Path(packs_root) / "baseline.json"
    baseline_path = baseline.resolve() if baseline.is_file() else None
    if dev.builtin == "reference_app":
        env = start_dev(lanes=lanes, app=True, runtime=runtime, faults=faults,
                        baseline_path=baseline_path, database=dev.database)
    else:
        if runtime != "reference" or faults:
            raise ProfileError("--runtime and --fault choose how the reference app runs; this "
                               "profile starts another product", profile=profile.name,
                               field="dev")
        command = ProductCommand(
            argv=tuple(dev.command), env=tuple(dev.env.items()), ready_path=dev.ready_path,
            base_url=dev.base_url, staff_base_url=dev.staff_base_url,
            start_timeout_s=dev.start_timeout_s, name=profile.name)
        env = start_dev(lanes=lanes, app=False, product=command, baseline_path=baseline_path,
                        database=dev.database)
    with env, _environ(_variables(profile, env)):
        pointed = profile.with_lanes([
            Lane(name=ln.name, base_url=ln.base_url or "", seed_url=ln.seed_url,
                 staff_base_url=ln.staff_base_url, database=ln.database, bucket=ln.bucket)
            for ln in env.lanes])
        yield pointed, env
