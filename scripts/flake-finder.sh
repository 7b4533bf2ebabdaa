#!/usr/bin/env bash
# Runs one test file N times (default 10) while a second process keeps one core busy, and reports
# which runs failed, so a race shows here before CI finds it.
# Usage: bash scripts/flake-finder.sh test/e2e/some.test.ts [N]
# The vitest project comes from the file's folder (test/integration -> integration, test/e2e ->
# e2e, anything else -> the unit projects). Each failed run's output is kept in test-results/flakes/.
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:?usage: bash scripts/flake-finder.sh <test file> [runs]}
runs=${2:-10}
[ -f "$file" ] || { echo "no such test file: $file" >&2; exit 2; }
case "$file" in
  test/integration/*) project=integration ;;
  test/e2e/*) project=e2e ;;
  *) project="unit*" ;;
esac
out=test-results/flakes
mkdir -p "$out"
node scripts/build.mjs
# The load: a busy loop that also allocates, so the garbage collector and the scheduler both get
# in the way of the test's processes, as a second CI job on a two-core machine does.
node -e 'for (;;) { const junk = []; for (let i = 0; i < 1e5; i++) junk.push({ i }); }' &
load_pid=$!
trap 'kill $load_pid 2>/dev/null || true' EXIT
failed=()
for run in $(seq 1 "$runs"); do
  log="$out/$(basename "$file" .ts)-run$run.log"
  if npx vitest run --project "$project" "$file" >"$log" 2>&1; then
    echo "run $run/$runs: passed"
    rm -f "$log"
  else
    echo "run $run/$runs: FAILED (output in $log)"
    grep -E '^ *(FAIL|×|AssertionError|Error:)' "$log" | head -5 | sed 's/^/    /' || true
    failed+=("$run")
  fi
done
echo "$file: ${#failed[@]} of $runs runs failed${failed:+ (runs ${failed[*]})}"
[ ${#failed[@]} -eq 0 ]
