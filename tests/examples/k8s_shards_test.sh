#!/usr/bin/env bash
# examples/k8s/ run locally: the sweep Job's shard script once per completion index (as the
# Indexed Job's pods would run it, all at once), the merge Job's init container (it must wait
# while a shard is missing and go on once all are there) and its merge script — the scripts and
# environments taken from the manifests themselves, with a few quick library scenarios and a
# small seed count in place of the full sweep. The merged results must equal an unsharded
# `kubesim run` of the same files seed for seed, and the merge must print what the unsharded run
# prints and exit as it does.
# Usage: k8s_shards_test.sh KUBESIM_BINARY. Needs python3 with PyYAML (skipped, 77, without).
set -euo pipefail

kubesim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seeds=6

python3 -c 'import yaml' 2>/dev/null || { echo "python3 with PyYAML not found: skipped"; exit 77; }

tmp=$(mktemp -d)
waiter=
cleanup() {
  if [ -n "$waiter" ]; then kill "$waiter" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Quick library scenarios (a few seconds for all seeds in a Debug build).
scenarios=()
for pattern in 01-* 09-* 11-* 13-*; do
  for f in "$root"/scenarios/library/$pattern.yaml; do [ -f "$f" ] && scenarios+=("$f"); done
done
[ ${#scenarios[@]} -ge 2 ] || fail "fewer than two of the chosen library scenarios exist"

mkdir "$tmp/scripts"
shards=$(python3 "$here/k8s_manifests.py" extract "$root/examples/k8s" "$tmp/scripts")
[ "$shards" -ge 2 ] || fail "the sweep has $shards shards"

# The binary under test is `kubesim` on PATH, as in the image.
export PATH="$(dirname "$kubesim"):$PATH"
# run_container NAME [VAR=VALUE...]: NAME's script with NAME's environment from the manifest,
# then the local overrides; given up after two minutes.
run_container() {
  local name=$1
  shift
  (
    . "$tmp/scripts/$name.env"
    export SEEDS=$seeds SCENARIOS="${scenarios[*]}" RESULTS=$tmp/results "$@"
    exec timeout 120 /bin/sh "$tmp/scripts/$name.sh"
  )
}

echo "== $shards shards of ${#scenarios[@]} scenarios x $seeds seeds"
pids=()
for k in $(seq 0 $((shards - 1))); do
  run_container shard JOB_COMPLETION_INDEX="$k" >"$tmp/shard-$k.out" 2>&1 &
  pids+=($!)
done
for k in "${!pids[@]}"; do
  wait "${pids[$k]}" || fail "shard $k exited $?: $(cat "$tmp/shard-$k.out")"
  [ -s "$tmp/results/shard-$k.json" ] || fail "shard $k wrote no results: $(cat "$tmp/shard-$k.out")"
  [ ! -e "$tmp/results/.shard-$k.json" ] || fail "shard $k left its partial file"
done

# The merge Job's init container waits while a shard's results are missing...
last=$tmp/results/shard-$((shards - 1)).json
mv "$last" "$tmp/held.json"
run_container wait-for-shards >"$tmp/wait.out" 2>&1 &
waiter=$!
sleep 1
kill -0 "$waiter" 2>/dev/null || fail "the init container did not wait for the last shard"
kill "$waiter"
wait "$waiter" 2>/dev/null || true
waiter=
# ...and goes on once they are all there.
mv "$tmp/held.json" "$last"
run_container wait-for-shards >"$tmp/wait.out" 2>&1 ||
  fail "the init container did not finish: $(cat "$tmp/wait.out")"

merge_status=0
run_container merge >"$tmp/merge.out" 2>"$tmp/merge.err" || merge_status=$?
for f in merged.json junit.xml report.html; do
  [ -s "$tmp/results/$f" ] || fail "the merge wrote no $f: $(cat "$tmp/merge.err")"
done

whole_status=0
kubesim run "${scenarios[@]}" --seeds "$seeds" --results "$tmp/whole.json" \
  --junit "$tmp/whole.xml" >"$tmp/whole.out" 2>"$tmp/whole.err" || whole_status=$?
[ "$whole_status" -le 1 ] || fail "the unsharded run exited $whole_status: $(cat "$tmp/whole.err")"
[ "$merge_status" = "$whole_status" ] ||
  fail "the merge exited $merge_status, the unsharded run $whole_status: $(cat "$tmp/merge.err")"

shard_files=()
for k in $(seq 0 $((shards - 1))); do shard_files+=("$tmp/results/shard-$k.json"); done
python3 "$here/k8s_manifests.py" compare "$tmp/whole.json" "$tmp/results/merged.json" \
  "${shard_files[@]}"

# The summary and the JUnit file are the unsharded run's (but for the lines naming the files
# written, and the wall-clock times JUnit records).
summary() { grep -Ev '^(results|junit|report|trace): ' "$1"; }
diff <(summary "$tmp/whole.out") <(summary "$tmp/merge.out") >"$tmp/summary.diff" ||
  fail "the merge printed another summary: $(cat "$tmp/summary.diff")"
untimed() { sed -E 's/ (time|timestamp)="[^"]*"//g' "$1"; }
diff <(untimed "$tmp/whole.xml") <(untimed "$tmp/results/junit.xml") >"$tmp/junit.diff" ||
  fail "the merged JUnit file differs: $(head -20 "$tmp/junit.diff")"
echo "ok: $(tail -1 "$tmp/whole.out")"
