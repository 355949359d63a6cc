"""The customer's chat page (run by Streamlit: ``python -m claims_prototype_app`` starts it).

Streamlit runs this script again on every interaction; the conversation lives in the process
(``st.cache_resource``), so it outlives reruns and is shared by every tab.
"""

from __future__ import annotations

import re

import streamlit as st

from claims_prototype_app._shared import Heron, open_heron
from claims_prototype_app._wording import button, load

PAGE = load("replies")["page"]


@st.cache_resource
def heron() -> Heron:
    return open_heron()


def markdown(text: str, customer: bool) -> str:
    """``text`` safe for st.markdown: a dollar never starts LaTeX; a customer's own words are
    shown as typed."""
    if customer:
        text = re.sub(r"([\\`*_{}\[\]()#+\-.!<>|~])", r"\\\1", text)
    return text.replace("$", r"\$")


st.set_page_config(page_title=PAGE["title"], page_icon=":bird:")
app = heron()
conversation = app.conversation

with st.sidebar:
    st.header(PAGE["brand"])
    st.caption(PAGE["tagline"])
    if st.button(button("new_claim"), key="new-claim"):
        app.new_conversation()
        st.rerun()
    if conversation.claim_number:
        st.success(PAGE["claim_number"].format(claim_number=conversation.claim_number))

st.title(PAGE["heading"])
for message in conversation.messages:
    with st.chat_message("assistant" if message.role == "assistant" else "user"):
        st.markdown(markdown(message.text, customer=message.role != "assistant"))

latest = conversation.latest
if latest.role == "assistant" and latest.buttons:
    for column, label in zip(st.columns(len(latest.buttons)), latest.buttons, strict=True):
        if column.button(label, key=f"chip-{len(conversation.messages)}-{label}"):
            conversation.say(label)
            st.rerun()

uploaded = st.file_uploader(PAGE["upload_label"], type=["jpg", "jpeg", "png", "pdf"],
                            key=f"upload-{app.upload_round}")
if uploaded is not None:
    app.take_upload(uploaded.name, uploaded.getvalue(), uploaded.type or "")
    st.rerun()

if said := st.chat_input(PAGE["composer"]):
    conversation.say(said)
    st.rerun()
