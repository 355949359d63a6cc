"""Embedded stores on loopback for the seed tests, and small setups to seed."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pymongo
import pytest
from pymongo.database import Database

from claims_corpus.formats import Baseline, Setup
from claims_dev import DevStores
from seed import S3Config

_counter = itertools.count(1)


@dataclass
class LaneStores:
    db: Database
    s3: S3Config
    bucket: str


@pytest.fixture
def lane(stores: DevStores, mongo: pymongo.MongoClient) -> LaneStores:
    """A fresh database and bucket name for one test."""
    n = next(_counter)
    return LaneStores(db=mongo[f"claims_test_{n}"], s3=stores.s3, bucket=f"claims-test-{n}")


def make_baseline() -> Baseline:
    return Baseline(
        collections={
            "staff": [{"_id": "staff-001", "username": "handler", "role": "claims_handler"}],
            "counters": [{"_id": "claim_number", "next": 1}],
        },
        staff_credentials={"username": "handler", "password": "handler-pass-1"},
    )


PHOTO = b"\xff\xd8\xff" + b"photo-bytes" * 100
QUOTE = b"%PDF-1.4 quote" * 50


def make_setup_a() -> tuple[Setup, dict[str, bytes]]:
    setup = Setup(
        pack_id="CTL-M-001",
        claimant_session="anonymous",
        collections={
            "customers": [{"_id": "cust-1", "name": "Ada Example", "email": "ada@example.test"}],
            "policies": [{"_id": "POL-1", "customer_id": "cust-1", "line": "motor",
                          "start_date": "2025-01-01", "cover": {"excess": 250}}],
            "prior_claims": [],
        },
        objects=[
            {"key": "policies/POL-1/photo.jpg", "file": "input/materials/photo.jpg",
             "content_type": "image/jpeg"},
            {"key": "policies/POL-1/quote.pdf", "file": "input/materials/quote.pdf",
             "content_type": "application/pdf"},
        ],
        overrides=[{"collection": "staff", "id": "staff-001", "set": {"shift.active": True}}],
        known_ids={"policy_number": "POL-1"},
    )
    return setup, {"input/materials/photo.jpg": PHOTO, "input/materials/quote.pdf": QUOTE}


def make_setup_b() -> tuple[Setup, dict[str, bytes]]:
    setup = Setup(
        pack_id="CTL-H-002",
        claimant_session="account",
        collections={
            "customers": [{"_id": "cust-2", "name": "Bo Example"}],
            "policies": [{"_id": "POL-2", "customer_id": "cust-2", "line": "home"}],
            "accounts": [{"_id": "acct-2", "email": "bo@example.test"}],
        },
        objects=[{"key": "policies/POL-2/receipt.pdf", "file": "input/materials/receipt.pdf",
                  "content_type": "application/pdf"}],
        overrides=[{"collection": "staff", "id": "staff-001", "delete": True}],
        customer_credentials={"username": "bo@example.test", "password": "bo-pass-1"},
        staff_credentials={"username": "senior", "password": "senior-pass-1"},
        known_ids={"policy_number": "POL-2"},
    )
    return setup, {"input/materials/receipt.pdf": b"%PDF receipt"}
