#!/usr/bin/env bash
# Usage: step.sh LABEL COMMAND [ARG...]
# Runs one check of `make test` quietly: prints "LABEL  ok" when it passes,
# or everything the command printed, then "LABEL  FAILED", when it fails.
set -uo pipefail
label=$1
shift
if output=$("$@" 2>&1); then
    printf '%-58s ok\n' "$label"
else
    status=$?
    printf '%s\n' "$output"
    printf '%-58s FAILED\n' "$label"
    exit "$status"
fi
