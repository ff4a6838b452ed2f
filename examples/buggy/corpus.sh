#!/bin/sh
# The planted-bug corpus against buggy_scenarios (README.md):
#
#   corpus.sh PROGRAM plain   [--seeds N] [NAME…]   every scenarios/NAME.yaml passes, for the type
#                                                   NAME (with its bug) and for NAME-fixed
#   corpus.sh PROGRAM repro   [--seeds N] [NAME…]   every repro/NAME.yaml fails for NAME — every
#                                                   seed, and each broken check mentions the text
#                                                   of the file's "# breaks:" line — and passes
#                                                   for NAME-fixed
#   corpus.sh PROGRAM explore [--budget B] [--fixed-budget F] [--jobs J] [--seeds N] [NAME…]
#                                                   `PROGRAM explore` on every scenarios/NAME.yaml:
#                                                   for NAME it must find a failing run (exit 1)
#                                                   and write NAME.min.yaml with at most 10
#                                                   entries, which fails when run by itself and
#                                                   passes with NAME-fixed; for
#                                                   NAME-fixed it must find nothing (exit 0)
#                                                   within F (default: B).
#                                                   Prints the table: bug, runs and time to find,
#                                                   shrunk size, replay time, and the runs and
#                                                   time the correct version took to find nothing.
#   corpus.sh PROGRAM sweep   [--seeds N] [--fixed-only] [NAME…]
#                                                   one perturbation at a time, of each family
#                                                   explore tries (sweep.py): every correct version
#                                                   must pass each; a table of what found each bug
#
# NAME-fixed runs on a temporary copy of the file with the type name substituted. Exits 1 when
# anything is not as it must be, naming it; 2 on bad usage.
set -u

usage() {
  echo "usage: corpus.sh PROGRAM plain|repro|explore|sweep [--seeds N] [--budget B] [--fixed-budget F] [--jobs J] [NAME...]" >&2
  exit 2
}
[ $# -ge 2 ] || usage
program=$1
mode=$2
shift 2
case $mode in plain | repro | explore | sweep) ;; *) usage ;; esac
seeds=""
fixed_only=""
budget=""
fixed_budget=""
jobs=""
names=""
while [ $# -gt 0 ]; do
  case $1 in
    --seeds) [ $# -ge 2 ] || usage; seeds=$2; shift 2 ;;
    --budget) [ $# -ge 2 ] || usage; budget=$2; shift 2 ;;
    --fixed-budget) [ $# -ge 2 ] || usage; fixed_budget=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    --fixed-only) fixed_only=--fixed-only; shift ;;
    -*) usage ;;
    *) names="$names $1"; shift ;;
  esac
done

here=$(cd "$(dirname "$0")" && pwd)
if [ "$mode" = sweep ]; then
  exec python3 "$here/sweep.py" "$program" ${seeds:+--seeds "$seeds"} $fixed_only $names
