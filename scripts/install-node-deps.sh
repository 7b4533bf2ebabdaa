#!/usr/bin/env bash
# npm packages from the lockfile; skipped when node_modules already matches it. A fresh clone gets
# `npm ci`; an existing node_modules is brought up to date in place (never wiped under a running
# server or test).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.kandev-lock-stamp
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then exit 0; fi
echo "installing npm packages (better-sqlite3 may compile from source: about two minutes)"
if [ -d node_modules ]; then
  npm install --no-audit --no-fund --loglevel=error
else
  npm ci --no-audit --no-fund --loglevel=error
fi
cp package-lock.json "$stamp"
