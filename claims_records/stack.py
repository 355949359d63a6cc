"""The running dev stack: what `claims-harness dev up` started, for `claims-harness run`.

    <working folder>/.claims-harness.stack.json   DevStack   written by `dev up`, removed
                                                             when it stops

A stack file whose ``pid`` is no longer running is stale (a `dev up` that was killed) and is
ignored. The seed token is never in this file: it stays in the env file ``env_file`` names.
"""

from __future__ import annotations

from pydantic import Field

from ._base import Strict

DEV_STACK_FORMAT_VERSION = "1"
DEV_STACK_FILE = ".claims-harness.stack.json"


class StackLane(Strict):
    """One lane of the running stack: a product instance with its own database and bucket."""

    name: str = Field(description="Lane name (lane1, lane2, ...).")
    base_url: str | None = Field(description="The product's root URL in this lane; null when "
                                 "only the seed route runs (dev up --no-app).")
    staff_base_url: str | None = Field(None, description="The staff side's root URL, when it "
                                       "has its own origin.")
    seed_url: str = Field(description="The seed route's root URL in this lane.")
    database: str = Field(description="The lane's database name.")
    bucket: str = Field(description="The lane's bucket name.")


class DevStack(Strict):
    """.claims-harness.stack.json — the stack a running `claims-harness dev up` serves."""

    version: str = Field(DEV_STACK_FORMAT_VERSION, description="Format version of this file.")
    pid: int = Field(description="Process id of the `dev up` process serving the stack; the "
                     "file is stale once that process is gone.")
    started_at: str = Field(description="When the stack was ready (UTC, ISO 8601).")
    product: str = Field(description="What each lane serves: 'reference_app' (the reference "
                         "app with its seed route) or 'seed_route' (dev up --no-app).")
    runtime: str | None = Field(description="The reference app's runtime; null without an app.")
    mongo_uri: str = Field(description="The MongoDB every lane's database is in.")
    s3_endpoint: str = Field(description="The S3 endpoint every lane's bucket is on.")
    env_file: str = Field(description="Absolute path of the env file `dev up` wrote beside "
                          "this file (it holds the seed token, which this file never does).")
    lanes: list[StackLane] = Field(min_length=1, description="The lanes, in order.")
