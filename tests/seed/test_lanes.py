"""Two lanes reset and loaded at the same time stay apart."""

from __future__ import annotations

import threading

from seed import dump_state, reset_and_load

from .conftest import LaneStores, make_baseline, make_setup_a, make_setup_b


def test_two_lanes_seeded_concurrently_stay_separate(stores, mongo):
    lanes = [LaneStores(mongo["claims_test_lane_a"], stores.s3, "claims-test-lane-a"),
             LaneStores(mongo["claims_test_lane_b"], stores.s3, "claims-test-lane-b")]
    packs = [make_setup_a(), make_setup_b()]
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def work(lane: LaneStores, setup, files) -> None:
        try:
            barrier.wait()
            for _ in range(5):
                reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)
                lane.db["claims"].insert_one({"_id": f"claim-of-{setup.pack_id}"})
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(lane, *pack))
               for lane, pack in zip(lanes, packs, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []

    a = dump_state(lanes[0].db, lanes[0].s3, lanes[0].bucket)
    b = dump_state(lanes[1].db, lanes[1].s3, lanes[1].bucket)
    assert set(a.collections["policies"]) == {"POL-1"}
    assert set(b.collections["policies"]) == {"POL-2"}
    assert set(a.collections["claims"]) == {"claim-of-CTL-M-001"}
    assert set(b.collections["claims"]) == {"claim-of-CTL-H-002"}
    assert "accounts" not in a.collections and "accounts" in b.collections
    assert set(a.objects) == {"policies/POL-1/photo.jpg", "policies/POL-1/quote.pdf"}
    assert set(b.objects) == {"policies/POL-2/receipt.pdf"}
