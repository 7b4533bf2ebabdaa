#!/usr/bin/env bash
# Installs the Debian packages the tests and the demo need, only those that are missing:
# Chromium (browser tests), Go and gopls (the real Go language server), Docker and debootstrap
# (Local Docker task hosts, with a base image built from a debootstrap root file system), clangd
# (the C/C++ language server, never auto-installed), shellcheck (bash-language-server's linter) and
# ripgrep (agentctl's workspace search uses rg when the task host has it; the tests cover both).
set -euo pipefail
packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(chromium golang-go gopls docker.io debootstrap clangd shellcheck ripgrep)

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "missing Debian packages: ${missing[*]} (install them as root with apt-get)" >&2
  exit 1
fi
echo "installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
