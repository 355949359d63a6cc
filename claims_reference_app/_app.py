"""Application factory: stores, runtime, routes, templates and the optional seed route."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ._agent_controlled import ControlledAgent
from ._agent_model import ModelAgent
from ._agent_reference import ReferenceAgent
from ._settings import AppSettings
from ._staff_identity import StaffIdentity
from ._store import Store

HERE = Path(__file__).parent


def app_version() -> str:
    try:
        return version("claims-journey-harness")
    except PackageNotFoundError:
        return "0.0.0"


def make_agent(settings: AppSettings):
    if settings.runtime == "controlled":
        return ControlledAgent()
    if settings.runtime == "model":
        return ModelAgent(
            settings.model_base_url,
            settings.model_name,
            settings.model_api_key,
            settings.model_timeout_s,
            settings.model_max_retries,
        )
    return ReferenceAgent()


def runtime_report(settings: AppSettings) -> dict:
    return {
        "runtime": settings.runtime,
        "faults": list(settings.faults),
        "model": settings.model_name if settings.runtime == "model" else None,
        "version": app_version(),
    }


def create_app(settings: AppSettings) -> FastAPI:
    """The reference claims app for ``settings``."""
    from ._customer import router as customer_router
    from ._staff import router as staff_router

    store = Store(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(
        title="Reference claims app", version=app_version(), docs_url=None, redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.store = store
    app.state.agent = make_agent(settings)
    app.state.staff_identity = StaffIdentity()  # staff sessions live outside the data
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals["runtime_report"] = runtime_report(settings)
    app.state.templates = templates
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.get("/api/runtime")
    def runtime() -> dict:
        return runtime_report(settings)

    app.include_router(customer_router)
    app.include_router(staff_router)
    if settings.seed_enabled:
        from seed import SEED_PREFIX, SeedSettings, create_seed_router

        seed_settings = SeedSettings(
            enabled=True,
            token=settings.seed_token,
            mongo_uri=settings.mongo_uri,
            database=settings.database,
            s3_endpoint=settings.s3_endpoint,
            s3_access_key=settings.s3_access_key,
            s3_secret_key=settings.s3_secret_key,
            s3_region=settings.s3_region,
            bucket=settings.bucket,
            baseline_path=Path(settings.baseline_path) if settings.baseline_path else None,
        )
        app.include_router(create_seed_router(seed_settings), prefix=SEED_PREFIX)
    return app
