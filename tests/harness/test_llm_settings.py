"""Where the customer model's settings come from, and what run.json may say of them."""

from __future__ import annotations

import pytest

from claims_records import SimulatorError
from harness.customers import LlmSettings

KEY = "sk-settings-CANARY-9a8b"


def test_harness_variables_win_over_the_sdk_variables_and_options_over_both():
    env = {"CLAIMS_HARNESS_LLM_BASE_URL": "http://127.0.0.1:8080/v1",
           "OPENAI_BASE_URL": "http://openai.invalid/v1",
           "OPENAI_API_KEY": "sk-from-openai", "CLAIMS_HARNESS_LLM_API_KEY": KEY,
           "OPENAI_ORG_ID": "org-1", "OPENAI_PROJECT_ID": "proj-1",
           "CLAIMS_HARNESS_LLM_PROJECT": "proj-harness",
           "CLAIMS_HARNESS_LLM_MODEL": "env-model", "CLAIMS_HARNESS_LLM_TEMPERATURE": "0.5",
           "CLAIMS_HARNESS_LLM_SEED": "11", "CLAIMS_HARNESS_LLM_TIMEOUT_S": "12.5",
           "CLAIMS_HARNESS_LLM_MAX_RETRIES": "5", "CLAIMS_HARNESS_LLM_PROMPT_VIEW": "wide"}
    s = LlmSettings.from_options(env, model="explicit", timeout_s=3.0)
    assert s.base_url == "http://127.0.0.1:8080/v1" and s.api_key == KEY
    assert (s.organization, s.project) == ("org-1", "proj-harness")
    assert (s.model, s.temperature, s.seed, s.timeout_s, s.max_retries) == (
        "explicit", 0.5, 11, 3.0, 5)
    assert s.prompt_view == "wide"
    sdk_only = LlmSettings.from_options({"OPENAI_BASE_URL": "http://127.0.0.1:1/v1",
                                         "OPENAI_API_KEY": "sk-from-openai"}, model="m")
    assert sdk_only.base_url == "http://127.0.0.1:1/v1" and sdk_only.api_key == "sk-from-openai"
    default = LlmSettings.from_options({}, model="m")
    assert default.base_url == "https://api.openai.com/v1" and default.api_key == ""
    assert default.timeout_s == 60.0 and default.max_retries == 2


def test_a_model_is_required_and_a_bad_variable_is_named():
    with pytest.raises(SimulatorError, match="needs a model"):
        LlmSettings.from_options({})
    with pytest.raises(SimulatorError, match="CLAIMS_HARNESS_LLM_TIMEOUT_S") as exc:
        LlmSettings.from_options({"CLAIMS_HARNESS_LLM_TIMEOUT_S": "soon"}, model="m")
    assert exc.value.context["field"] == "timeout_s"
    for bad in ({"timeout_s": 0}, {"max_retries": -1}, {"prompt_view": "everything"},
                {"response_format": "xml"}):
        with pytest.raises(SimulatorError, match="invalid LLM setting"):
            LlmSettings(model="m", **bad)


def test_credentials_in_the_base_url_are_refused_without_echoing_them():
    with pytest.raises(SimulatorError, match="carries credentials") as exc:
        LlmSettings.from_options({"CLAIMS_HARNESS_LLM_BASE_URL":
                                  "https://user:pa55-CANARY@llm.example/v1"}, model="m")
    assert "pa55-CANARY" not in str(exc.value)
    assert exc.value.context["url"] == "https://llm.example/v1"
    with pytest.raises(SimulatorError, match="carries credentials"):
        LlmSettings(model="m", base_url="https://only-user@llm.example/v1")


def test_run_json_gets_host_parameters_and_view_but_never_the_key():
    s = LlmSettings(model="m", base_url="https://llm.example:8443/v1/", api_key=KEY,
                    temperature=0.0, seed=3, max_tokens=200, timeout_s=30, max_retries=4,
                    prompt_view="wide", price_prompt_per_mtok=0.1,
                    price_completion_per_mtok=0.4)
    info = s.info()
    assert info.endpoint_host == "llm.example:8443"
    assert (info.temperature, info.seed, info.max_tokens, info.timeout_s, info.max_retries,
            info.prompt_view, info.response_format) == (0.0, 3, 200, 30, 4, "wide", "auto")
    assert KEY not in info.model_dump_json() and KEY not in repr(s)


def test_a_key_an_http_header_cannot_carry_is_refused():
    with pytest.raises(SimulatorError, match="HTTP header") as exc:
        LlmSettings(model="m", api_key="sk-ключ")
    assert "ключ" not in str(exc.value)


def test_openai_is_the_only_path_to_model_endpoints():
    """The customer's client and the reference app's model runtime talk to model endpoints
    through the openai package alone: no other HTTP client, no sleeping retry loop."""
    from pathlib import Path

    import claims_reference_app
    import harness.customers

    files = [*Path(harness.customers.__file__).parent.glob("*.py"),
             Path(claims_reference_app.__file__).parent / "_agent_model.py"]
    assert len(files) >= 7
    for path in files:
        text = path.read_text(encoding="utf-8")
        for banned in ("import httpx", "import requests", "urllib.request", "sleep("):
            assert banned not in text, f"{path.name}: {banned}"
    for name in ("_endpoint.py", "_agent_model.py"):
        path = next(p for p in files if p.name == name)
        assert "import openai" in path.read_text(encoding="utf-8"), name
