#!/usr/bin/env bash
# `npm test`: installs everything the tests need (Debian packages included), type-checks, builds,
# and runs the unit, integration and browser tests. With CI=true a suite that cannot run fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh
bash scripts/install-node-deps.sh
echo "== type check"
for ws in packages/protocol packages/kit packages/node-transport apps/agentctl apps/backend apps/web .; do npx tsc -p "$ws"; done
echo "== lint"
npx eslint .
echo "== format"
npx prettier --check . --log-level warn
echo "== import cycles"
node scripts/check-cycles.mjs packages/protocol/src packages/kit/src packages/node-transport/src apps/agentctl/src apps/backend/src apps/web/src
echo "== contract literals"
node scripts/check-contract.mjs
echo "== build"
node scripts/build.mjs
echo "== tests"
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
# One project after another: browser and integration suites each start real servers, and on two
# cores running them side by side only makes both slower and flakier.
# A run can fail with every test passed (an unhandled error, a crashed worker): such projects are
# named at the end, so the closing line never reads green while the exit code is red.
failed_projects=()
for project in unit integration e2e; do
  echo "== $project tests"
  npx vitest run --project "$project" --reporter=default --reporter=json --outputFile.json="test-results/$project.json" ${1:+--passWithNoTests} "$@" \
    || { status=1; failed_projects+=("$project"); }
done
node scripts/summarize-tests.mjs test-results/*.json || status=1
[ ${#failed_projects[@]} -eq 0 ] || echo "vitest failed for: ${failed_projects[*]} (see 'Unhandled Errors' or 'FAIL' above)"
exit $status
