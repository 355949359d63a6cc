"""A product's locale and home currency: said by its profile, recorded in run.json, used by
the scorer wherever it reads an amount shown (no browser)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims_corpus.formats import HOME_CONVENTIONS, Money, MoneyConventions
from claims_records import ProductInfo, ProfileError, RunRecord
from harness import load_profile
from harness._runtime import RuntimeInfo
from harness.profile import Profile
from harness.runner import product_info
from scoring import load_trial, score_trial

from ..scoring.builders import make_labels, write_run
from .profiles import bare_profile

PROFILE = bare_profile("rupee-bot", top='locale = "en_IN"\ncurrency = "INR"\n')


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "product.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _product(profile: Profile) -> ProductInfo:
    return product_info(profile, profile.resolved_lanes(), RuntimeInfo(runtime="reference"))


def test_the_profile_says_how_the_product_shows_money(tmp_path: Path) -> None:
    profile = load_profile(_write(tmp_path, PROFILE))
    assert profile.money() == MoneyConventions(locale="en_IN", currency="INR")
    product = _product(profile)
    assert (product.locale, product.currency) == ("en_IN", "INR")
    plain = load_profile(_write(tmp_path, PROFILE.replace('locale = "en_IN"\n', "")
                                .replace('currency = "INR"\n', "")))
    assert plain.money() == HOME_CONVENTIONS
    assert (_product(plain).locale, _product(plain).currency) == ("en_GB", "GBP")
    assert load_profile("reference").money() == HOME_CONVENTIONS


@pytest.mark.parametrize(("line", "field"), [
    ('locale = "xx_QQ"', "locale"),
    ('currency = "RUPEES"', "currency"),
])
def test_a_locale_or_currency_babel_does_not_know_is_refused(tmp_path: Path, line: str,
                                                             field: str) -> None:
    text = PROFILE.replace(f'{field} = "{"en_IN" if field == "locale" else "INR"}"', line)
    with pytest.raises(ProfileError) as err:
        load_profile(_write(tmp_path, text))
    assert err.value.context["field"] == field


def _scored_fact(tmp_path: Path, product: ProductInfo, expected: Money, shown: str) -> str:
    """The facts component of a trial whose staff side shows ``shown`` for items_value."""
    labels = make_labels(optional_facts={"items_value": expected})
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    record = json.loads((run_dir / "run.json").read_text())
    record["product"] = product.model_dump(mode="json")
    (run_dir / "run.json").write_text(json.dumps(record))
    staff_path = run_dir / labels.pack_id / "trial-1" / "staff.json"
    staff = json.loads(staff_path.read_text())
    staff["facts"]["items_value"] = {"value": shown, "state": "confirmed"}
    staff_path.write_text(json.dumps(staff))
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    rec = load_trial(run, run_dir, run.trials[0], "anonymous")
    assert rec.money == MoneyConventions(locale=product.locale, currency=product.currency)
    sheet = score_trial(rec, labels)
    return next(c.status for c in sheet.components if c.name == "facts")


def test_the_scorer_reads_amounts_by_the_recorded_locale_and_currency(tmp_path: Path) -> None:
    rupees = _product(load_profile(_write(tmp_path, PROFILE)))
    default = rupees.model_copy(update={"locale": "en_GB", "currency": "GBP"})
    lakh = Money(amount=100000, currency="INR")
    # A bare amount is in the product's home currency: rupees for this product only.
    assert _scored_fact(tmp_path / "a", rupees, lakh, "1,00,000") == "pass"
    assert _scored_fact(tmp_path / "b", default, lakh, "1,00,000") == "fail"
    assert _scored_fact(tmp_path / "c", rupees, lakh, "₹1,00,000") == "pass"
    assert _scored_fact(tmp_path / "d", rupees, lakh, "₹10,000") == "fail"
    euros = default.model_copy(update={"locale": "de_DE", "currency": "EUR"})
    amount = Money(amount=1234.56, currency="EUR")
    assert _scored_fact(tmp_path / "e", euros, amount, "1.234,56 €") == "pass"
    assert _scored_fact(tmp_path / "f", default, amount, "1.234,56 €") == "fail"


def test_an_older_run_record_reads_as_the_home_conventions() -> None:
    product = ProductInfo.model_validate({"profile": "reference", "base_urls": ["x"],
                                          "runtime": "reference"})
    assert (product.locale, product.currency) == ("en_GB", "GBP")
