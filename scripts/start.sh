#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, and starts Kandev on its embedded defaults
# (127.0.0.1:7420, SQLite under ~/.kandev) with the demo task. Extra arguments reach the backend:
# `npm start -- --workspace DIR` also opens DIR as a task. The backend prints the link to open, with
# the access token (`http://127.0.0.1:7420/?token=...`, docs/access.md): one click signs in.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-node-deps.sh
# gopls gives the demo's Go files real intelligence; without root or apt the rest still works.
if ! command -v gopls >/dev/null; then
  bash scripts/install-system-deps.sh golang-go gopls || echo "note: Go intelligence needs gopls on PATH" >&2
fi
# ripgrep makes the files search fast; without it agentctl's own (slower) walker answers.
if ! command -v rg >/dev/null; then
  bash scripts/install-system-deps.sh ripgrep || echo "note: the files search is faster with ripgrep (rg) on PATH" >&2
fi
node scripts/build.mjs agentctl backend
if [ ! -f apps/web/dist/index.html ] || [ -n "$(find apps/web/src apps/web/index.html packages/protocol/src -newer apps/web/dist/index.html -print -quit)" ]; then
  node scripts/build.mjs web
fi
exec node apps/backend/dist/backend.mjs --demo "$@"
