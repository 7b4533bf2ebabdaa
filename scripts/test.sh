#!/usr/bin/env bash
# `npm test`: installs everything the tests need (Debian packages included), type-checks, lints,
# builds, and runs the unit, integration and browser tests; the time of each phase is printed at
# the end. With CI=true a suite that cannot run fails. Extra arguments go to every vitest run
# (a file filter, say).
set -euo pipefail
cd "$(dirname "$0")/.."
phases=()
phase_started=0
phase_start() { phase_started=$(date +%s); echo "== $1"; }
phase_end() { phases+=("$(printf '%-24s %5ss' "$1" $(($(date +%s) - phase_started)))"); }
run_started=$(date +%s)

phase_start "install"
bash scripts/install-system-deps.sh
bash scripts/install-node-deps.sh
phase_end "install"

# The type check (tsc -b: every workspace once, through project references) takes one core while
# lint, format, the cycle and contract checks and the build take the other; its output is shown
# when it ends, so the two never interleave.
phase_start "checks and build"
mkdir -p test-results
npx tsc -b >test-results/typecheck.log 2>&1 &
typecheck_pid=$!
echo "== lint"
npx eslint .
echo "== format"
npx prettier --check . --log-level warn
echo "== import cycles"
node scripts/check-cycles.mjs packages/protocol/src packages/kit/src packages/node-transport/src apps/agentctl/src apps/backend/src apps/web/src
echo "== contract literals"
node scripts/check-contract.mjs
echo "== bench results"
node scripts/check-bench-results.mjs
echo "== build"
node scripts/build.mjs
echo "== type check"
typecheck_status=0
wait $typecheck_pid || typecheck_status=$?
cat test-results/typecheck.log
[ $typecheck_status -eq 0 ] || { echo "type check failed"; exit $typecheck_status; }
phase_end "checks and build"

rm -rf test-results && mkdir -p test-results
status=0
# Local Docker suites: a private dockerd and the debootstrap image, when this machine can run them
# (or CI, where a missing Docker must fail). Only a dockerd started here is stopped here.
docker_state=${KANDEV_DOCKER_STATE:-/tmp/kandev-dockerd}
if [ "${CI:-}" = true ] || { command -v dockerd && command -v debootstrap && [ "$(id -u)" = 0 ]; } >/dev/null 2>&1; then
  if ! { [ -f "$docker_state/dockerd.pid" ] && kill -0 "$(cat "$docker_state/dockerd.pid")"; } 2>/dev/null; then
    trap 'bash scripts/docker-env.sh stop' EXIT
  fi
  docker_exports=$(bash scripts/docker-env.sh start)
  eval "$docker_exports"
fi
# Unit tests use every core. Integration and browser files mostly wait on other processes, so
# most run two at a time (lane "parallel"); those that must have the machine to themselves run
# one at a time after them (lane "serial"; the list is in vitest.config.ts).
# A run can fail with every test passed (an unhandled error, a crashed worker): such runs are
# named at the end, so the closing line never reads green while the exit code is red.
failed_runs=()
run_tests() {
  local project=$1 lane=$2 name=$1${2:+-$2}
  phase_start "$name tests"
  KANDEV_TEST_LANE=$lane npx vitest run --project "$project*" --reporter=default --reporter=json --outputFile.json="test-results/$name.json" \
    --passWithNoTests "${@:3}" || { status=1; failed_runs+=("$name"); }
  phase_end "$name tests"
}
run_tests unit "" "$@"
run_tests integration parallel "$@"
run_tests integration serial "$@"
run_tests e2e parallel "$@"
run_tests e2e serial "$@"
node scripts/summarize-tests.mjs test-results/*.json || status=1
[ ${#failed_runs[@]} -eq 0 ] || echo "vitest failed for: ${failed_runs[*]} (see 'Unhandled Errors' or 'FAIL' above)"
echo "== time per phase"
printf '%s\n' "${phases[@]}"
printf '%-24s %5ss\n' "total" $(($(date +%s) - run_started))
exit $status
