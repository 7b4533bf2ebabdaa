#!/usr/bin/env bash
# npm packages from the lockfile; skipped when node_modules already matches it.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.kandev-lock-stamp
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then exit 0; fi
echo "installing npm packages (better-sqlite3 may compile from source: about two minutes)"
npm ci --no-audit --no-fund --loglevel=error
cp package-lock.json "$stamp"
