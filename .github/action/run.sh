#!/usr/bin/env bash
# The gate step of the ips-doctor action (action.yml), kept in a file so that a test runs exactly
# what the action runs (ActionScriptTests).
#
# Runs ips-doctor ONCE: GitHub annotations on standard output, the SARIF file, a JSON copy for the
# outputs below, and (as GITHUB_ACTIONS is true) the crash-group table in $GITHUB_STEP_SUMMARY.
# Then it writes the step outputs and only then exits with ips-doctor's status, so that a failing
# gate (1) still leaves the SARIF file and the outputs for the steps that run `if: always()`.
#
# Inputs (environment): IPS_DOCTOR (the binary), INPUT_PATH, INPUT_FAIL_ON, INPUT_BASELINE (may
# be empty), INPUT_SARIF_FILE, GITHUB_OUTPUT; RUNNER_TEMP for the JSON copy. Needs jq (on every
# GitHub-hosted runner).
#
# Outputs: exit-code (always), groups and new-groups (crash groups, and those not in the baseline;
# every group is new without one), read from the JSON ips-doctor wrote, when it wrote one.
set -euo pipefail

: "${IPS_DOCTOR:?the ips-doctor binary}" "${INPUT_PATH:?the reports to diagnose}"
: "${INPUT_SARIF_FILE:?the SARIF file to write}" "${GITHUB_OUTPUT:?the step outputs file}"
json="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ips-doctor-action-$$.json"
rm -f "$json"

# Each file's format is named (FORMAT:FILE), never taken from its extension: a sarif-file input
# such as results.json still gets SARIF. The path comes after `--`, so a path such as --version or
# --output=/x is a path, never an option.
arguments=(--format github --output "sarif:$INPUT_SARIF_FILE" --output "json:$json"
  --fail-on "${INPUT_FAIL_ON:-error}")
if [ -n "${INPUT_BASELINE:-}" ]; then
  arguments+=(--baseline "$INPUT_BASELINE")
fi
arguments+=(-- "$INPUT_PATH")

status=0
GITHUB_ACTIONS=true "$IPS_DOCTOR" "${arguments[@]}" || status=$?

{
  echo "exit-code=$status"
  if [ -s "$json" ] && command -v jq >/dev/null; then
    echo "groups=$(jq '.groups | length' "$json")"
    echo "new-groups=$(jq '[.groups[] | select(.baseline != "known")] | length' "$json")"
  fi
} >>"$GITHUB_OUTPUT"
if [ -s "$json" ] && ! command -v jq >/dev/null; then
  echo "::warning::jq is not installed: the groups and new-groups outputs are not set"
fi
rm -f "$json"

exit "$status"
