#!/usr/bin/env bash
# Determinism of `kubesim run` (CTest's scenarios_determinism): the same file and seed give a
# byte-identical trace; --jobs 1 and --jobs 2 give the same per-seed results; three shards merged
# give the same per-seed results as the whole run (over a few library scenarios: elections, a
# controller with a trigger, a known-unsafe setup).
# Usage: determinism_test.sh KUBESIM SOURCE_DIR WORK_DIR
set -euo pipefail

kubesim=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
scenario="$src/scenarios/library/01-leader-failover-partition.yaml"
library="$work/library"
mkdir -p "$library"
for f in 01-leader-failover-partition 04-configmap-lock-crashes 11-paused-leader 12-crash-on-trigger; do
  ln -s "$src/scenarios/library/$f.yaml" "$library/$f.yaml"
done

# Same file, same seed: the same bytes, ending with the trace hash.
"$kubesim" run "$scenario" --seed 7 --trace "$work/a.jsonl" >/dev/null
"$kubesim" run "$scenario" --seed 7 --trace "$work/b.jsonl" >/dev/null
cmp "$work/a.jsonl" "$work/b.jsonl"
tail -n 1 "$work/a.jsonl" | grep -q '"traceHash"'
# Another seed: another run.
"$kubesim" run "$scenario" --seed 8 --trace "$work/c.jsonl" >/dev/null
if cmp -s "$work/a.jsonl" "$work/c.jsonl"; then
  echo "seeds 7 and 8 gave the same trace" >&2
  exit 1
fi

# Per-seed results: what is compared (wall times left out).
outcomes() {
  /usr/bin/python3 - "$@" <<'PY'
import json, sys
rows = []
for path in sys.argv[1:]:
    doc = json.load(open(path))
    for sc in doc["scenarios"]:
        for s in sc["seeds"]:
            rows.append((sc["name"], s["seed"], s.get("traceHash"),
                         json.dumps(s.get("failures", []), sort_keys=True), s.get("error", "")))
for r in sorted(rows):
    print(*r, sep="\t")
PY
}

set +e
"$kubesim" run "$library" --seeds 3 --jobs 1 --results "$work/jobs1.json" >"$work/jobs1.out" 2>&1
rc1=$?
"$kubesim" run "$library" --seeds 3 --jobs 2 --results "$work/jobs2.json" >"$work/jobs2.out" 2>&1
rc2=$?
for k in 0 1 2; do
  "$kubesim" run "$library" --seeds 3 --shard "$k/3" --results "$work/shard$k.json" >/dev/null 2>&1
done
"$kubesim" merge "$work/shard0.json" "$work/shard1.json" "$work/shard2.json" \
  --results "$work/merged.json" >"$work/merged.out" 2>&1
rc3=$?
set -e
if [ "$rc1" -ne "$rc2" ] || [ "$rc1" -ne "$rc3" ]; then
  echo "exit codes differ: jobs1 $rc1, jobs2 $rc2, merged shards $rc3" >&2
  exit 1
fi
diff <(outcomes "$work/jobs1.json") <(outcomes "$work/jobs2.json")
diff <(outcomes "$work/jobs1.json") <(outcomes "$work/merged.json")
diff <(outcomes "$work/jobs1.json") <(outcomes "$work/shard0.json" "$work/shard1.json" "$work/shard2.json")
# The summary lines do not depend on how the runs were spread.
diff <(grep -E '^(PASS|FAIL)|passed, ' "$work/jobs1.out") <(grep -E '^(PASS|FAIL)|passed, ' "$work/jobs2.out")
echo "determinism: ok"
