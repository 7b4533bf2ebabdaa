#!/usr/bin/env bash
# `npm run restart`: restarts Kandev without a cold start for its editors. The running backend (named
# in $KANDEV_HOME/backend.lock) gets SIGUSR2: it exits leaving its task hosts and language servers
# running for KANDEV_RESTART_GRACE_MS (default 2 minutes); then `npm start` (rebuild included)
# starts the next backend, which re-adopts them, and open editors reconnect warm (docs/restarts.md).
# With no backend running it is just `npm start`. Extra arguments reach `npm start`.
set -euo pipefail
cd "$(dirname "$0")/.."
home="${KANDEV_HOME:-$HOME/.kandev}"
home="${home/#\~/$HOME}"
lock="$home/backend.lock"
if [ -f "$lock" ]; then
  pid="$(node -e 'try { const l = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); if (Number.isInteger(l.pid)) console.log(l.pid); } catch {}' "$lock")"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "Restarting the Kandev backend (pid $pid); its language servers keep running." >&2
    kill -USR2 "$pid"
    for _ in $(seq 1 300); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "kandev: the backend (pid $pid) did not exit within 30 s; not starting another one" >&2
      exit 1
    fi
  fi
fi
exec bash scripts/start.sh "$@"
