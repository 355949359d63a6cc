"""The smallest profile a test of one profile key starts from: a chat product without
accounts or a staff side, on a port nothing answers."""

from __future__ import annotations


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
