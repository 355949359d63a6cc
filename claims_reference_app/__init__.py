"""A small claims product that honours docs/product-contract.md: customer workspace, staff
workbench, the claim rules and three agent runtimes (reference, controlled, model)."""

from ._app import create_app, runtime_report
from ._settings import (
    FAULTS,
    FAULTS_ENV,
    RECOVERABLE_FAULTS,
    AppSettings,
    Fault,
    FaultsFromEnvironment,
)
from ._store import hash_password, verify_password

__all__ = [
    "FAULTS",
    "FAULTS_ENV",
    "RECOVERABLE_FAULTS",
    "AppSettings",
    "Fault",
    "FaultsFromEnvironment",
    "create_app",
    "hash_password",
    "runtime_report",
    "serve",
    "verify_password",
]


def serve(settings: AppSettings, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the app with uvicorn until interrupted."""
    import uvicorn

    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")
