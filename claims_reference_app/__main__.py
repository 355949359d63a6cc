"""``python -m claims_reference_app``: start the reference claims app. Every option but --fault can
also come from the environment (CLAIMS_APP_<NAME>; the seed route's CLAIMS_HARNESS_SEED_TOKEN
and CLAIMS_HARNESS_SEED_ENABLED). Faults come only from --fault: CLAIMS_APP_FAULTS is refused.
Secrets come only from the environment: a command line is visible to every user of the
machine (``ps``)."""

from __future__ import annotations

import argparse
import sys
from urllib.parse import urlsplit

from pydantic import ValidationError

from ._settings import (
    FAULTS,
    RECOVERABLE_FAULTS,
    SEED_TOKEN_ENV,
    AppSettings,
    FaultsFromEnvironment,
)

# Secret settings and the only place each may come from.
SECRET_FLAGS: dict[str, str] = {
    "--seed-token": SEED_TOKEN_ENV,
    "--s3-secret-key": "CLAIMS_APP_S3_SECRET_KEY",
    "--model-api-key": "CLAIMS_APP_MODEL_API_KEY",
}


class _SecretOnCommandLine(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None) -> None:
        parser.error(f"{option_string} is not taken on the command line, where every user of "
                     f"the machine can read it; set {SECRET_FLAGS[option_string]} instead")


def _uri_without_password(value: str) -> str:
    if urlsplit(value).password:
        raise argparse.ArgumentTypeError(
            "a MongoDB URI holding a password is not taken on the command line; set "
            "CLAIMS_APP_MONGO_URI instead")
    return value


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, AppSettings]:
    p = argparse.ArgumentParser(prog="python -m claims_reference_app", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--mongo-uri", type=_uri_without_password)
    p.add_argument("--database")
    p.add_argument("--s3-endpoint")
    p.add_argument("--s3-access-key")
    p.add_argument("--bucket")
    p.add_argument("--runtime", choices=["reference", "controlled", "model"])
    p.add_argument("--fault", action="append", choices=[*FAULTS, *RECOVERABLE_FAULTS],
                   dest="faults")
    p.add_argument("--enable-seed-route", action="store_true", default=None, dest="seed_enabled")
    p.add_argument("--baseline", dest="baseline_path")
    p.add_argument("--model-base-url")
    p.add_argument("--model-name")
    p.add_argument("--model-timeout", type=float, dest="model_timeout_s")
    p.add_argument("--model-max-retries", type=int, dest="model_max_retries")
    p.add_argument("--max-upload-bytes", type=int)
    for flag in SECRET_FLAGS:
        p.add_argument(flag, action=_SecretOnCommandLine, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    skip = {"host", "port", *(f.lstrip("-").replace("-", "_") for f in SECRET_FLAGS)}
    overrides = {k: v for k, v in vars(args).items() if k not in skip}
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
            f"error: --enable-seed-route needs a token in {SEED_TOKEN_ENV}",
            file=sys.stderr,
        )
        return 2
    from . import serve

    print(f"reference app ({settings.runtime}) on http://{args.host}:{args.port}/", flush=True)
    serve(settings, args.host, args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
