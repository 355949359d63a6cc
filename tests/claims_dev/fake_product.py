"""A stand-in product for dev-environment tests: takes the reference app's command line,
answers GET /api/runtime and mounts the seed route, like any Python product would. Secrets
come from the environment, as start_dev passes them."""

from __future__ import annotations

import argparse
import os
import sys

import uvicorn
from fastapi import FastAPI

from seed import SEED_PREFIX, SeedSettings, create_seed_router


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser()
    for flag in ("--host", "--port", "--database", "--s3-endpoint", "--s3-access-key",
                 "--bucket", "--runtime", "--baseline"):
        p.add_argument(flag)
    p.add_argument("--enable-seed-route", action="store_true")
    p.add_argument("--fault", action="append", default=[])
    p.add_argument("--exit-at-once", action="store_true")
    a = p.parse_args(argv)
    if "crash_on_start" in a.fault:
        print("fake product: crashing as asked", flush=True)
        sys.exit(3)
    env = os.environ
    settings = SeedSettings(enabled=a.enable_seed_route, token=env["CLAIMS_HARNESS_SEED_TOKEN"],
                            mongo_uri=env["CLAIMS_APP_MONGO_URI"], database=a.database,
                            s3_endpoint=a.s3_endpoint, s3_access_key=a.s3_access_key,
                            s3_secret_key=env["CLAIMS_APP_S3_SECRET_KEY"], bucket=a.bucket,
                            baseline_path=a.baseline)
    app = FastAPI()

    @app.get("/api/runtime")
    def runtime() -> dict:
        return {"runtime": a.runtime, "faults": a.fault, "model": None, "version": "test"}

    app.include_router(create_seed_router(settings), prefix=SEED_PREFIX)
    uvicorn.run(app, host=a.host, port=int(a.port), log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1:])
