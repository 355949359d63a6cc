"""The currency codes a pack may use: ISO 4217's current alphabetic codes (List One).

Kept here as one list, by hand, so a pack's currency is checked against the standard itself and
not against "three capital letters" or whatever a locale library happens to know (which also
holds withdrawn codes such as DEM and codes ISO does not define such as CNH). Update it when
ISO 4217 is amended; withdrawn codes (ANG, CUC, HRK, SLL, ZWL, ...) are not in it.
"""

from __future__ import annotations

ISO_4217_CODES: frozenset[str] = frozenset({
    "AED", "AFN", "ALL", "AMD", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BHD",
    "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF",
    "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUP", "CVE", "CZK", "DJF",
    "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP",
    "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR",
    "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT",
    "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP",
    "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR",
    "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB",
    "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN",
    "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH",
    "UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS", "VED", "VES", "VND", "VUV", "WST", "XAD",
    "XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XCG", "XDR", "XOF", "XPD", "XPF",
    "XPT", "XSU", "XTS", "XUA", "XXX", "YER", "ZAR", "ZMW", "ZWG",
})

# Codes of the list that name no currency an amount can be in: the testing code and "no
# currency".
NOT_AN_AMOUNT: frozenset[str] = frozenset({"XTS", "XXX"})


def currency_problem(code: str) -> str | None:
    """Why ``code`` cannot be the currency of an amount, or None."""
    if code in NOT_AN_AMOUNT:
        return f"{code!r} is the ISO 4217 code for testing or for no currency, not a currency"
    if code not in ISO_4217_CODES:
        hint = f" (did you mean {code.upper()!r}?)" if code.upper() in ISO_4217_CODES else ""
        return (f"{code!r} is not a current ISO 4217 currency code{hint}; write one such as "
                "'GBP', 'EUR' or 'NZD'")
    return None
