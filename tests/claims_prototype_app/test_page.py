"""The chat page run by Streamlit's own test runner (no browser): the greeting, a turn, a
quick-reply button, an upload, one conversation for every session, "Start a new claim"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from claims_prototype_app import Settings
from claims_prototype_app._serve import PAGE

from ._packs import PACKS, load_setup


@pytest.fixture
def page(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, value in settings.environ().items():
        monkeypatch.setenv(name, value)
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()


def run(target: Any) -> AppTest:
    """Run the page (an AppTest, or a widget after an interaction); the page after it."""
    app: AppTest = target.run(timeout=30)
    assert not app.exception, app.exception
    return app


def texts(app: AppTest) -> list[str]:
    return [m.markdown[0].value for m in app.chat_message]


@pytest.mark.usefixtures("page")
def test_a_conversation_on_the_page(store_with_pack: None) -> None:
    app = run(AppTest.from_file(str(PAGE), default_timeout=30))
    assert app.title[0].value == "Report a claim"
    assert [m.name for m in app.chat_message] == ["assistant"]
    assert "Heron Mutual" in texts(app)[0]
    run(app.chat_input[0].set_value("A stone cracked my windscreen on 18 March 2026 at 08:20."))
    assert texts(app)[-1] == "What is your policy number?"
    run(app.chat_input[0].set_value("NWF-POL-100562"))
    for said in ("On the M4.", "CU68 WRB"):
        run(app.chat_input[0].set_value(said))
    assert [b.label for b in app.button if b.key and b.key.startswith("chip-")] == [
        "Yes", "No", "I don't know"]
    run(next(b for b in app.button if b.label == "Yes").click())
    assert texts(app)[-2] == "Yes" and "another vehicle" in texts(app)[-1]

    other = run(AppTest.from_file(str(PAGE), default_timeout=30))  # another tab
    assert texts(other) == texts(app)

    for said in ("No", "No"):
        run(app.chat_input[0].set_value(said))
    photo = (PACKS / "CTL-M-004/input/materials/photo-cracked-windscreen.jpg")
    run(app.get("file_uploader")[0].upload(photo.name, photo.read_bytes(), "image/jpeg"))
    assert texts(app)[-2] == r"Uploaded photo\-cracked\-windscreen\.jpg"
    assert texts(app)[-1].startswith("Thank you, I've received photo-cracked-windscreen.jpg.")

    run(app.sidebar.button[0].click())
    assert app.sidebar.button[0].label == "Start a new claim"
    assert len(app.chat_message) == 1


@pytest.fixture
def store_with_pack(settings: Settings) -> None:
    from claims_prototype_app import Store

    store = Store(settings)
    store.create_tables()
    load_setup(store, PACKS / "CTL-M-004")
    store.close()


def test_the_page_is_the_file_streamlit_runs() -> None:
    assert Path(PAGE).is_file() and PAGE.name == "_chat_page.py"
