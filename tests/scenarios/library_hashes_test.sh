#!/usr/bin/env bash
# The scenario library's trace hashes (CTest's scenarios_library_hashes): the first seeds of every
# scenario in scenarios/library/ must give the traces recorded in library_hashes.tsv, so a change
# that moves any event, random draw or trace line of a library run shows here, in any build. When
# a change alters traces on purpose, rewrite the file with --update and say why in the commit.
# Usage: library_hashes_test.sh KUBESIM SOURCE_DIR WORK_DIR [--update]
set -euo pipefail

kubesim=$1
src=$2
work=$3
update=${4:-}
golden="$src/tests/scenarios/library_hashes.tsv"
seeds=3
rm -rf "$work"
mkdir -p "$work"

set +e
"$kubesim" run "$src/scenarios/library" --seeds "$seeds" --jobs 2 --results "$work/results.json" \
  >"$work/run.out" 2>&1
set -e
if [ ! -s "$work/results.json" ]; then
  cat "$work/run.out" >&2
  echo "kubesim run wrote no results" >&2
  exit 1
fi
/usr/bin/python3 - "$work/results.json" >"$work/hashes.tsv" <<'PY'
import json, sys
rows = []
for sc in json.load(open(sys.argv[1]))["scenarios"]:
    for s in sc["seeds"]:
        rows.append((sc["name"], str(s["seed"]), s.get("traceHash") or "none"))
for r in sorted(rows):
    print(*r, sep="\t")
PY
if [ "$(wc -l <"$work/hashes.tsv")" -eq 0 ]; then
  echo "no seed ran" >&2
  exit 1
fi
if [ "$update" = "--update" ]; then
  cp "$work/hashes.tsv" "$golden"
  echo "wrote $golden"
  exit 0
fi
if ! diff "$golden" "$work/hashes.tsv" >"$work/diff.txt"; then
  echo "trace hashes differ from $golden (< recorded, > now):" >&2
  cat "$work/diff.txt" >&2
  exit 1
fi
echo "library hashes: $(wc -l <"$golden") seeds as recorded"
