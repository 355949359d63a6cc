"""``python -m reference_app``: start the reference claims app. Every option but --fault can
also come from the environment (CLAIMS_APP_<NAME>; the seed route's CLAIMS_HARNESS_SEED_TOKEN
and CLAIMS_HARNESS_SEED_ENABLED). Faults come only from --fault: CLAIMS_APP_FAULTS is refused."""

from __future__ import annotations

import argparse
import sys

from pydantic import ValidationError

from ._settings import FAULTS, AppSettings, FaultsFromEnvironment


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, AppSettings]:
    p = argparse.ArgumentParser(prog="python -m reference_app", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--mongo-uri")
    p.add_argument("--database")
    p.add_argument("--s3-endpoint")
    p.add_argument("--s3-access-key")
    p.add_argument("--s3-secret-key")
    p.add_argument("--bucket")
    p.add_argument("--runtime", choices=["reference", "controlled", "model"])
    p.add_argument("--fault", action="append", choices=list(FAULTS), dest="faults")
    p.add_argument("--seed-token")
    p.add_argument("--enable-seed-route", action="store_true", default=None, dest="seed_enabled")
    p.add_argument("--baseline", dest="baseline_path")
    p.add_argument("--model-base-url")
    p.add_argument("--model-name")
    p.add_argument("--model-api-key")
    p.add_argument("--model-timeout", type=float, dest="model_timeout_s")
    p.add_argument("--max-upload-bytes", type=int)
    args = p.parse_args(argv)
    overrides = {k: v for k, v in vars(args).items() if k not in ("host", "port")}
    settings = AppSettings.from_env(**overrides)
    return args, settings


def main(argv: list[str] | None = None) -> int:
    try:
        args, settings = parse_args(argv)
    except FaultsFromEnvironment as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ValidationError as exc:
        print(f"error: invalid settings: {exc}", file=sys.stderr)
        return 2
    if settings.seed_enabled and not settings.seed_token:
        print(
            "error: --enable-seed-route needs --seed-token (or CLAIMS_HARNESS_SEED_TOKEN)",
            file=sys.stderr,
        )
        return 2
    from . import serve

    print(f"reference app ({settings.runtime}) on http://{args.host}:{args.port}/", flush=True)
    serve(settings, args.host, args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
