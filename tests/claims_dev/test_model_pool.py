"""The embedded model's servers behind one address: the router spreads concurrent
conversations over idle servers and keeps each conversation on the server that read it last
(its prompt cache). Stand-in servers answer; the real model is in test_local_model.py."""

from __future__ import annotations

import asyncio
import time

import httpx

from claims_dev import BackgroundServer, default_threads
from claims_dev._model_pool import _Pool, conversation_key, router_app
from harness.panel import StandIn


def test_the_pool_keeps_a_conversation_home_and_otherwise_takes_the_longest_idle():
    pool = _Pool(["a", "b", "c"])
    pool.last_key = ["x", "y", None]
    pool.last_used = [3.0, 1.0, 2.0]
    assert pool.pick("y") == 1  # its own server
    assert pool.pick("z") == 1  # a new conversation: the longest idle
    pool.busy = [False, True, False]
    assert pool.pick("y") == 2  # its server is busy: the longest idle of the rest
    pool.busy = [True, True, True]
    assert pool.pick("x") is None


def test_conversation_key_is_the_system_message():
    a = b'{"messages": [{"role": "system", "content": "S1"}, {"role": "user", "content": "u"}]}'
    b = b'{"messages": [{"role": "system", "content": "S1"}, {"role": "user", "content": "v"}]}'
    c = b'{"messages": [{"role": "system", "content": "S2"}]}'
    assert conversation_key(a) == conversation_key(b) != conversation_key(c)
    assert conversation_key(b"not json") == conversation_key(b"{}")


def test_default_threads_share_the_cores():
    assert default_threads(1, cores=2) == 2
    assert default_threads(2, cores=2) == 1
    assert default_threads(4, cores=2) == 1
    assert default_threads(2, cores=8) == 4


ANSWER_S = 1.0
SPANS: list[tuple[float, float]] = []  # when each slow answer began and ended


def _slow(body: dict) -> str:
    if body["messages"][-1]["content"] == "wait":
        began = time.monotonic()
        time.sleep(ANSWER_S)
        SPANS.append((began, time.monotonic()))
    return '{"kind": "say", "text": "hello"}'


def _ask(url: str, system: str, user: str = "wait") -> asyncio.Future:
    body = {"model": "m", "messages": [{"role": "system", "content": system},
                                       {"role": "user", "content": user}]}

    async def go() -> int:
        async with httpx.AsyncClient(timeout=30, trust_env=False) as http:
            r = await http.post(f"{url}/v1/chat/completions", json=body)
            return r.status_code

    return go()  # type: ignore[return-value]


def test_the_router_serves_conversations_side_by_side_and_each_on_its_own_server():
    with StandIn(_slow) as one, StandIn(_slow) as two, \
            BackgroundServer(router_app([one.url, two.url])) as router:

        async def both() -> list[int]:
            return list(await asyncio.gather(_ask(router.url, "A"), _ask(router.url, "B")))

        SPANS.clear()
        assert asyncio.run(both()) == [200, 200]
        assert len(one.requests) == len(two.requests) == 1
        (a0, a1), (b0, b1) = SPANS
        assert max(a0, b0) < min(a1, b1)  # side by side: the answers overlapped
        home_of_a = one if one.requests[0]["messages"][0]["content"] == "A" else two
        for _ in range(2):  # A again, B again, one after the other: each to its own server
            assert asyncio.run(_ask(router.url, "A", "again")) == 200
            assert asyncio.run(_ask(router.url, "B", "again")) == 200
        assert [r["messages"][0]["content"] for r in home_of_a.requests] == ["A"] * 3
        # anything but a completion goes to the first server
        direct = httpx.get(f"{one.url}/v1/models", trust_env=False).status_code
        assert httpx.get(f"{router.url}/v1/models", trust_env=False).status_code == direct
        assert len(one.requests) + len(two.requests) == 6


def test_three_conversations_on_two_servers_wait_for_a_free_one():
    with StandIn(_slow) as one, StandIn(_slow) as two, \
            BackgroundServer(router_app([one.url, two.url])) as router:

        async def three() -> list[int]:
            return list(await asyncio.gather(*(_ask(router.url, s) for s in "ABC")))

        SPANS.clear()
        assert asyncio.run(three()) == [200] * 3
        assert sorted([len(one.requests), len(two.requests)]) == [1, 2]
        first, second, third = sorted(SPANS)
        assert max(first[0], second[0]) < min(first[1], second[1])  # two side by side
        assert third[0] >= min(first[1], second[1])  # the third waited for a free server
