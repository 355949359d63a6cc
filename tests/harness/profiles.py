"""The smallest profile a test of one profile key starts from: a chat product without
accounts or a staff side, on a port nothing answers — as TOML text (``bare_profile``) or as
the data a test changes a section of (``stand_in``)."""

from __future__ import annotations

from typing import Any

STAND_IN: dict[str, Any] = {
    "capabilities": {"customer_accounts": False, "staff_side": False, "runtime_report": False},
    "completion": {"busy": ".spinner"},
    "customer_screen": {"conversation": ".c", "agent_message": ".bot",
                        "composer_input": "textarea", "composer_send": "button",
                        "claim_number_pattern": "CLM-\\d+"},
}


def stand_in(name: str = "stand-in", **sections: Any) -> dict[str, Any]:
    """A stand-in product's profile data (no accounts, no staff side, no runtime report),
    ``sections`` added or replacing the defaults."""
    return {"name": name, **STAND_IN, **sections}


def bare_profile(name: str, top: str = "", base_url: str = "http://127.0.0.1:9",
                 conversation: str = "role=log",
                 send: str = "role=button[name=Send]") -> str:
    """The profile's TOML text; ``top``: more top-level keys (``locale = "en_IE"``…), a
    section to test goes after the text."""
    return f'''
name = "{name}"
base_url = "{base_url}"
{top}
[capabilities]
customer_accounts = false
staff_side = false

[completion]
busy = ".spinner"

[customer_screen]
conversation = "{conversation}"
agent_message = ".bot"
composer_input = "textarea"
composer_send = "{send}"
claim_number_pattern = "CLM-\\\\d+"
'''
