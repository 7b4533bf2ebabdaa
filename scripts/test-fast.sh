#!/usr/bin/env bash
# `npm run test:fast`: the quick local check before a push, about two minutes on two cores: type
# check (incremental, tsc -b) and lint side by side, then the unit tests and the integration tests
# that need only the fake language server (no real server, no Docker, no browser). `npm test` stays
# the whole suite. Extra arguments go to vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
echo "== type check and lint"
npx tsc -b &
typecheck_pid=$!
npx eslint .
wait $typecheck_pid
echo "== build (what changed)"
node scripts/build.mjs agentctl backend fake-lsp-server
echo "== unit and fake-server integration tests"
fake_server_files=(
  test/integration/agentctl-files.test.ts
  test/integration/access-files.test.ts
  test/integration/backend-cli.test.ts
  test/integration/faults-keepalive.test.ts
  test/integration/faults-nesting.test.ts
  test/integration/faults-release.test.ts
  test/integration/faults-restart.test.ts
  test/integration/faults-slow-server.test.ts
  test/integration/lease-capacity.test.ts
  test/integration/lease-deadline.test.ts
  test/integration/lease-release.test.ts
  test/integration/live-workspace-detached.test.ts
)
npx vitest run --project 'unit*' "$@"
KANDEV_TEST_LANE=parallel npx vitest run --project integration "${fake_server_files[@]}" "$@"
echo "test:fast took $(($(date +%s) - started))s"
