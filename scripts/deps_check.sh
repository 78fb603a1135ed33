#!/usr/bin/env bash
# Every workspace member imports exactly what its own pyproject declares:
# deptry scans each member's src/ against that member's dependencies, so a
# module that imports a sibling package (or a library) it does not declare
# fails here, even though the shared workspace venv would have let it run.
set -euo pipefail
cd "$(dirname "$0")/.."
DEPTRY=(${UV:-uv} run --frozen --no-sync deptry)
status=0
for member in packages/*/ contracts/; do
    if ! (cd "$member" && "${DEPTRY[@]}" src); then
        echo "deps-check: ${member%/} imports something it does not declare (or declares something unused)" >&2
        status=1
    fi
done
exit "$status"
