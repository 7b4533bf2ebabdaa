#!/usr/bin/env bash
# `npm test`: installs everything the tests need (Debian packages included), type-checks, builds,
# and runs the unit, integration and browser tests. With CI=true a suite that cannot run fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh
bash scripts/install-node-deps.sh
echo "== type check"
for ws in packages/protocol apps/agentctl apps/backend apps/web .; do npx tsc -p "$ws"; done
echo "== build"
node scripts/build.mjs
echo "== tests"
mkdir -p test-results
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@" || status=$?
node scripts/summarize-tests.mjs test-results/vitest.json || status=1
exit $status
