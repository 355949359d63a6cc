"""Kestrel Claims: a small first-notice-of-loss product built unlike the reference app.

A client-rendered customer chat (no test ids, no accounts, a busy placeholder instead of an
idle attribute, "Review details" then "Create claim"), a staff workbench on its own port with
a bearer token and its own words, its own reset endpoint and its own data model. It shares
only the claim rules (``claims_reference_app.rules``). See docs/example-app.md.
"""

from ._apps import KestrelApps, create_apps, serve
from ._settings import KestrelSettings
from ._store import REF_PATTERN

__all__ = ["REF_PATTERN", "KestrelApps", "KestrelSettings", "create_apps", "serve"]
