"""``python -m claims_example_app``: start Kestrel Claims (customer chat, and the staff workbench on
its own port).

Secrets come from the environment only: KESTREL_S3_ACCESS_KEY, KESTREL_S3_SECRET_KEY
(required), KESTREL_STAFF_TOKEN (the workbench's bearer token; without it the workbench is
not started), KESTREL_OPS_KEY (X-Ops-Key of /ops/fixtures and /ops/about; required with
--enable-ops-reset). Every other option can also be set as KESTREL_<OPTION> (e.g.
KESTREL_DATABASE, KESTREL_OPS_RESET=1); a flag wins over the environment.
"""

from __future__ import annotations

import argparse
import sys

from pydantic import ValidationError

from ._settings import OPS_KEY_ENV, S3_ACCESS_KEY_ENV, S3_SECRET_KEY_ENV, KestrelSettings


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, KestrelSettings]:
    p = argparse.ArgumentParser(
        prog="python -m claims_example_app", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1", help="customer chat host (127.0.0.1)")
    p.add_argument("--port", type=int, default=8300, help="customer chat port (8300)")
    p.add_argument("--staff-host", default="127.0.0.1", help="workbench host (127.0.0.1)")
    p.add_argument("--staff-port", type=int, default=8301, help="workbench port (8301)")
    p.add_argument("--mongo-uri", help="MongoDB URI (mongodb://127.0.0.1:27017/)")
    p.add_argument("--database", help="MongoDB database (kestrel)")
    p.add_argument("--s3-endpoint", help="S3 / MinIO endpoint URL (http://127.0.0.1:9000)")
    p.add_argument("--s3-region", help="S3 region (us-east-1)")
    p.add_argument("--bucket", help="bucket for customers' files (kestrel-uploads)")
    p.add_argument("--agent-latency-ms", type=int,
                   help="the assistant's thinking time per reply (250)")
    p.add_argument("--greeting-delay-ms", type=int,
                   help="delay before a new conversation's greeting (1000)")
    p.add_argument("--chunk-gap-ms", type=int,
                   help="gap between the two parts of a two-part reply (300)")
    p.add_argument("--max-upload-bytes", type=int, help="largest accepted file (5242880)")
    p.add_argument("--enable-ops-reset", action="store_true", default=None, dest="ops_reset",
                   help="serve POST /ops/fixtures (off by default; needs KESTREL_OPS_KEY)")
    args = p.parse_args(argv)
    skip = ("host", "port", "staff_host", "staff_port")
    settings = KestrelSettings.from_env(
        **{k: v for k, v in vars(args).items() if k not in skip})
    return args, settings


def main(argv: list[str] | None = None) -> int:
    try:
        args, settings = parse_args(argv)
    except (ValidationError, ValueError) as exc:
        print(f"error: invalid settings: {exc}", file=sys.stderr)
        return 2
    if not (settings.s3_access_key and settings.s3_secret_key):
        print(f"error: set {S3_ACCESS_KEY_ENV} and {S3_SECRET_KEY_ENV}", file=sys.stderr)
        return 2
    if settings.ops_reset and not settings.ops_key:
        print(f"error: --enable-ops-reset needs {OPS_KEY_ENV}", file=sys.stderr)
        return 2
    if args.port == args.staff_port and args.host == args.staff_host:
        print("error: --port and --staff-port must differ", file=sys.stderr)
        return 2
    from . import serve

    print(f"Kestrel Claims on http://{args.host}:{args.port}/", flush=True)
    if settings.staff_token:
        print(f"Kestrel workbench on http://{args.staff_host}:{args.staff_port}/", flush=True)
    else:
        print("Kestrel workbench not started (KESTREL_STAFF_TOKEN is not set)", flush=True)
    serve(settings, args.host, args.port, args.staff_host, args.staff_port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
