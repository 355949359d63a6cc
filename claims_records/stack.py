"""The running dev stack: what `claims-harness dev up` started, for `claims-harness run`.

    <working folder>/.claims-harness.stack.json   DevStack   written by `dev up`, removed
                                                             when it stops
    <working folder>/.claims-harness-NAME.stack.json         the same, for `dev up --name NAME`

The file is also the stack's claim on its folder: `dev up` writes it (``state`` ``starting``)
before it starts anything, and a second `dev up` for the same file is refused while the first
is running. It becomes ``ready`` once every process answers, and ``dead`` (with ``died``
saying which process ended and how) when one of them ends; a dead stack's file is kept so that
`run` can say why it refuses it. A file whose ``pid`` is no longer running belongs to a
`dev up` that was killed. The seed token is never in this file: it stays in the env file
``env_file`` names.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ._base import Strict

DEV_STACK_FORMAT_VERSION = "2"
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


class StackProcess(Strict):
    """A process `dev up` started for the stack (each in a process group of its own)."""

    name: str = Field(description="What it is: 'lane1 app', 'embedded mongo', 'embedded s3', "
                      "'embedded model'.")
    pid: int = Field(description="Its process id.")


class DevStack(Strict):
    """.claims-harness.stack.json — the stack a running `claims-harness dev up` serves."""

    version: str = Field(DEV_STACK_FORMAT_VERSION, description="Format version of this file.")
    pid: int = Field(description="Process id of the `dev up` process serving the stack; the "
                     "file is stale once that process is gone.")
    state: Literal["starting", "ready", "dead"] = Field(
        "ready", description="'starting': `dev up` claimed this file and is starting the "
        "stack (nothing below is known yet); 'ready': every process answers; 'dead': one of "
        "them ended (``died`` says which and how) and `dev up` stopped the rest.")
    started_at: str = Field(description="When `dev up` claimed the file (state 'starting') or "
                            "the stack was ready (UTC, ISO 8601).")
    product: str = Field(description="What each lane serves: 'reference_app' (the reference "
                         "app with its seed route) or 'seed_route' (dev up --no-app).")
    runtime: str | None = Field(description="The reference app's runtime; null without an app.")
    mongo_uri: str | None = Field(None, description="The MongoDB every lane's database is in; "
                                  "null while starting.")
    s3_endpoint: str | None = Field(None, description="The S3 endpoint every lane's bucket is "
                                    "on; null while starting.")
    env_file: str = Field(description="Absolute path of the env file `dev up` writes beside "
                          "this file (it holds the seed token, which this file never does).")
    lanes: list[StackLane] = Field(default_factory=list, description="The lanes, in order; "
                                   "empty while starting.")
    processes: list[StackProcess] = Field(default_factory=list, description="The processes "
                                          "`dev up` started for the stack (apps, embedded "
                                          "stores, embedded model); a seed route served by "
                                          "`dev up` itself is not listed.")
    died: str | None = Field(None, description="With state 'dead': which process ended, how "
                             "(exit code or signal) and when.")

    @model_validator(mode="after")
    def _complete_when_ready(self) -> DevStack:
        if self.state != "starting" and (not self.lanes or self.mongo_uri is None
                                         or self.s3_endpoint is None):
            raise ValueError(f"a {self.state} stack names its lanes, mongo_uri and s3_endpoint")
        if (self.state == "dead") != (self.died is not None):
            raise ValueError("'died' is given exactly when the state is 'dead'")
        return self
