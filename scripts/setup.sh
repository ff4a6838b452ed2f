#!/usr/bin/env bash
# Installs every Debian package kubesim needs to build, test and benchmark.
# Idempotent: does nothing when everything is present. Needs root (or sudo) to install.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libboost-dev libboost-system-dev
  nlohmann-json3-dev libssl-dev
  googletest libgtest-dev libgmock-dev librapidcheck-dev
  libyaml-cpp-dev libcli11-dev libspdlog-dev libfmt-dev
  libbenchmark-dev
  libprotobuf-dev protobuf-compiler
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
