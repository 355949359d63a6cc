# Register the nightly evaluation with the Windows Task Scheduler: every day at -At, run
# `claims-harness nightly CONFIG` from this checkout. Its exit code is the task's "Last Run
# Result" (claims_records.ExitCode, docs/running.md "Exit codes"): 0 ok, 1 regression or gate
# failure, 2 the configuration was refused, 3 the night could not be judged (an all-error
# night included), 130 interrupted; only 0 is a success.
#   powershell -File scripts\register-nightly.ps1 -Config C:\claims\nightly.toml [-At 02:30]
# The project must be installed in .venv first:
#   py -3.12 -m venv .venv; .venv\Scripts\python -m pip install -e .
# Secrets (CLAIMS_HARNESS_SEED_TOKEN, an LLM key) belong in the task user's environment.
param(
    [Parameter(Mandatory = $true)][string]$Config,
    [string]$At = "02:30",
    [string]$TaskName = "claims-harness nightly"
)
$ErrorActionPreference = "Stop"
$Repo = (Resolve-Path (Join-Path $PSScriptRoot "..")).Path
$Exe = Join-Path $Repo ".venv\Scripts\claims-harness.exe"
if (-not (Test-Path $Exe)) {
    $Exe = (Get-Command claims-harness -ErrorAction Stop).Source
}
$ConfigPath = (Resolve-Path $Config).Path
$Action = New-ScheduledTaskAction -Execute $Exe -Argument "nightly `"$ConfigPath`"" -WorkingDirectory $Repo
$Trigger = New-ScheduledTaskTrigger -Daily -At $At
$Settings = New-ScheduledTaskSettingsSet -StartWhenAvailable -MultipleInstances IgnoreNew -ExecutionTimeLimit (New-TimeSpan -Hours 6)
Register-ScheduledTask -TaskName $TaskName -Action $Action -Trigger $Trigger -Settings $Settings -Description "claims-harness nightly evaluation ($ConfigPath)" -Force | Out-Null
Write-Host "registered '$TaskName': every day at $At, $Exe nightly `"$ConfigPath`""
exit 0
