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
# Local Docker suites: a private dockerd and the debootstrap image, when this machine can run them
# (or CI, where a missing Docker must fail). Only a dockerd started here is stopped here. They are
# made in the background from here on: on a fresh machine debootstrap held the run about half a
# minute between the checks and the unit tests, and beside npm's install (mostly waiting on the
# network, then one core compiling better-sqlite3) it finds a core free. The
# first Docker test is an integration file; the run waits for the start before those (and a test
# that asks docker-env.sh itself waits on its lock).
docker_state=${KANDEV_DOCKER_STATE:-/tmp/kandev-dockerd}
docker_pid=
if [ "${CI:-}" = true ] || { command -v dockerd && command -v debootstrap && [ "$(id -u)" = 0 ]; } >/dev/null 2>&1; then
  mkdir -p "$docker_state"
  if ! { [ -f "$docker_state/dockerd.pid" ] && kill -0 "$(cat "$docker_state/dockerd.pid")"; } 2>/dev/null; then
    trap 'bash scripts/docker-env.sh stop' EXIT
  fi
  bash scripts/docker-env.sh start >"$docker_state/start.out" 2>"$docker_state/start.err" &
  docker_pid=$!
fi
# Every package now, but the native ones (better-sqlite3 compiles from source, about 40 s of one
# core at the tests' -O1) compile in the next phase, beside the checks and the build, which never
# load them.
bash scripts/install-node-deps.sh --defer-native
phase_end "install"

rm -rf test-results && mkdir -p test-results
# Steps run as jobs, at most one per core, each one's output in its own log, printed whole once the
# group ends (outputs never interleave), with its seconds; every step of a group runs to its end
# and each failure is named. A group runs in a subshell of its own, so `jobs` counts its steps only.
checks_log=test-results/checks
mkdir -p "$checks_log"
check_slots=$(nproc 2>/dev/null || echo 2)
check_step() {
  local name=$1
  shift
  while [ "$(jobs -rp | wc -l)" -ge "$check_slots" ]; do wait -n || true; done
  (
    started=$(date +%s) rc=0
    "$@" >"$checks_log/$name.log" 2>&1 || rc=$?
    echo $(($(date +%s) - started)) >"$checks_log/$name.seconds"
    echo $rc >"$checks_log/$name.status"
  ) &
}
# Prints the named steps' logs; those that failed are left in checks_failed.
report_steps() {
  checks_failed=()
  local name
  for name in "$@"; do
    echo "== $name ($(cat "$checks_log/$name.seconds" 2>/dev/null || echo '?') s)"
    cat "$checks_log/$name.log" 2>/dev/null || true
    [ "$(cat "$checks_log/$name.status" 2>/dev/null)" = 0 ] || checks_failed+=("$name")
  done
}

