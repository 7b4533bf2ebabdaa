#!/usr/bin/env bash
# Starts the demo service on the port given as the first argument.
set -euo pipefail

# Prints where the service listens.
announce() {
  echo "listening on port $1"
}

port="${1:-8080}"
# A deliberate warning: the unquoted expansion below (SC2086).
announce $port
