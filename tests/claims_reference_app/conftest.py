"""Embedded stores, the app on a fresh database per test, seeded documents and test files."""

from __future__ import annotations

import contextlib
import io
import itertools
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pymongo
import pytest
import uvicorn
from fastapi.testclient import TestClient
from pymongo.database import Database

from claims_dev import DevStores, free_port
from claims_reference_app import AppSettings, create_app, hash_password

_counter = itertools.count(1)

POLICY = "NWF-POL-100234"
CUSTOMER_EMAIL = "sam.taylor@example.test"
CUSTOMER_PASSWORD = "customer-pass-1"
STAFF_USER = "handler"
STAFF_PASSWORD = "handler-pass-1"


def seed_documents(
    db: Database,
    *,
    line: str = "motor",
    account: bool = False,
    prior_claim_dates: tuple[str, ...] = (),
    policy_start: str = "2025-06-01",
) -> None:
    """Insert the documents a pack's setup would: customer, policy, staff, optional account."""
    db.customers.insert_one(
        {"_id": "cust-001", "name": "Sam Taylor", "email": CUSTOMER_EMAIL, "phone": "07700 900123"}
    )
    db.policies.insert_one(
        {
            "_id": "pol-001",
            "policy_number": POLICY,
            "customer_id": "cust-001",
            "line": line,
            "start_date": policy_start,
            "end_date": "2026-12-31",
            "status": "active",
            "vehicle_registration": "AB12 CDE",
            "excess": 250,
        }
    )
    for i, d in enumerate(prior_claim_dates):
        db.prior_claims.insert_one(
            {
                "_id": f"prior-{i}",
                "customer_id": "cust-001",
                "policy_number": POLICY,
                "claim_date": d,
                "line": line,
                "status": "settled",
            }
        )
    if account:
        db.accounts.insert_one(
            {
                "_id": "acct-001",
                "customer_id": "cust-001",
                "email": CUSTOMER_EMAIL,
                "password_hash": hash_password(CUSTOMER_PASSWORD),
            }
        )
    db.staff.insert_one(
        {
            "_id": "staff-001",
            "username": STAFF_USER,
            "name": "Alex Handler",
            "role": "claims_handler",
            "password_hash": hash_password(STAFF_PASSWORD),
        }
    )


@dataclass
class AppUnderTest:
    settings: AppSettings
    db: Database
    client: TestClient


@pytest.fixture
def make_app(stores: DevStores, mongo: pymongo.MongoClient
             ) -> Iterator[Callable[..., AppUnderTest]]:
    """Build the app on a fresh database and bucket: ``make_app(runtime=..., faults=[...])``;
    each app is stopped after the test, as a server stops it (its connections closed)."""
    started = contextlib.ExitStack()

    def build(**overrides: object) -> AppUnderTest:
        n = next(_counter)
        settings = AppSettings(
            mongo_uri=stores.mongo_uri,
            database=f"test_refapp_{n}",
            s3_endpoint=stores.s3.endpoint,
            s3_access_key=stores.s3.access_key,
            s3_secret_key=stores.s3.secret_key,
            bucket=f"test-refapp-{n}",
            **overrides,
        )
        client = started.enter_context(TestClient(create_app(settings)))
        return AppUnderTest(settings, mongo[settings.database], client)

    with started:
        yield build


@pytest.fixture
def app_client(make_app) -> AppUnderTest:
    a = make_app()
    seed_documents(a.db)
    return a


class LiveServer:
    """The app served by uvicorn on a free loopback port, in a thread."""

    def __init__(self, settings: AppSettings) -> None:
        self.port = free_port()
        config = uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=self.port, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def make_pdf(
    title: str,
    date_label: str | None,
    date_text: str | None,
    pages_total: int = 2,
    supplied: tuple[int, ...] | None = None,
    date_page: int = 1,
    total: str | None = "Total: £840.00",
) -> bytes:
    """A document PDF: title line, '<label> date: …' on ``date_page``, 'Page X of N' on every
    page; only the ``supplied`` pages are in the file."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    for page in supplied or tuple(range(1, pages_total + 1)):
        y = 800
        if page == 1:
            c.drawString(72, y, title)
            y -= 24
            c.drawString(72, y, "Smith & Sons Garage, 4 Mill Lane, Leeds")
            y -= 24
        if page == date_page and date_label and date_text:
            c.drawString(72, y, f"{date_label}: {date_text}")
            y -= 24
        if page == pages_total and total:
            c.drawString(72, y, total)
        c.drawString(72, 40, f"Page {page} of {pages_total}")
        c.showPage()
    c.save()
    return buf.getvalue()


def make_jpeg(size: tuple[int, int] = (64, 48)) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", size, (180, 40, 40)).save(buf, format="JPEG")
    return buf.getvalue()
