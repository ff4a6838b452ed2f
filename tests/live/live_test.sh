#!/usr/bin/env bash
# Live mode end to end: `kubesim run --live` against real processes.
#
# Usage: live_test.sh KUBESIM CASE, CASE one of
#   converges     the Python mirror (mirror.py) under a partition, a crash and 500s converges;
#                 JUnit, HTML report and results are written and marked live
#   python-election  the Python client's own leader election on a ConfigMap lock: the lock's
#                 checks read its record (every value a string)
#   planted-bug   the mirror with a planted bug: exit 1, the count check named
#   bad-input     a command that does not exist: exit 2, FILE:LINE:COL, nothing run
#   exits-at-once a command that exits at once: exit 1, an error naming the replica and its stderr;
#                 and a static binary under a skew: the note at start
#   clock         libfaketime: a Python program an hour fast, then stepped back 30 minutes
#   interrupt     SIGINT in the middle of a run: exit 130, every replica process gone; and a
#                 SIGKILLed kubesim takes its replicas with it
# Exits 77 (skipped) when /usr/bin/python3 or its kubernetes module is missing, for the cases
# that need them.
set -u
kubesim=$1
case_name=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fail() {
  echo "FAIL ($case_name): $*" >&2
  echo "--- stdout"; cat "$work/out" 2>/dev/null
  echo "--- stderr"; cat "$work/err" 2>/dev/null
  exit 1
}

need_python() {
  if ! /usr/bin/python3 -c 'import kubernetes' 2>/dev/null; then
    echo "python3-kubernetes is not installed: skipped"
    exit 77
  fi
}

run() {  # kubesim run --live ARGS…; sets $code
  "$kubesim" run --live --live-output "$work/live" "$@" >"$work/out" 2>"$work/err"
  code=$?
}

expect_code() {
  [ "$code" -eq "$1" ] || fail "exit status $code, want $1"
}

expect_in() {  # FILE TEXT
  grep -qF -- "$2" "$1" || fail "$(basename "$1") lacks: $2"
}

# Whether process $1 runs (a zombie, killed but not yet reaped by init, does not).
alive_pid() {
  kill -0 "$1" 2>/dev/null && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null
}

# The pids of the replica processes a run started, from its log on stderr.
started_pids() {
  sed -n 's/^live: started [a-z0-9-]* (pid \([0-9]*\)).*/\1/p' "$work/err"
}

# Starts mirror.yaml live in the background with its output under $1; sets $pid (kubesim's) and
# $pids (the replicas'), once both replicas have started.
start_mirror() {
  "$kubesim" run --live --live-output "$1" "$here/mirror.yaml" >"$work/out" 2>"$work/err" &
  pid=$!
  for _ in $(seq 100); do
    [ "$(started_pids | wc -l)" -ge 2 ] && break
    sleep 0.1
  done
  pids=$(started_pids)
  [ "$(echo "$pids" | wc -l)" -ge 2 ] || fail "the replicas did not start"
}

