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
  libxxhash-dev  # the trace hash (XXH3, header only)
  libprotobuf-dev protobuf-compiler
  python3-kubernetes curl openssl
  faketime  # libfaketime: clock skew and drift of live-mode processes (kubesim run --live)
  chromium  # the HTML report rendered headless in a real browser (tests/report/browser_test.sh)
)

# npm's @kubernetes/client-node for tests/fakeapi_http/node (when node and npm exist); `npm ci`
# only when node_modules is missing or older than the lock file.
node_dir="$(dirname "$0")/../tests/fakeapi_http/node"
if command -v node >/dev/null && command -v npm >/dev/null && [ -f "$node_dir/package-lock.json" ] &&
   ! [ "$node_dir/node_modules/.package-lock.json" -nt "$node_dir/package-lock.json" ]; then
  echo "setup: npm ci in tests/fakeapi_http/node"
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error) ||
    echo "setup: npm ci failed; the client-node test will be skipped" >&2
fi

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
