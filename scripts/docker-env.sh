#!/usr/bin/env bash
# Test-only Docker environment: starts a private dockerd (no bridge, no iptables, so no container
# traffic ever leaves loopback) and builds the base image from a debootstrap root file system,
# because no image registry can be reached. Prints `export DOCKER_HOST=...` lines for the caller.
#   scripts/docker-env.sh start   start dockerd (if not running) and build the image (if missing)
#   scripts/docker-env.sh stop    stop the dockerd this script started, by PID
set -euo pipefail
state=${KANDEV_DOCKER_STATE:-/tmp/kandev-dockerd}
image=${KANDEV_DOCKER_IMAGE:-kandev-test-base}
sock="$state/docker.sock"
# Bump when the image's package list changes: an image of another version is rebuilt. docker import
# takes no LABEL, so the version travels as an ENV entry of the image config.
image_version=3
image_packages=ripgrep,bubblewrap
mkdir -p "$state"

mirror() {
  # The Debian mirror apt already uses (deb822 or one-line sources).
  local uri
  uri=$(grep -hoE '^URIs: *\S+' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -n1 | awk '{print $2}')
  [ -n "$uri" ] || uri=$(grep -hoE '^deb \S+' /etc/apt/sources.list 2>/dev/null | grep -v security | head -n1 | awk '{print $2}')
  echo "${uri:-http://deb.debian.org/debian}"
}

start() {
  for tool in dockerd docker debootstrap; do
    command -v "$tool" >/dev/null || { echo "docker-env.sh: $tool is missing (Debian packages docker.io and debootstrap)" >&2; exit 1; }
  done
  [ "$(id -u)" = 0 ] || { echo "docker-env.sh: starting a private dockerd needs root" >&2; exit 1; }
  # One start at a time: `npm test` starts dockerd and builds the image in the background while a
  # test file may already ask for them; a second caller waits here for the first to finish, then
  # finds both ready instead of starting a second dockerd or debootstrap into the same folder.
  # dockerd outlives this script, so it must not inherit the lock's descriptor (9>&- below).
  exec 9>"$state/start.lock"
  flock 9
  if [ -f "$state/dockerd.pid" ] && kill -0 "$(cat "$state/dockerd.pid")" 2>/dev/null; then :; else
    dockerd --host "unix://$sock" --data-root "$state/data" --exec-root "$state/exec" --pidfile "$state/dockerd.pid" \
      --bridge=none --iptables=false --ip-forward=false >"$state/dockerd.log" 2>&1 9>&- &
    for _ in $(seq 1 60); do
      DOCKER_HOST="unix://$sock" docker info >/dev/null 2>&1 && break
      sleep 1
    done
    DOCKER_HOST="unix://$sock" docker info >/dev/null 2>&1 || { tail -20 "$state/dockerd.log" >&2; exit 1; }
  fi
  local built_version
  built_version=$(DOCKER_HOST="unix://$sock" docker image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$image" 2>/dev/null \
    | sed -n 's/^KANDEV_BASE_IMAGE_VERSION=//p' || true)
  if [ "$built_version" != "$image_version" ]; then
    local root="$state/rootfs"
    rm -rf "$root"
    echo "building the $image image (version $image_version) with debootstrap (a few minutes)" >&2
    # ripgrep: agentctl's workspace search uses rg when the task host has it. bubblewrap: agentctl
    # takes untrusted language servers off the network with it (docs/workspace-trust.md).
    debootstrap --variant=minbase --include="$image_packages" bookworm "$root" "$(mirror)" >"$state/debootstrap.log" 2>&1 || { tail -20 "$state/debootstrap.log" >&2; exit 1; }
    tar -C "$root" -c . | DOCKER_HOST="unix://$sock" docker import --change "ENV KANDEV_BASE_IMAGE_VERSION=$image_version" - "$image" >/dev/null
    rm -rf "$root"
  fi
  echo "export DOCKER_HOST=unix://$sock"
  echo "export KANDEV_DOCKER_IMAGE=$image"
}

stop() {
  if [ -f "$state/dockerd.pid" ]; then
    local pid; pid=$(cat "$state/dockerd.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    rm -f "$state/dockerd.pid"
  fi
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
