#!/usr/bin/env python3
"""Measure reset-and-load of one pack on the embedded stores (not a test; prints numbers).

    python scripts/bench_reset.py [PACK_DIR] [--runs 50]

Two paths are measured, each ``--runs`` times after one warm-up: the library call
(``seed.reset_and_load``) and the seed route over HTTP on loopback (``SeedClient.reset``), which
is what the harness does before every trial. Each reset includes the verification read-back.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import pymongo

from claims_corpus import load_baseline, load_setup, setup_files
from claims_dev import BackgroundServer, start_stores
from seed import SeedClient, SeedSettings, create_seed_app, reset_and_load


def _summary(label: str, samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
    return (f"{label:<22} runs {len(ordered):>3}  median {statistics.median(ordered):7.1f} ms  "
            f"p95 {p95:7.1f} ms  min {ordered[0]:7.1f} ms  max {ordered[-1]:7.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="packs/CTL-M-001", type=Path)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args(argv)

    pack = args.pack.resolve()
    setup = load_setup(pack)
    files = setup_files(pack, setup)
    baseline_file = pack.parent / "baseline.json"
    baseline = load_baseline(pack.parent)
    print(f"pack {setup.pack_id}: {sum(len(d) for d in setup.collections.values())} documents, "
          f"{len(setup.objects)} objects, baseline "
          f"{sum(len(d) for d in baseline.collections.values())} documents", flush=True)

    with start_stores() as stores:
        client = pymongo.MongoClient(stores.mongo_uri)
        db = client["claims_harness_bench_lib"]
        lib: list[float] = []
        for i in range(args.runs + 1):
            t = time.perf_counter()
            reset_and_load(db, stores.s3, "claims-bench-lib", baseline, setup, files)
            if i:  # the first run warms up connections and creates the bucket
                lib.append((time.perf_counter() - t) * 1000)

        settings = SeedSettings(enabled=True, token="bench", mongo_uri=stores.mongo_uri,
                                database="claims_harness_bench_http",
                                s3_endpoint=stores.s3.endpoint,
                                bucket="claims-bench-http",
                                baseline_path=baseline_file if baseline_file.is_file() else None)
        http: list[float] = []
        body = setup.model_dump(mode="json")
        with BackgroundServer(create_seed_app(settings)) as server, \
                SeedClient(server.url, "bench") as seed_client:
            for i in range(args.runs + 1):
                t = time.perf_counter()
                seed_client.reset(body, files)
                if i:
                    http.append((time.perf_counter() - t) * 1000)
        client.close()

    print(_summary("library reset_and_load", lib))
    print(_summary("seed route over HTTP", http))
    return 0


if __name__ == "__main__":
    sys.exit(main())