fi
if [ -z "$names" ]; then
  for f in "$here"/scenarios/*.yaml; do names="$names $(basename "$f" .yaml)"; done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
problems=0

problem() {
  echo "FAILED: $*"
  problems=$((problems + 1))
}

# fixed_copy FILE NAME: FILE with its controller type NAME made NAME-fixed, and its scenario name
# NAME… made NAME…-fixed; prints the copy's path.
fixed_copy() {
  copy="$work/$2-fixed.$(basename "$(dirname "$1")").yaml"
  sed -e "s/type: $2}/type: $2-fixed}/" -e "s/^name: $2/name: $2-fixed/" "$1" > "$copy"
  if ! grep -q "type: $2-fixed}" "$copy"; then
    echo "corpus.sh: $1 runs no controller of type $2" >&2
    exit 2
  fi
  echo "$copy"
}

seed_args() {
  if [ -n "$seeds" ]; then echo "--seeds $seeds"; fi
}

# run_expect FILE WANT: runs FILE, says whether its exit status is WANT.
run_expect() {
  "$program" run "$1" $(seed_args) --results "$work/results.json" > "$work/out.txt" 2>&1
  status=$?
  if [ "$status" -ne "$2" ]; then
    problem "$1: exit $status, want $2"
    sed -n '1,12p' "$work/out.txt"
    return 1
  fi
  return 0
}

# every_seed_breaks FILE TEXT: every seed of the last run broke a check, and every check broken
# mentions TEXT.
every_seed_breaks() {
  python3 - "$work/results.json" "$2" "$1" <<'PY' || { problems=$((problems + 1)); return 1; }
import json, sys
results, text, file = sys.argv[1], sys.argv[2], sys.argv[3]
bad = []
for scenario in json.load(open(results))["scenarios"]:
    for seed in scenario["seeds"]:
        if not seed["failures"]:
            bad.append("seed %d broke no check" % seed["seed"])
        for failure in seed["failures"]:
            if text not in failure["check"]:
                bad.append("seed %d broke %s, not a check on %r" % (seed["seed"], failure["check"], text))
for line in bad:
    print("FAILED: %s: %s" % (file, line))
sys.exit(1 if bad else 0)
PY
}

plain() {
  for name in $names; do
    file="$here/scenarios/$name.yaml"
    run_expect "$file" 0 && echo "ok   $name passes as written"
    run_expect "$(fixed_copy "$file" "$name")" 0 && echo "ok   $name-fixed passes as written"
  done
}

repro() {
  for name in $names; do
    file="$here/repro/$name.yaml"
    text=$(sed -n 's/^# breaks: //p' "$file")
    if [ -z "$text" ]; then
      problem "$file has no \"# breaks: TEXT\" line"
      continue
    fi
    if run_expect "$file" 1 && every_seed_breaks "$file" "$text"; then
      echo "ok   $name fails its repro on every seed, on $text"
    fi
    run_expect "$(fixed_copy "$file" "$name")" 0 && echo "ok   $name-fixed passes its repro"
  done
}

# explore_one FILE OUT [BUDGET]: runs explore (with BUDGET, else --budget's); prints its exit
# status; its output is in OUT/explore.txt.
explore_one() {
  mkdir -p "$2"
  use=${3:-$budget}
  args=""
  [ -n "$use" ] && args="$args --budget $use"
  [ -n "$jobs" ] && args="$args --jobs $jobs"
  [ -n "$seeds" ] && args="$args --seeds $seeds"
  "$program" explore "$1" $args --out "$2" > "$2/explore.txt" 2>&1
  echo $?
}

explore() {
  printf '%-18s %-8s %8s %10s %8s %10s %s\n' bug found runs "time" shrunk replay "fixed: found nothing"
  for name in $names; do
    file="$here/scenarios/$name.yaml"
    out="$work/$name"
    status=$(explore_one "$file" "$out")
    runs="-" took="-" size="-" replay="-" found=no
    if [ "$status" -eq 1 ]; then
      found=yes
      line=$(grep -m1 'found after' "$out/explore.txt")
      runs=$(echo "$line" | sed -n 's/.*found after \([0-9]*\) runs.*/\1/p')
      took=$(echo "$line" | sed -n 's/.*runs in \([0-9.]*s\).*/\1/p')
      size=$(echo "$line" | sed -n 's/.* to \([0-9]*\) timeline.*/\1/p')
      replay=$(sed -n 's/.*replayed in \([0-9.]*s\).*/\1/p' "$out/explore.txt" | head -n 1)
      min=$(ls "$out"/*.min.yaml 2>/dev/null | head -n 1)
      if [ -z "$min" ]; then
        problem "$name: explore found a bug but wrote no NAME.min.yaml"
      else
        if [ -n "$size" ] && [ "$size" -gt 10 ]; then problem "$name: shrunk to $size entries, more than 10"; fi
        "$program" run "$min" > "$out/min.txt" 2>&1
        [ $? -eq 1 ] || problem "$name: $(basename "$min") does not fail when run by itself"
        "$program" run "$(fixed_copy "$min" "$name")" > "$out/min-fixed.txt" 2>&1
        if [ $? -ne 0 ]; then
          problem "$name: $(basename "$min") fails with $name-fixed too, so it is no regression test"
          sed -n '1,8p' "$out/min-fixed.txt"
        fi
      fi
    else
      problem "$name: explore found nothing (exit $status)"
      sed -n '/^family/,$p' "$out/explore.txt"
    fi
    fixed_status=$(explore_one "$(fixed_copy "$file" "$name")" "$out-fixed" "$fixed_budget")
    # "explore NAME: 10 reference runs and 490 perturbed runs in 21.3s (23 runs/s)"
    fixed=$(sed -n 's/^explore .*: \([0-9]*\) reference runs and \([0-9]*\) perturbed runs in \([0-9.]*s\).*/\1 \2 \3/p' \
      "$out-fixed/explore.txt" | head -n 1 | awk '{ printf "yes: %d runs, %s", $1 + $2, $3 }')
    if [ "$fixed_status" -ne 0 ]; then
      fixed="NO (exit $fixed_status)"
      problem "$name-fixed: explore reported a failing run"
      grep -m3 -A3 '^FOUND' "$out-fixed/explore.txt"
    fi
    printf '%-18s %-8s %8s %10s %8s %10s %s\n' "$name" "$found" "$runs" "$took" "$size" "$replay" "$fixed"
    sed -n 's/^  perturbation /    by /p' "$out/explore.txt" | head -n 1
    sed -n 's/^\(FOUND.*\)/    \1/p' "$out/explore.txt" | head -n 1
  done
}

$mode
if [ "$problems" -ne 0 ]; then
  echo "corpus.sh $mode: $problems problem(s)"
  exit 1
fi
echo "corpus.sh $mode: all as expected"
