# Start the local development environment (stores, reference app or seed route per lane).
# Every argument is passed on: see `claims-harness dev up --help`.
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..")
& claims-harness dev up @args
exit $LASTEXITCODE
