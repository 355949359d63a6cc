"""The browser side of the harness: getting a browser (launch or connect), the customer's
browser context for one trial, reading and watching the screen, Playwright selectors inside
one in-page read, driving the customer screen through a profile, and screenshots as evidence."""

from ._browser import (
    UPLOAD_ACKNOWLEDGED,
    UPLOAD_REFUSED,
    VIEWPORT,
    CustomerPage,
    launch_browser,
    slug,
)
from ._camera import Camera
from ._customer_tab import CustomerTab
from ._launch import BROWSER_CRASH, BrowserChoice, BrowserKeeper, open_browser, system_browsers
from ._marks import PageSelectors, first_match, visible_text
from ._screen import Probe, Reading

__all__ = [
    "BROWSER_CRASH",
    "UPLOAD_ACKNOWLEDGED",
    "UPLOAD_REFUSED",
    "VIEWPORT",
    "BrowserChoice",
    "BrowserKeeper",
    "Camera",
    "CustomerPage",
    "CustomerTab",
    "PageSelectors",
    "Probe",
    "Reading",
    "first_match",
    "launch_browser",
    "open_browser",
    "slug",
    "system_browsers",
    "visible_text",
]
