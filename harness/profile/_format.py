"""Profile format versions and the keys each brought.

Format 3 (product contract v3) added what products built outside this project need: SQL
stores and uploads kept in a folder, resets the product starts and the stores finish, one
conversation per process, a declared runtime, decisions the product's own agent tells the
customer, amounts in other currencies and locales, and dev lanes with their own SQL database.

Format 4 (the store layer) added the schemas teams really have and stores by kind: in a
mapping, keys the product numbers itself (``key = "assigned"``), references by those keys
(``refs``), columns no pack fills (``fixed``, ``derived``), fields kept nowhere (``drop``) and
child tables (``children``); in ``[stores]``, a store of any registered kind
(``database_kind``, ``files_kind`` and their variables and options); and the staff side read
from the stores (``[staff_stores]``), for a product without a staff screen.

Format 5 added chat widgets inside an iframe (``customer_screen.frame``).

A profile using the keys of a format says that version, so a harness that reads only older
formats refuses it by its version instead of by a key it has never heard of; an older profile
that uses one is refused with the keys named. Older formats still load.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ._model import Profile

FormatVersion = Literal["1", "2", "3", "4", "5"]
PROFILE_FORMAT_VERSION: FormatVersion = "5"
_COMPOSED_RESETS = ("endpoint+stores", "command+stores")
_MAPPING_4 = ("refs", "fixed", "derived", "drop", "children")
_STORES_4 = ("database_kind", "database_env", "database_options", "files_kind", "files_env",
             "files_options")


def format_3_keys(profile: Profile) -> list[str]:
    """The keys of format 3 the profile gives, as a profile writes them."""
    keys: list[str] = [k for k in ("locale", "currency", "conversation", "agent_decision")
            if k in profile.model_fields_set]
    if profile.runtime.declared is not None:
        keys.append("runtime.declared")
    if profile.reset.adapter in _COMPOSED_RESETS:
        keys.append(f"reset.adapter = '{profile.reset.adapter}'")
    if profile.reset.command is not None:
        keys.append("reset.command")
    if profile.stores is not None:
        keys += [f"stores.{k}" for k in ("sql_url_env", "files_dir_env")
                 if getattr(profile.stores, k)]
    keys += [f"mapping.{name}.extra_column" for name, cmap in profile.mapping.items()
             if cmap.extra_column]
    dev = profile.dev
    if dev is not None:
        if "database" in dev.model_fields_set:
            keys.append("dev.database")
        keys += [f"dev placeholder {{{p}}}" for p in ("sql_url", "files_dir") if dev.uses(p)]
    return keys


def format_4_keys(profile: Profile) -> list[str]:
    """The keys of format 4 the profile gives, as a profile writes them."""
    keys: list[str] = ["staff_stores"] if profile.staff_stores is not None else []
    for name, cmap in profile.mapping.items():
        if cmap.key != "canonical":
            keys.append(f"mapping.{name}.key = '{cmap.key}'")
        keys += [f"mapping.{name}.{k}" for k in _MAPPING_4 if getattr(cmap, k)]
    if profile.stores is not None:
        keys += [f"stores.{k}" for k in _STORES_4 if k in profile.stores.model_fields_set]
    return keys


def format_5_keys(profile: Profile) -> list[str]:
    """The keys of format 5 the profile gives, as a profile writes them."""
    return ["customer_screen.frame"] if profile.customer_screen.frame else []


_FORMATS: tuple[tuple[FormatVersion, Callable[[Profile], list[str]]], ...] = (
    ("3", format_3_keys), ("4", format_4_keys), ("5", format_5_keys))
"""Each format that brought keys, oldest first, with what finds them in a profile."""


def check_format(profile: Profile) -> None:
    """``ValueError`` naming the keys a profile gives that came with a format later than the
    version it says (each format's keys under its number)."""
    late = [(version, keys) for version, keys_of in _FORMATS
            if int(version) > int(profile.version) and (keys := keys_of(profile))]
    if late:
        said = "; ".join(f"{', '.join(keys)} came with profile format {version}"
                         for version, keys in late)
        raise ValueError(f"{said}: set version = \"{late[-1][0]}\" (the profile says "
                         f"version = \"{profile.version}\")")
