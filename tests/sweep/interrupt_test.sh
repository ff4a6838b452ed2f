#!/bin/sh
# `kubesim run` of a long sweep, sent SIGINT once its first point has finished: it exits 130,
# prints "interrupted after N of 400 runs", and its CSV holds the header and exactly N rows.
# Usage: interrupt_test.sh KUBESIM
set -u
kubesim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fail() {
  echo "FAIL: $*" >&2
  echo "--- stdout"; cat out
  echo "--- stderr"; cat err
  exit 1
}

cat > long.yaml <<'YAML'
name: long
duration: 1m
seeds: 2
sweep:
  leaseDuration: {from: 5s, to: 20s, steps: 200}
measure: [failoverTime]
processes:
  - name: ctl
    replicas: 3
    run:
      - elector: {lock: leases/kube-system/ctl, leaseDuration: "{{leaseDuration}}", renewDeadline: 4s, retryPeriod: 1s}
timeline:
  - when: {process: ctl-0, after: {verb: update, resource: leases, count: 30}}
    crash: {process: ctl-0}
YAML

"$kubesim" run long.yaml --jobs 2 --csv rows.csv >out 2>err &
pid=$!
# A point's line is printed (and flushed) once its seeds are all in.
for _ in $(seq 600); do
  grep -q '^PASS' out && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
grep -q '^PASS' out || fail "no point finished within a minute"
kill -INT "$pid"
wait "$pid"
code=$?
[ "$code" -eq 130 ] || fail "exit status $code, expected 130"
line=$(grep '^interrupted after ' out) || fail "no 'interrupted after' line"
finished=$(echo "$line" | sed -n 's/^interrupted after \([0-9]*\) of 400 runs: the outputs hold the runs that finished$/\1/p')
[ -n "$finished" ] || fail "unexpected line: $line"
[ "$finished" -ge 2 ] && [ "$finished" -lt 400 ] || fail "$finished runs finished"
rows=$(($(wc -l <rows.csv) - 1))
[ "$rows" -eq "$finished" ] || fail "the CSV has $rows rows for $finished finished runs"
head -1 rows.csv | grep -q '^scenario,leaseDuration,seed,passed,failoverTime$' || fail "CSV header: $(head -1 rows.csv)"
grep -q '^interrupted: no further run starts' err || fail "no notice on stderr"
echo "ok: interrupted after $finished of 400 runs, $rows rows"
