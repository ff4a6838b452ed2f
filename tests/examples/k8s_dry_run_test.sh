#!/usr/bin/env bash
# examples/k8s/ against `kubesim serve` with real kubectl binaries: `kubectl apply
# --dry-run=server -f examples/k8s/` accepts every manifest (the results volume claim, the
# Indexed sweep Job and the merge Job) and stores nothing; broken variants of the sweep Job are
# refused with kube-apiserver's messages; and once the Job is stored, an update that changes what
# Kubernetes keeps fixed is refused while scaling the Indexed Job is accepted.
# Usage: k8s_dry_run_test.sh KUBESIM_BINARY [KUBECTL...]   (default: the oldest and newest
# kubectl.1.NN under /usr/lib/google-cloud-sdk/bin). Exits 77 (skipped) when no kubectl is
# installed.
set -euo pipefail

kubesim=$1
shift
examples=$(cd "$(dirname "$0")/../../examples/k8s" && pwd)
# shellcheck source=../lib/serve_env.sh
source "$(dirname "$0")/../lib/serve_env.sh"
find_kubectls "$@"
serve_env_init
# expect_refused MESSAGE CMD...: CMD must fail and print MESSAGE (a fixed string).
expect_refused() {
  local message=$1
  shift
  local out
  if out=$("$@" 2>&1); then fail "accepted, expected '$message': $* -- got: $out"; fi
  grep -qF -- "$message" <<<"$out" || fail "expected '$message' from: $* -- got: $out"
}
# variant NAME SED-SCRIPT: the sweep Job edited by SED-SCRIPT, as $tmp/NAME.yaml; the edit must
# change something.
variant() {
  sed "$2" "$examples/10-sweep-job.yaml" >"$tmp/$1.yaml"
  if cmp -s "$examples/10-sweep-job.yaml" "$tmp/$1.yaml"; then fail "variant $1 changes nothing"; fi
  echo "$tmp/$1.yaml"
}

manifests=("$examples"/*.yaml)
[ ${#manifests[@]} -ge 3 ] || fail "examples/k8s has ${#manifests[@]} manifests"

start_serve "$kubesim"

# Broken variants of the sweep Job and kube-apiserver's message for each.
creates=(
  "no-completions|/^  completions: 4\$/d|spec.completions: Required value: when completion mode is Indexed"
  "bad-mode|s/^  completionMode: Indexed\$/  completionMode: Sometimes/|spec.completionMode: Unsupported value: \"Sometimes\": supported values: \"NonIndexed\", \"Indexed\""
  "non-indexed|/^  completionMode: Indexed\$/d|spec.backoffLimitPerIndex: Invalid value: 2: requires indexed completion mode"
  "failed-indexes|s/^  maxFailedIndexes: 0\$/  maxFailedIndexes: 5/|spec.maxFailedIndexes: Invalid value: 5: must be less than or equal to completions"
  "ttl|s/^  ttlSecondsAfterFinished: 86400\$/  ttlSecondsAfterFinished: -1/|spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0"
  "on-failure|s/^      restartPolicy: Never\$/      restartPolicy: OnFailure/|spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified"
  "no-restart-policy|/^      restartPolicy: Never\$/d|spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""
  "operator|s/^          operator: In\$/          operator: Is/|spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: \"Is\": supported values: \"In\", \"NotIn\""
)
# Updates of the stored sweep Job.
updates=(
  "more-completions|s/^  completions: 4\$/  completions: 5/|spec.completions: Invalid value: 5: can only be modified in tandem with spec.parallelism"
  "per-index|s/^  backoffLimitPerIndex: 2\$/  backoffLimitPerIndex: 3/|spec.backoffLimitPerIndex: Invalid value: 3: field is immutable"
  "image|s/^          image: kubesim:latest\$/          image: kubesim:other/|field is immutable"
)

for kubectl in "${kubectls[@]}"; do
  v=$(basename "$kubectl")
  echo "== $v"
  ns="examples-${v//./-}"
  k() { "$kubectl" --cache-dir "$tmp/cache-$v" -n "$ns" "$@"; }
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns" >"$tmp/ns.yaml"
  k create -f "$tmp/ns.yaml" >/dev/null

  out=$(k apply --dry-run=server -f "$examples/" 2>&1) || fail "$v dry run: $out"
  for object in persistentvolumeclaim/kubesim-results job.batch/kubesim-sweep \
                job.batch/kubesim-merge; do
    grep -qF "$object created (server dry run)" <<<"$out" || fail "$v dry run of $object: $out"
  done
  [ "$(grep -c '(server dry run)' <<<"$out")" -eq ${#manifests[@]} ] || fail "$v dry run: $out"
  [ -z "$(k get jobs,pvc -o name 2>&1)" ] || fail "$v: a dry run stored something"

  for entry in "${creates[@]}"; do
    IFS='|' read -r name script message <<<"$entry"
    file=$(variant "$name" "$script")
    expect_refused "The Job \"kubesim-sweep\" is invalid: " k apply --dry-run=server -f "$file"
    expect_refused "$message" k apply --dry-run=server -f "$file"
  done

  k apply -f "$examples/10-sweep-job.yaml" | grep -qF "job.batch/kubesim-sweep created" ||
    fail "$v apply"
  for entry in "${updates[@]}"; do
    IFS='|' read -r name script message <<<"$entry"
    expect_refused "$message" k apply --dry-run=server -f "$(variant "$name" "$script")"
  done
  scaled=$(variant scaled 's/^  completions: 4$/  completions: 6/; s/^  parallelism: 4$/  parallelism: 6/')
  k apply --dry-run=server -f "$scaled" | grep -qF "configured (server dry run)" ||
    fail "$v: scaling the Indexed Job was refused"
  [ "$(k get job kubesim-sweep -o jsonpath='{.spec.completions}')" = 4 ] ||
    fail "$v: a dry run changed the stored Job"
done
echo "ok"
