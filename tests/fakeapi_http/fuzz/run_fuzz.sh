#!/usr/bin/env bash
# Builds the libFuzzer targets — the HTTP request path and the scenario file parser — with clang
# in one side build and runs each briefly from its seed corpus, the HTTP one first (CTest's
# fakeapi_http_fuzz). Exits 77 (skipped) when clang++ with libFuzzer is not installed.
# Usage: run_fuzz.sh SOURCE_DIR SIDE_BUILD_DIR [SECONDS]   (default 20 s, or $KUBESIM_FUZZ_SECONDS;
# the parser gets $KUBESIM_SCENARIO_FUZZ_SECONDS, default 10 s)
set -euo pipefail

src=$1
build=$2
seconds=${3:-${KUBESIM_FUZZ_SECONDS:-20}}
clang=${KUBESIM_FUZZ_CXX:-clang++}

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n' >"$probe/p.cc"
if ! command -v "$clang" >/dev/null || ! "$clang" -fsanitize=fuzzer "$probe/p.cc" -o "$probe/p" 2>/dev/null; then
  echo "no clang++ with libFuzzer: skipped"
  exit 77
fi

# UBSan's function check trips clang 14 on coroutines with coverage ("Cannot represent a
# difference across sections"), so it is left out.
ubsan="-fsanitize=undefined -fno-sanitize=function"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$clang" -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only -fsanitize=fuzzer-no-link $ubsan" \
    -DCMAKE_EXE_LINKER_FLAGS="$ubsan" -DKUBESIM_SANITIZE=address -DKUBESIM_FUZZ=ON \
    -DKUBESIM_UNITY_LIBS=ON >"$probe/configure.log" ||
    { cat "$probe/configure.log"; exit 1; }
fi
cmake --build "$build" --target fakeapi_http_fuzz scenario_parse_fuzz -j"${JOBS:-2}"

corpus="$build/fuzz-corpus"
mkdir -p "$corpus"
"$build/tests/fakeapi_http_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -error_exitcode=1 -timeout_exitcode=1 \
  -print_final_stats=1 -dict="$src/tests/fakeapi_http/fuzz/http.dict" \
  -artifact_prefix="$build/" "$corpus" "$src/tests/fakeapi_http/fuzz/corpus"

scenario_corpus="$build/scenario-fuzz-corpus"
mkdir -p "$scenario_corpus"
"$build/tests/scenario_parse_fuzz" -max_total_time="${KUBESIM_SCENARIO_FUZZ_SECONDS:-10}" -timeout=10 \
  -rss_limit_mb=4096 -error_exitcode=1 -timeout_exitcode=1 \
  -print_final_stats=1 -dict="$src/tests/scenarios/fuzz/scenario.dict" \
  -artifact_prefix="$build/scenario-" "$scenario_corpus" "$src/tests/scenarios/fuzz/corpus"