case "$case_name" in
  converges)
    need_python
    run "$here/mirror.yaml" --junit "$work/junit.xml" --report "$work/report.html" --results "$work/results.json"
    expect_code 0
    expect_in "$work/out" "PASS live-mirror-converges"
    expect_in "$work/err" "live: killed mirror-1 (crashed)"
    expect_in "$work/err" "live: paused mirror-0 (SIGSTOP)"
    expect_in "$work/err" "live: resumed mirror-0 (SIGCONT)"
    seed="$work/live/live-mirror-converges/seed-1"
    for f in tokens.csv mirror-0/kubeconfig mirror-1/kubeconfig mirror-0/stdout mirror-1/stderr; do
      [ -f "$seed/$f" ] || fail "no $f in the run folder"
    done
    expect_in "$seed/mirror-0/stdout" "mirror-0: started"
    # The fault rule for mirror-0's requests reached mirror-0 only.
    expect_in "$seed/mirror-0/stdout" "mirror-0: lease: 500 Internal Server Error"
    ! grep -q "lease: 500" "$seed/mirror-1/stdout" || fail "mirror-1 got mirror-0's fault"
    # Both led: the failover happened.
    expect_in "$seed/mirror-0/stdout" "mirror-0: leading"
    expect_in "$seed/mirror-1/stdout" "mirror-1: leading"
    expect_in "$seed/tokens.csv" ",mirror-0,mirror-0,"
    expect_in "$work/junit.xml" 'name="kubesim.live" value="true"'
    expect_in "$work/results.json" '"live": true'
    expect_in "$work/report.html" "a live run: real time and real processes"
    ;;
  python-election)
    # The Python client's own leader election (a ConfigMap lock, every record value a string):
    # leaderElected and atMostOneLeader read its record as they read client-go's.
    need_python
    run "$here/election.yaml"
    expect_code 0
    expect_in "$work/out" "PASS live-python-election"
    seed="$work/live/live-python-election/seed-1"
    cat "$seed/py-0/stdout" "$seed/py-1/stdout" > "$work/both"
    expect_in "$work/both" ": leading"
    ;;
  planted-bug)
    need_python
    run "$here/mirror_bug.yaml"
    expect_code 1
    expect_in "$work/out" "FAIL live-mirror-planted-bug"
    expect_in "$work/out" "broke $here/mirror_bug.yaml:33:7: {count: {resource: configmaps, namespace: dst}, equals: {count: {resource: configmaps, namespace: src}}}"
    expect_in "$work/out" "count of configmaps in dst is"
    expect_in "$work/out" "of real time (a live run)"
    expect_in "$work/out" "live run: not replayable (real time, real processes); run it again: $kubesim run --live $here/mirror_bug.yaml --seed 1"
    ;;
  bad-input)
    run "$here/bad/missing_command.yaml"
    expect_code 2
    expect_in "$work/err" "$here/bad/missing_command.yaml:6:11: command: \"kubesim-no-such-program\" is not an executable file in any directory of PATH"
    expect_in "$work/err" "1 error; nothing was run"
    [ ! -e "$work/live" ] || fail "a run folder was made"
    ;;
  exits-at-once)
    run "$here/bad/exits_at_once.yaml"
    expect_code 1
    expect_in "$work/out" "the run failed: process quick-0: \`/bin/sh -c echo broken configuration >&2; exit 3\` exited with status 3 before it sent any request to the API server"
    expect_in "$work/out" "broken configuration"
    run "$here/bad/exits_at_once.yaml" --seeds 2
    expect_code 1
    expect_in "$work/out" "FAIL live-exits-at-once: 2 of 2 seeds broke checks"
    run "$here/bad/static_skew.yaml"
    expect_code 1
    expect_in "$work/err" "$here/bad/static_skew.yaml: process static: its clock skew and drift cannot be applied: /sbin/ldconfig is statically linked: libfaketime (LD_PRELOAD) cannot change its clock; it runs on the real clock"
    expect_in "$work/out" "process static-0: \`/sbin/ldconfig -p\` exited with status 0 before it sent any request"
    ;;
  clock)
    need_python
    if [ ! -e /usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1 ] &&
       [ ! -e /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ]; then
      echo "faketime is not installed: skipped"
      exit 77
    fi
    run "$here/clock.yaml"
    expect_code 0
    now=$(date +%s)
    log="$work/live/live-clock-skew/seed-1/clock-0/stdout"
    first=$(head -n 1 "$log")
    last=$(tail -n 1 "$log")
    [ -n "$first" ] || fail "the program printed nothing"
    # An hour fast at first, half an hour after the step (give or take the run's seconds).
    awk -v t="$first" -v n="$now" 'BEGIN { d = t - n; exit !(d > 3590 && d < 3610) }' ||
      fail "first reading $first is not an hour ahead of $now"
    awk -v t="$last" -v n="$now" 'BEGIN { d = t - n; exit !(d > 1790 && d < 1810) }' ||
      fail "last reading $last is not half an hour ahead of $now"
    # The programs print every 200 ms of their own time, and libfaketime shortens the sleeps of a
    # clock running 50 % fast: over the same real time it prints 1.5 times as many readings.
    fast=$(wc -l <"$work/live/live-clock-skew/seed-1/fast-0/stdout")
    plain=$(wc -l <"$log")
    awk -v f="$fast" -v p="$plain" 'BEGIN { exit !(p > 0 && f / p > 1.25 && f / p < 1.75) }' ||
      fail "the drifting program printed $fast readings, the plain one $plain: not 1.5 times as many"
    ;;
  interrupt)
    need_python
    start_mirror "$work/live"
    kill -INT "$pid"
    wait "$pid"
    code=$?
    expect_code 130
    expect_in "$work/err" "kubesim run: interrupted (Interrupt); every replica process was killed"
    for p in $pids; do
      alive_pid "$p" && fail "replica process $p outlived the run"
    done
    # A kubesim killed outright takes its replicas with it (PR_SET_PDEATHSIG).
    start_mirror "$work/live2"
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    for _ in $(seq 50); do
      alive=""
      for p in $pids; do alive_pid "$p" && alive="$alive $p"; done
      [ -z "$alive" ] && break
      sleep 0.1
    done
    [ -z "$alive" ] || fail "replica processes$alive outlived a killed kubesim"
    ;;
  *)
    echo "unknown case $case_name" >&2
    exit 2
    ;;
esac
echo "ok ($case_name)"