# The build and the checks: lint, the native npm packages compiled (better-sqlite3, one core for
# about 40 s), the type check, the build, format and the small ones, the longest first. Run beside
# the unit and integration tests at a low priority instead, the checks were starved (lint took
# 314 s) and still slowed the integration files by a fifth: those tests keep the machine busier
# than their waiting suggests.
phase_start "checks and build"
check_names=(lint "native packages" "type check" build format "import cycles" "contract literals" "bench results")
(
  check_step lint npx eslint .
  check_step "native packages" bash scripts/install-node-deps.sh --native
  check_step "type check" npx tsc -b
  check_step build node scripts/build.mjs
  check_step format npx prettier --check . --log-level warn
  check_step "import cycles" node scripts/check-cycles.mjs packages/protocol/src packages/kit/src packages/node-transport/src apps/agentctl/src apps/backend/src apps/web/src
  check_step "contract literals" node scripts/check-contract.mjs
  check_step "bench results" node scripts/check-bench-results.mjs
  wait
)
report_steps "${check_names[@]}"
[ ${#checks_failed[@]} -eq 0 ] || { echo "failed: ${checks_failed[*]}"; exit 1; }
phase_end "checks and build"
status=0
# The npm language servers of the browser files (test/support/preinstalledServers.ts), installed
# now in the background: on a fresh machine the first browser file spent minutes in npm while the
# other lane waited. Started here, not beside the checks: those keep both cores busy, and npm's
# own work (resolving, unpacking) would slow them. The integration files keep the machine busy too
# (96 % in a clean run), so its 75 or so core-s are paid wherever it runs; from here it is done
# before the first browser file needs it.
# Its log is printed at the end. A failure here fails nothing: each browser file installs what is
# missing itself, under the same lock (and waits on it while this install holds it).
servers_log=test-results/test-servers.log
(
  started=$(date +%s) rc=0
  node --import tsx scripts/preinstall-test-servers.ts >"$servers_log" 2>&1 || rc=$?
  echo "$(($(date +%s) - started)) $(date +%s)" >"$servers_log.done"
  exit $rc
) &
servers_pid=$!
# Unit tests use every core. Integration and browser files mostly wait on other processes, so
# most run several at a time (lane "parallel": four integration files, two browser files). Those
# that must not share the machine with many others (lane "serial"; the list is in vitest.config.ts)
# run one integration file and one browser file at a time, the two lanes side by side, after the
# rest: one lane alone kept the machine half idle (43-54 % busy, sampled from /proc/stat).
# A run can fail with every test passed (an unhandled error, a crashed worker): such runs are
# named at the end, so the closing line never reads green while the exit code is red.
failed_runs=()
reports=()
vitest_run() {
  local project=$1 lane=$2 name=$3
  shift 3
  KANDEV_TEST_LANE=$lane KANDEV_TEST_FILE_DURATIONS="test-results/$name-files.json" npx vitest run --project "$project*" \
    --reporter=default --reporter=json --outputFile.json="test-results/$name.json" --reporter=./test/support/fileDurationsReporter.ts \
    --passWithNoTests "$@"
}
run_tests() {
  local project=$1 lane=$2 name=$1${2:+-$2}
  phase_start "$name tests"
  reports+=("test-results/$name.json")
  vitest_run "$project" "$lane" "$name" "${@:3}" || { status=1; failed_runs+=("$name"); }
  phase_end "$name tests"
}
# One lane of both projects at once, each run's output kept in its own log and printed whole when
# it ends (two live reporters would interleave line by line).
run_lane_of_both() {
  local lane=$1 title=$2
  shift 2
  phase_start "$title"
  local project pids=() lanes=()
  for project in integration e2e; do
    reports+=("test-results/$project-$lane.json")
    (
      started=$(date +%s) rc=0
      vitest_run "$project" "$lane" "$project-$lane" "$@" >"test-results/$project-$lane.log" 2>&1 || rc=$?
      echo $(($(date +%s) - started)) >"test-results/$project-$lane.seconds"
      exit $rc
    ) &
    pids+=($!)
  done
  local i=0
  for project in integration e2e; do
    local lane_status=0
    wait "${pids[$i]}" || lane_status=$?
    i=$((i + 1))
    echo "== $project-$lane tests ($(cat "test-results/$project-$lane.seconds" 2>/dev/null || echo '?') s)"
    cat "test-results/$project-$lane.log"
    [ $lane_status -eq 0 ] || { status=1; failed_runs+=("$project-$lane"); }
    lanes+=("$(printf '  %-22s %5ss' "$project-$lane" "$(cat "test-results/$project-$lane.seconds" 2>/dev/null || echo '?')")")
  done
  phase_end "$title"
  phases+=("${lanes[@]}")
}
run_tests unit "" "$@"
if [ -n "$docker_pid" ]; then
  docker_status=0
  wait "$docker_pid" || docker_status=$?
  cat "$docker_state/start.err"
  [ $docker_status -eq 0 ] || echo "starting the test dockerd or building its image FAILED (above): the Local Docker suites will fail"
fi
run_tests integration parallel "$@"
e2e_started=$(date +%s)
run_tests e2e parallel "$@"
run_lane_of_both serial "serial lanes at once" "$@"
servers_status=0
wait $servers_pid || servers_status=$?
servers_seconds='?' servers_ended=$e2e_started
read -r servers_seconds servers_ended <"$servers_log.done" || true
if [ "$servers_ended" -le "$e2e_started" ]; then servers_ready="ready $((e2e_started - servers_ended)) s before"; else servers_ready="still installing $((servers_ended - e2e_started)) s into"; fi
echo "== test servers, installed in the background ($servers_seconds s, $servers_ready the browser tests)"
cat "$servers_log"
[ $servers_status -eq 0 ] || echo "the background install of the test servers FAILED (above); the browser files installed what was missing themselves, or failed"
phases+=("$(printf '%-24s %5ss' 'test servers (bg)' "$servers_seconds")")
node scripts/summarize-tests.mjs "${reports[@]}" || status=1
[ ${#failed_runs[@]} -eq 0 ] || echo "vitest failed for: ${failed_runs[*]} (see 'Unhandled Errors' or 'FAIL' above)"
echo "== time per phase"
printf '%s\n' "${phases[@]}"
printf '%-24s %5ss\n' "total" $(($(date +%s) - run_started))
exit $status
