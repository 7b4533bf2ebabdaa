#!/usr/bin/env bash
# Installs the Debian packages the tests and the demo need, only those that are missing:
# Chromium (browser tests), Go and gopls (the real Go language server), Docker and debootstrap
# (Local Docker task hosts, with a base image built from a debootstrap root file system), clangd
# (the C/C++ language server, never auto-installed), fortran-language-server (fortls, the Fortran one,
# likewise), shellcheck (bash-language-server's linter),
# ripgrep (agentctl's workspace search uses rg when the task host has it; the tests cover both),
# bubblewrap (untrusted workspaces' language servers run without network) and a Go that switches
# toolchains (1.21+; on Debian 12 golang-1.22-go from bookworm-backports, beside Debian's own go).
set -euo pipefail
packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(chromium golang-go gopls docker.io debootstrap clangd fortran-language-server shellcheck ripgrep bubblewrap golang-1.22-go)

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
# Debian 12 ships Go 1.19; its backports suite has 1.22 (a package of its own, /usr/lib/go-1.22).
backports=()
if [[ " ${missing[*]} " == *" golang-1.22-go "* ]] && ! apt-cache show golang-1.22-go >/dev/null 2>&1; then
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  if [ "$codename" = bookworm ]; then
    echo "deb http://deb.debian.org/debian bookworm-backports main" >/etc/apt/sources.list.d/kandev-backports.list
    backports=(-t bookworm-backports)
  fi
fi
main=()
for p in "${missing[@]}"; do [ "$p" = golang-1.22-go ] || main+=("$p"); done
apt-get update -qq
[ ${#main[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${main[@]}" >/dev/null
if [ ${#main[@]} -ne ${#missing[@]} ]; then
  apt-get install -y -qq --no-install-recommends "${backports[@]}" golang-1.22-go >/dev/null
fi
