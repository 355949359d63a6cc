"""``claims-harness profile check`` against both shipped profiles, in-process: its output is
the one docs/product-contract.md shows (ports and timings aside), and every profile key is in
the guide's key table."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

from claims_cli.app import app
from harness.profile import Profile

pytestmark = [pytest.mark.slow, pytest.mark.browser]

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "product-contract.md"


def _normalise(text: str) -> str:
    text = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", text)
    text = re.sub(r"took [\d.]+ ms", "took N ms", text)
    text = re.sub(r"in [\d.]+ ms\)", "in N ms)", text)
    text = re.sub(r"claims-harness-data-[^/]+/", "claims-harness-data-…/", text)
    return re.sub(r"after [\d.]+ s", "after N s", text).strip()


def _documented(name: str) -> str:
    guide = GUIDE.read_text(encoding="utf-8")
    marker = f"`claims-harness profile check {name} --dev --reset CTL-M-001`"
    block = guide.split(marker, 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    return block.strip()


@pytest.mark.parametrize("name", ["reference", "kestrel", "heron"])
def test_profile_check_output_is_the_documented_one(name: str, monkeypatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    result = CliRunner().invoke(app, ["profile", "check", name, "--dev", "--reset",
                                      "CTL-M-001"])
    assert result.exit_code == 0, result.output
    assert _normalise(result.output) == _documented(name)


def test_profile_check_fails_on_a_product_that_is_not_there(tmp_path: Path) -> None:
    from claims_dev import free_port

    gone = f"http://127.0.0.1:{free_port()}"
    text = (Path(__file__).resolve().parents[2] / "harness" / "profiles" / "reference.toml"
            ).read_text(encoding="utf-8").replace("http://127.0.0.1:8000", gone)
    path = tmp_path / "gone.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["profile", "check", str(path)])
    assert result.exit_code == 1
    assert "FAIL runtime report" in result.output and "FAIL start page" in result.output


def _keys(model: type[BaseModel], prefix: str = "") -> list[str]:
    out = []
    for name, field in model.model_fields.items():
        sub = next((t for t in (field.annotation, *typing.get_args(field.annotation))
                    if isinstance(t, type) and issubclass(t, BaseModel)), None)
        origin = typing.get_origin(field.annotation)
        if sub is not None and origin is dict:
            out += _keys(sub, f"{prefix}{name}.<canonical>.")
        elif sub is not None and origin is not list:
            out += _keys(sub, f"{prefix}{name}.")
        else:
            out.append(prefix + name)
    return out


def test_every_profile_key_is_in_the_guide() -> None:
    table = GUIDE.read_text(encoding="utf-8").split("## Every profile key", 1)[1]
    table = table.split("\n## ", 1)[0]
    missing = []
    for key in _keys(Profile):
        head, _, last = key.rpartition(".")
        if f"`{key}`" not in table and not (head and f"`{head}." in table
                                             and f".{last}`" in table):
            missing.append(key)
    assert missing == []
