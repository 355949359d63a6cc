"""Profile format versions and the keys each brought.

Format 3 (product contract v3) added what products built outside this project need: SQL
stores and uploads kept in a folder, resets the product starts and the stores finish, one
conversation per process, a declared runtime, decisions the product's own agent tells the
customer, amounts in other currencies and locales, and dev lanes with their own SQL database.
A profile using any of these says ``version = "3"``, so a harness that reads only formats 1
and 2 refuses it by its version instead of by a key it has never heard of; a format 1 or 2
profile that uses one is refused with the keys named. Formats 1 and 2 still load.

Format 4 (the contract v4 direction) adds the staff side read from the stores
(``[staff_stores]``), for a product without a staff screen; a format 1, 2 or 3 profile that
uses it is refused the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ._model import Profile

FormatVersion = Literal["1", "2", "3", "4"]
PROFILE_FORMAT_VERSION: FormatVersion = "4"
_COMPOSED_RESETS = ("endpoint+stores", "command+stores")


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
    keys: list[str] = []
    if profile.staff_stores is not None:
        keys.append("staff_stores")
    return keys


def check_format(profile: Profile) -> None:
    """``ValueError`` naming the format 4 keys of a profile that says it is format 1, 2 or 3,
    or the format 3 keys of one that says it is format 1 or 2."""
    if profile.version == "4":
        return
    newer = format_4_keys(profile)
    if newer:
        raise ValueError(f"{', '.join(newer)} came with profile format 4: set version = \"4\" "
                         f"(the profile says version = \"{profile.version}\")")
    if profile.version == "3":
        return
    keys = format_3_keys(profile)
    if keys:
        raise ValueError(f"{', '.join(keys)} came with profile format 3: set version = \"3\" "
                         f"(the profile says version = \"{profile.version}\")")
