# Start the local development environment (stores, reference app and seed route per lane): the
# PowerShell mirror of start-dev.sh. Installs the project into the active virtual environment
# or .\.venv when it is missing or pyproject.toml changed, then runs `claims-harness dev up`
# from that environment. It prints every URL and the next command, writes .claims-harness.env
# (+ .ps1) and .claims-harness.stack.json, and runs until Ctrl-C, which stops everything. A
# second start while one runs from this checkout is refused with the first's pid and URL
# (--name NAME starts one beside it under its own files); when a process of the stack dies,
# it says which and how, marks the stack file dead and exits with code 3.
# Every argument is passed on: see `claims-harness dev up --help`.
# Blocked by the execution policy? Run it as
#   powershell -ExecutionPolicy Bypass -File scripts\start-dev.ps1
# (docs/dev-environment.md, "Windows").
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..")

if ($env:VIRTUAL_ENV -and (Test-Path (Join-Path $env:VIRTUAL_ENV "Scripts\python.exe"))) {
    $venv = $env:VIRTUAL_ENV
} else {
    $venv = Join-Path (Get-Location) ".venv"
    if (-not (Test-Path (Join-Path $venv "Scripts\python.exe"))) {
        $py = if ($env:PYTHON) { $env:PYTHON } elseif (Get-Command py -ErrorAction SilentlyContinue) { "py" } else { "python" }
        $pyArgs = if ($py -eq "py") { @("-3") } else { @() }
        & $py @pyArgs -c "import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)"
        if ($LASTEXITCODE -ne 0) { throw "the harness needs Python 3.11 or newer (set PYTHON to one)" }
        Write-Host "setup: creating $venv"
        & $py @pyArgs -m venv --system-site-packages $venv
        if ($LASTEXITCODE -ne 0) { throw "could not create $venv" }
    }
}
$bin = Join-Path $venv "Scripts"
$stamp = Join-Path $venv ".claims-harness-installed"
$source = "$((Get-FileHash pyproject.toml).Hash) $(Get-Location)"
$have = if (Test-Path $stamp) { (Get-Content $stamp -Raw).Trim() } else { "" }
if (-not $have.StartsWith($source)) {
    Write-Host "setup: installing the project into $venv"
    & (Join-Path $bin "python.exe") -m pip install -q --disable-pip-version-check -e .
    if ($LASTEXITCODE -ne 0) { throw "pip could not install the project into $venv" }
    Set-Content -Path $stamp -Value "$source []"
}
& (Join-Path $bin "claims-harness.exe") dev up @args
exit $LASTEXITCODE
