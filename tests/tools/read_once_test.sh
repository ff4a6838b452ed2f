#!/usr/bin/env bash
# `kubesim run` reads each scenario file once, so a file that can be read only once works: `-`
# (standard input), a pipe, a shell's `<(…)`. Usage: read_once_test.sh KUBESIM
set -u
kubesim=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/s.yaml" <<'YAML'
name: once
duration: 1m
processes:
  - name: m
    replicas: 2
    run:
      - elector: {lock: leases/kube-system/m}
expect:
  eventually:
    - {within: 30s, leaderElected: leases/kube-system/m}
YAML

check() {  # NAME EXIT-STATUS OUT-FILE ERR-FILE
  if [ "$2" != 0 ] || ! grep -q "1 passed" "$3"; then
    echo "FAIL: $1: exit $2"
    echo "--- stdout"; cat "$3"
    echo "--- stderr"; cat "$4"
    exit 1
  fi
}

timeout 60 "$kubesim" run - --seeds 1 < "$work/s.yaml" > "$work/out" 2> "$work/err"
check "run - < s.yaml" $? "$work/out" "$work/err"

cat "$work/s.yaml" | timeout 60 "$kubesim" run /dev/stdin --seeds 1 > "$work/out" 2> "$work/err"
check "run /dev/stdin (a pipe)" $? "$work/out" "$work/err"

timeout 60 "$kubesim" run <(cat "$work/s.yaml") --seeds 1 > "$work/out" 2> "$work/err"
check "run <(cat s.yaml)" $? "$work/out" "$work/err"
echo "ok"
