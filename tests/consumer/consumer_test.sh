#!/usr/bin/env bash
# kubesim as a user's project takes it in:
# 1. installed: `cmake --install` of this build to a prefix (with no header under an internal/
#    folder), then a project using
#    find_package(kubesim CONFIG REQUIRED) is configured, built and run against it;
# 2. from a checkout: the same project with add_subdirectory(kubesim) is configured (kubesim's
#    tests and benchmarks must stay off), and its source is compiled against kubesim's headers
#    (linking would rebuild every library: the installed case links and runs);
# 3. examples/widget, a controller and its tests on kubesim::testing, built as a project of its
#    own against the installed package; its tests and its scenario program run.
# Usage: consumer_test.sh BUILD_DIR SOURCE_DIR SANITIZERS
set -euo pipefail
build=$1
src=$2
sanitize=${3:-}
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

flags=()
if [ -n "$sanitize" ]; then
  # The installed libraries are instrumented; the program that links them must be too.
  flags=(-DCMAKE_CXX_FLAGS="-fsanitize=$sanitize" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$sanitize")
fi
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log"
[ -f "$tmp/prefix/include/kubesim/fakeapi/server.h" ] || { echo "server.h not installed"; exit 1; }
ls "$tmp"/prefix/lib*/cmake/kubesim/kubesimConfig.cmake >/dev/null
# Only public headers are installed: a component's private helpers sit beside its sources.
if find "$tmp/prefix/include" -path '*/internal/*' | grep .; then
  echo "headers under an internal/ folder are installed (above)"
  exit 1
fi

cmake -S "$here" -B "$tmp/installed" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" "${flags[@]}" "${launcher[@]}" >"$tmp/configure.log"
cmake --build "$tmp/installed" >"$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }
"$tmp/installed/consumer"

cmake -S "$here" -B "$tmp/subdir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKUBESIM_SOURCE_DIR="$src" \
  "${flags[@]}" "${launcher[@]}" >"$tmp/configure-subdir.log" || { cat "$tmp/configure-subdir.log"; exit 1; }
if ninja -C "$tmp/subdir" -t targets all | grep -q "fakeapi_tests"; then
  echo "add_subdirectory: kubesim's tests are built in a user's project"
  exit 1
fi
ninja -C "$tmp/subdir" CMakeFiles/consumer.dir/main.cc.o >"$tmp/build-subdir.log" ||
  { cat "$tmp/build-subdir.log"; exit 1; }
cmake -S "$src/examples/widget" -B "$tmp/widget" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" "${flags[@]}" "${launcher[@]}" >"$tmp/configure-widget.log" ||
  { cat "$tmp/configure-widget.log"; exit 1; }
cmake --build "$tmp/widget" >"$tmp/build-widget.log" || { cat "$tmp/build-widget.log"; exit 1; }
ctest --test-dir "$tmp/widget" --output-on-failure

echo "consumer tests passed"
