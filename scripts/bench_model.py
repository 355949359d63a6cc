"""Bench the embedded model's server under concurrent customers (one run).

    python scripts/bench_model.py                                  # 1, 2, 4 clients, both layouts
    python scripts/bench_model.py --clients 1 --clients 4 --requests 4 --out model.json

Real customer prompts first: the LLM customer plays the recorded screens of a few packs
(harness/panel/screens) against a local stand-in that keeps every request body, so the bench
sends what a run sends (about 1,500 prompt tokens). Then, per layout and client count, it
starts the embedded model (``claims_dev.start_model_server``), lets each client play one
pack's requests in order (a lane plays one conversation at a time), and reports completions
per minute, seconds per answer, tokens, and the servers' memory (proportional set size, so
the model file's pages shared by several servers count once).

Layouts: ``shared`` is one server for every client (llama-cpp-python serves one request at a
time); ``per_client`` is one server per client behind one address (``model serve
--instances N``). docs/llm-customer.md, "Model time", reads the numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PACKS = ["CTL-M-001", "CTL-H-001", "CTL-C-001", "CTL-M-003"]


def capture_bodies(packs: list[str], steps: int) -> dict[str, list[dict[str, Any]]]:
    """The request bodies the LLM customer sends on each pack's recorded screens."""
    from harness import make_customer, panel
    from harness.customers import LlmSettings
    from scoring.fidelity import audit_trial

    out: dict[str, list[dict[str, Any]]] = {}
    with panel.StandIn(panel.stand_in_behaviour("well_behaved")) as stand_in:
        settings = LlmSettings(model="smollm2", base_url=stand_in.base_url, temperature=0.0,
                               seed=7, max_tokens=200, response_format="json_object_schema")
        screens = panel.load_screens()
        for pid in packs:
            before = len(stand_in.requests)
            panel.run_panel(lambda view, d: make_customer("llm", view, d, settings),
                            REPO / "packs", screens, audit_trial, [pid])
            out[pid] = stand_in.requests[before:before + steps]
    return out


async def _client(base_url: str, bodies: list[dict[str, Any]], max_tokens: int,
                  timeout: float) -> list[dict[str, Any]]:
    import httpx

    out = []
    async with httpx.AsyncClient(timeout=timeout, trust_env=False) as http:
        for body in bodies:
            body = {**body, "max_tokens": max_tokens}
            started = time.monotonic()
            r = await http.post(f"{base_url}/chat/completions", json=body)
            took = time.monotonic() - started
            usage = r.json().get("usage", {}) if r.status_code == 200 else {}
            out.append({"status": r.status_code, "s": round(took, 3),
                        "prompt_tokens": usage.get("prompt_tokens"),
                        "completion_tokens": usage.get("completion_tokens")})
    return out


def measure(layout: str, clients: int, bodies: dict[str, list[dict[str, Any]]],
            max_tokens: int, threads: int | None) -> dict[str, Any]:
    from claims_dev import start_model_server
    from harness.bench import tree_pss_mb

    packs = list(bodies)
    instances = clients if layout == "per_client" else 1
    server = start_model_server(instances=instances, threads=threads)
    try:
        url = server.model.base_url
        # one answer per server first (the first answer pages the weights in), to a prompt
        # that shares nothing with the measured ones (a server reuses the last one read)
        warm = [{**b[0], "messages": [{"role": "user", "content": "Hello."}]}
                for b in bodies.values()]
        asyncio.run(_gather([url] * instances, [[warm[i % len(warm)]] for i in
                                                range(instances)], max_tokens))
        load = os.getloadavg()[0]
        started = time.monotonic()
        results = asyncio.run(_gather([url] * clients,
                                      [bodies[packs[i % len(packs)]] for i in range(clients)],
                                      max_tokens))
        wall = time.monotonic() - started
        pss = sum(tree_pss_mb(pid) for pid in server.pids)
    finally:
        server.stop()
    calls = [c for r in results for c in r]
    ok = [c for c in calls if c["status"] == 200]
    return {
        "layout": layout, "clients": clients, "instances": instances, "wall_s": round(wall, 2),
        "answers": len(calls), "failed": len(calls) - len(ok),
        "answers_per_min": round(60 * len(ok) / wall, 2),
        "s_per_answer_mean": round(sum(c["s"] for c in ok) / max(1, len(ok)), 2),
        "prompt_tokens_mean": round(sum(c["prompt_tokens"] or 0 for c in ok) / max(1, len(ok))),
        "completion_tokens_mean": round(
            sum(c["completion_tokens"] or 0 for c in ok) / max(1, len(ok)), 1),
        "pss_mb": round(pss, 1), "load_before": round(load, 2),
    }


async def _gather(urls: list[str], per_client: list[list[dict[str, Any]]],
                  max_tokens: int) -> list[list[dict[str, Any]]]:
    return list(await asyncio.gather(*(_client(u, b, max_tokens, 600.0)
                                       for u, b in zip(urls, per_client, strict=True))))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, action="append", help="concurrent clients "
                    "(repeatable; default 1, 2, 4)")
    ap.add_argument("--layout", action="append", choices=["shared", "per_client"],
                    help="server layout (repeatable; default both)")
    ap.add_argument("--requests", type=int, default=3, help="answers per client")
    ap.add_argument("--max-tokens", type=int, default=50, help="completion tokens per answer")
    ap.add_argument("--threads", type=int, default=None, help="threads per server")
    ap.add_argument("--out", type=Path, help="write the report as JSON")
    args = ap.parse_args(argv)
    # a stop (timeout, kill) unwinds through the finally blocks that stop the servers
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    bodies = capture_bodies(PACKS, args.requests)
    report: dict[str, Any] = {"load_start": os.getloadavg(), "cores": os.cpu_count(),
                              "rows": []}
    # interleave the layouts per client count: drift in a shared machine's load hits both
    for clients in args.clients or [1, 2, 4]:
        for layout in args.layout or ["shared", "per_client"]:
            if layout == "per_client" and clients == 1 and "shared" in (args.layout or
                                                                        ["shared"]):
                continue  # the same as shared
            row = measure(layout, clients, bodies, args.max_tokens, args.threads)
            report["rows"].append(row)
            print(json.dumps(row), flush=True)
    report["load_end"] = os.getloadavg()
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
