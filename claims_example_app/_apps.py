"""Building the customer app and the workbench app, and serving both from one process."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ._assistant import Assistant
from ._settings import KestrelSettings
from ._store import Store

HERE = Path(__file__).parent


def build_version() -> str:
    try:
        return "kestrel-claims " + version("claims-journey-harness")
    except PackageNotFoundError:
        return "kestrel-claims 0.0.0"


@dataclass
class KestrelApps:
    """The two apps of one instance and the store they share."""

    customer: FastAPI
    workbench: FastAPI | None
    store: Store


def create_apps(settings: KestrelSettings) -> KestrelApps:
    """The customer app and (when a staff token is set) the workbench app."""
    from ._customer import router as customer_router
    from ._ops import create_ops_router
    from ._workbench import create_workbench_app

    store = Store(settings)
    app = FastAPI(title="Kestrel Claims", version=build_version(), docs_url=None,
                  redoc_url=None, openapi_url=None)
    app.state.settings = settings
    app.state.store = store
    app.state.assistant = Assistant(store)
    app.state.templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/assets", StaticFiles(directory=str(HERE / "static")), name="assets")
    app.include_router(customer_router)
    app.include_router(create_ops_router())
    workbench = (create_workbench_app(store, settings.staff_token, build_version())
                 if settings.staff_token else None)
    return KestrelApps(app, workbench, store)


async def _serve(apps: KestrelApps, host: str, port: int, staff_host: str,
                 staff_port: int) -> None:
    import uvicorn

    servers = [uvicorn.Server(uvicorn.Config(apps.customer, host=host, port=port,
                                             log_level="warning"))]
    if apps.workbench is not None:
        servers.append(uvicorn.Server(uvicorn.Config(apps.workbench, host=staff_host,
                                                     port=staff_port, log_level="warning")))
    tasks = [asyncio.create_task(s.serve()) for s in servers]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for s in servers:  # one server stopping (a signal, a port in use) stops the other
            s.should_exit = True
        await asyncio.gather(*tasks, return_exceptions=True)


def serve(settings: KestrelSettings, host: str = "127.0.0.1", port: int = 8300,
          staff_host: str = "127.0.0.1", staff_port: int = 8301) -> None:
    """Run the customer app (and the workbench) with uvicorn until interrupted."""
    apps = create_apps(settings)
    try:
        asyncio.run(_serve(apps, host, port, staff_host, staff_port))
    finally:
        apps.store.close()
