"""Commands: profile check — what the harness will find on a product, before any run."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import typer

from . import _browser_opts as browser_opts
from ._errors import reported_errors

profile_app = typer.Typer(help="Product profiles: check one against its running product.",
                          no_args_is_help=True)


@profile_app.command("check")
def check(
    profile: str = typer.Argument(..., help="A profile TOML path or a shipped profile name."),
    base_url: list[str] = typer.Option(
        [], "--base-url", metavar="URL", help="The product's URL instead of the profile's, as "
        "for run: once for one lane, once per lane for several (each lane's seed route is URL "
        "+ the profile's seed path); the first lane is checked."),
    dev: bool = typer.Option(False, "--dev", help="Start the embedded stores and the product "
                             "(\\[dev] in the profile) for the check, and stop them afterwards."),
    claim: str | None = typer.Option(None, help="A claim number to open on the staff side, to "
                                     "check the claim-page regions and the vocabulary."),
    reset: str | None = typer.Option(
        None, "--reset", help="Reset the product to this pack first (changes its data: use a "
        "test environment); checks the reset end to end and gives staff credentials."),
    packs: Path = typer.Option(Path("packs"), help="Corpus folder (its baseline.json is what "
                               "a reset adapter would load)."),
    browser_executable: browser_opts.Executable = None,
    browser_channel: browser_opts.Channel = None,
    browser_cdp_url: browser_opts.CdpUrl = None,
    browser_ws_endpoint: browser_opts.WsEndpoint = None,
) -> None:
    """Report every region, the runtime report, the reset adapter and what will be
    not_implemented. Exits 1 when something would break a run."""
    import harness

    with reported_errors():
        prof = harness.load_profile(profile)
        if base_url:
            if dev:
                raise typer.BadParameter("--dev starts its own product; drop --base-url",
                                         param_hint="--base-url")
            prof = harness.with_base_urls(prof, base_url)
        browser = browser_opts.browser_choice(browser_executable, browser_channel,
                                              browser_cdp_url, browser_ws_endpoint)
        with contextlib.ExitStack() as stack:
            if dev:
                prof, _env = stack.enter_context(harness.dev_product(prof, 1, packs))
            report = asyncio.run(harness.check_profile(prof, packs, claim, reset_pack=reset,
                                                        browser=browser))
        typer.echo(report.render(), nl=False)
        if report.problems:
            raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.add_typer(profile_app, name="profile")
