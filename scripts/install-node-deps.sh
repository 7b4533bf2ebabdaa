#!/usr/bin/env bash
# npm packages from the lockfile; skipped when node_modules already matches it. A fresh clone gets
# `npm ci`; an existing node_modules is brought up to date in place (never wiped under a running
# server or test).
#
# The packages that compile native code on install (better-sqlite3 from source, about 70 s of one
# core; Docker's ssh2 and cpu-features, a few seconds) can be compiled later, beside other work:
#   install-node-deps.sh --defer-native   a fresh clone gets every package, and every install
#                                         script but theirs; nothing that loads them may run yet
#   install-node-deps.sh --native         their install scripts, then the lockfile is marked done
# `npm test` runs the second beside its type check, lint and build, which never load them. Without
# an argument both happen at once, as a person starting the product needs.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.kandev-lock-stamp
# Set while the native packages of a fresh install are still uncompiled; any later run compiles
# them first (an interrupted `--native` must not leave a node_modules that looks complete).
pending=node_modules/.kandev-native-pending
# Every package in package-lock.json with an install script is in exactly one of these lists
# (scripts/install-node-deps.test.ts): a new one must be placed, never silently skipped.
native_packages=(better-sqlite3 cpu-features ssh2)
quick_packages=(esbuild @parcel/watcher protobufjs)
mode=${1:-all}

compile_native() {
  echo "compiling the native packages: ${native_packages[*]}"
  npm rebuild --no-audit --no-fund --loglevel=error "${native_packages[@]}"
  rm -f "$pending"
}

case "$mode" in
  --native)
    # `npm test`'s compile: SQLite at -O1 instead of the package's -O3 builds in half the time
    # (37 s against 75 of one core on a two-core machine of CI's kind) and does the same; the
    # tests' few small queries cannot tell. node-gyp puts these flags after the package's own, so
    # they win. An install for running the product (no argument) keeps the package's flags.
    if [ -f "$pending" ]; then CFLAGS=-O1 CXXFLAGS=-O1 compile_native; fi
    cp package-lock.json "$stamp"
    exit 0
    ;;
  --defer-native | all) ;;
  *)
    echo "usage: install-node-deps.sh [--defer-native | --native]" >&2
    exit 2
    ;;
esac

if [ -f "$pending" ] && [ "$mode" = all ]; then compile_native; fi
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then exit 0; fi
if [ -d node_modules ]; then
  echo "installing npm packages (better-sqlite3 may compile from source: about two minutes)"
  npm install --no-audit --no-fund --loglevel=error
  # npm install runs no install script of a package it leaves in place.
  if [ -f "$pending" ]; then compile_native; fi
  cp package-lock.json "$stamp"
  exit 0
fi
if [ "$mode" = all ]; then
  echo "installing npm packages (better-sqlite3 may compile from source: about two minutes)"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
  exit 0
fi
echo "installing npm packages (the native ones compile later: ${native_packages[*]})"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
touch "$pending"
npm rebuild --no-audit --no-fund --loglevel=error "${quick_packages[@]}"
