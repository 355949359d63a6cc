"""The journey runner: product profiles, the browser driver, simulated customers, run records.

Reads packs only through ``claims_corpus.load_customer_view``, plus ``setup.json`` which it passes
unread to the seed route.
"""


from ._capacity import LaneChoice, auto_lanes, resolve_lanes
from ._dev import dev_product
from ._profile_check import CheckReport, check_profile
from ._redact import redact_har
from ._runtime import RuntimeInfo, check_runtime
from ._stack import (
    next_steps,
    point_at_stack,
    powershell_env,
    remove_stack_file,
    running_stack,
    serves_profile,
    stack_record,
    stack_seed_token,
    with_base_urls,
    write_powershell_env,
    write_stack_file,
)
from .browser import BrowserChoice, open_browser, system_browsers
from .customers import (
    Customer,
    CustomerContext,
    LlmCustomer,
    LlmSettings,
    Recording,
    ScriptedCustomer,
    make_customer,
    parse_action,
)
from .profile import Lane, Profile, load_profile
from .reset import ResetAdapter, ResetOutcome, make_reset
from .runner import (
    Backoff,
    FolderLock,
    RunContext,
    RunLockedError,
    RunStorageError,
    Shard,
    TrialProgress,
    execute,
    load_durations,
    merge_runs,
    new_run_id,
    no_result_line,
    prepare_resume,
    recorded_config,
    resume_command,
    run,
    stop_line,
    summary_line,
    wait_for_lock,
)
from .trial import (
    SELF_TEST_LABEL,
    TRACING_MODES,
    CustomerFactory,
    TrialRig,
    TrialSettings,
    run_trial,
)

__all__ = [
    "Backoff",
    "SELF_TEST_LABEL",
    "BrowserChoice",
    "FolderLock",
    "LaneChoice",
    "auto_lanes",
    "resolve_lanes",
    "RunLockedError",
    "RunStorageError",
    "Shard",
    "load_durations",
    "merge_runs",
    "open_browser",
    "recorded_config",
    "resume_command",
    "stop_line",
    "system_browsers",
    "wait_for_lock",
    "TRACING_MODES",
    "Customer",
    "CustomerContext",
    "CustomerFactory",
    "Lane",
    "LlmCustomer",
    "LlmSettings",
    "Profile",
    "Recording",
    "ResetAdapter",
    "ResetOutcome",
    "RunContext",
    "RuntimeInfo",
    "ScriptedCustomer",
    "TrialProgress",
    "TrialRig",
    "TrialSettings",
    "CheckReport",
    "check_profile",
    "check_runtime",
    "dev_product",
    "next_steps",
    "point_at_stack",
    "powershell_env",
    "remove_stack_file",
    "running_stack",
    "serves_profile",
    "stack_record",
    "stack_seed_token",
    "with_base_urls",
    "write_powershell_env",
    "write_stack_file",
    "execute",
    "load_profile",
    "make_reset",
    "make_customer",
    "new_run_id",
    "no_result_line",
    "parse_action",
    "prepare_resume",
    "redact_har",
    "run",
    "run_trial",
    "summary_line",
]
