#!/usr/bin/env bash
# The fixture's compile cost: what one typical controller test file costs to compile against
# kubesim's headers — examples/widget/widget_test.cc (three seeded tests with SimCluster, faults,
# matchers and conditions) — in CPU seconds (user + system) and peak memory, in three builds:
#   release  -O3 -DNDEBUG (CMake's Release)
#   test     -g with ASan and UBSan (the suite's build, `make test`)
#   plain    -O0
# and how many lines `kubesim/testing/testing.h` alone preprocesses to. Each compile runs alone;
# run it on an idle machine. Usage: bench/compile_cost.sh [CXX] (default c++).
set -euo pipefail
cd "$(dirname "$0")/.."
cxx=${1:-c++}
inc=()
for d in */include fakeapi/http/include examples/widget; do inc+=("-I$d"); done
common=(-std=c++20 "${inc[@]}" -c examples/widget/widget_test.cc -o /dev/null)
declare -A flags=(
  [release]="-O3 -DNDEBUG"
  [test]="-g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
  [plain]="-O0"
)
printf '%-8s %10s %10s\n' build "CPU s" "peak MB"
for build in release test plain; do
  # shellcheck disable=SC2086
  out=$(/usr/bin/time -f '%U %S %M' "$cxx" ${flags[$build]} "${common[@]}" 2>&1 >/dev/null | tail -1)
  read -r user sys kb <<<"$out"
  awk -v b="$build" -v u="$user" -v s="$sys" -v k="$kb" 'BEGIN { printf "%-8s %10.1f %10d\n", b, u + s, k / 1024 }'
done
lines=$(echo '#include "kubesim/testing/testing.h"' | "$cxx" -std=c++20 "${inc[@]}" -E -x c++ - | wc -l)
echo "kubesim/testing/testing.h preprocesses to $lines lines"
