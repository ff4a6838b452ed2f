#!/usr/bin/env bash
# Real kubectl binaries against `kubesim serve`: discovery, create/apply/get/patch/replace/delete,
# watch, a CRD then an object of it, server-side apply, RBAC objects, scale, auth can-i, drain
# through evictions, client-certificate and token authentication, 401s.
# Usage: kubectl_test.sh KUBESIM_BINARY [KUBECTL...]   (default: the oldest and newest kubectl.1.NN
# under /usr/lib/google-cloud-sdk/bin). Exits 77 (skipped) when no kubectl is installed.
set -euo pipefail

kubesim=$1
shift
# shellcheck source=../lib/serve_env.sh
source "$(dirname "$0")/../lib/serve_env.sh"
find_kubectls "$@"
serve_env_init
# matches ARGS...: grep ARGS on standard input, reading all of it. Under pipefail, `cmd | grep -q`
# fails whenever grep exits at its first match before cmd has written everything (cmd gets EPIPE).
matches() { grep "$@" >/dev/null; }
# expect_fail PATTERN CMD...: CMD must fail with PATTERN in its output.
expect_fail() {
  local pattern=$1
  shift
  local out
  if out=$("$@" 2>&1); then fail "expected failure ($pattern): $*"; fi
  grep -q -- "$pattern" <<<"$out" || fail "expected '$pattern' from: $* -- got: $out"
}

start_serve "$kubesim"
server=$(sed -n 's/.*server: "\(.*\)"/\1/p' "$tmp/kubeconfig")

cat >"$tmp/cm.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata:
  name: demo
data:
  a: "1"
YAML
cat >"$tmp/crd.yaml" <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
YAML
cat >"$tmp/ssa.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata:
  name: ssa
data:
  a: "1"
  b: "2"
YAML
cat >"$tmp/widget.yaml" <<'YAML'
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1}
spec: {size: 3}
YAML

for kubectl in "${kubectls[@]}"; do
  v=$(basename "$kubectl")
  echo "== $v"
  k() { "$kubectl" --cache-dir "$tmp/cache-$v" "$@"; }
  ns="ns-${v//./-}"
  k version >/dev/null 2>&1
  k api-resources | matches '^configmaps *cm *v1 *true *ConfigMap' || fail "$v api-resources"
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns" >"$tmp/ns.yaml"
  k create -f "$tmp/ns.yaml" | matches created || fail "$v create namespace"
  k -n "$ns" create -f "$tmp/cm.yaml" | matches created || fail "$v create"
  expect_fail AlreadyExists k -n "$ns" create -f "$tmp/cm.yaml"
  k -n "$ns" apply -f "$tmp/cm.yaml" >/dev/null 2>&1
  [ "$(k -n "$ns" get cm demo -o jsonpath='{.data.a}')" = 1 ] || fail "$v get -o jsonpath"
  k -n "$ns" get cm demo -o json | matches '"kind": "ConfigMap"' || fail "$v get -o json"
  k -n "$ns" patch cm demo --type merge -p '{"data":{"b":"2"}}' | matches patched || fail "$v patch merge"
  k -n "$ns" patch cm demo --type json -p '[{"op":"add","path":"/data/c","value":"3"}]' >/dev/null
  k -n "$ns" patch cm demo -p '{"data":{"d":"4"}}' >/dev/null
  [ "$(k -n "$ns" get cm demo -o jsonpath='{.data.b}{.data.c}{.data.d}')" = 234 ] || fail "$v patches"
  expect_fail invalid k -n "$ns" patch cm demo --type json -p '[{"op":"test","path":"/data/a","value":"9"}]'
  sed 's/"1"/"5"/' "$tmp/cm.yaml" >"$tmp/cm5.yaml"
  k -n "$ns" replace -f "$tmp/cm5.yaml" | matches replaced || fail "$v replace"
  sed 's/name: demo/name: demo\n  resourceVersion: "1"/' "$tmp/cm5.yaml" >"$tmp/stale.yaml"
  expect_fail Conflict k -n "$ns" replace -f "$tmp/stale.yaml"
  # get -w prints the watch's events; the deletion must show up as DELETED.
  k -n "$ns" get cm -w -o json --output-watch-events >"$tmp/watch-$v" 2>&1 &
  watch_pid=$!
  for _ in $(seq 50); do grep -q ADDED "$tmp/watch-$v" 2>/dev/null && break; sleep 0.1; done
  k -n "$ns" delete cm demo | matches deleted || fail "$v delete"
  for _ in $(seq 50); do grep -q DELETED "$tmp/watch-$v" && break; sleep 0.1; done
  kill "$watch_pid" 2>/dev/null || true
  grep -q DELETED "$tmp/watch-$v" || fail "$v get -w did not see DELETED: $(cat "$tmp/watch-$v")"
  expect_fail NotFound k -n "$ns" get cm demo
  # A CRD, then an object of it.
  k apply -f "$tmp/crd.yaml" >/dev/null
  k wait --for condition=established crd/widgets.example.com --timeout=20s >/dev/null
  k -n "$ns" apply -f "$tmp/widget.yaml" | matches created || fail "$v apply CR"
  k -n "$ns" patch wd w1 --type merge -p '{"spec":{"size":4}}' >/dev/null
  [ "$(k -n "$ns" get wd w1 -o jsonpath='{.spec.size}')" = 4 ] || fail "$v CR patch"
  k -n "$ns" delete wd w1 >/dev/null
  k delete crd widgets.example.com >/dev/null
  # Server-side apply: it creates, records its manager, conflicts with another manager's change
  # until --force-conflicts, and drops what it no longer applies.
  k -n "$ns" apply --server-side -f "$tmp/ssa.yaml" | matches serverside-applied || fail "$v apply --server-side"
  [ "$(k -n "$ns" get cm ssa -o jsonpath='{.metadata.managedFields[0].manager}/{.metadata.managedFields[0].operation}')" = kubectl/Apply ] ||
    fail "$v apply --server-side: managedFields"
  k -n "$ns" patch cm ssa --type merge -p '{"data":{"a":"other"}}' --field-manager=intruder >/dev/null
  expect_fail 'conflict with "intruder" using v1: .data.a' k -n "$ns" apply --server-side -f "$tmp/ssa.yaml"
  k -n "$ns" apply --server-side --force-conflicts -f "$tmp/ssa.yaml" | matches serverside-applied ||
    fail "$v apply --force-conflicts"
  [ "$(k -n "$ns" get cm ssa -o jsonpath='{.data.a}')" = 1 ] || fail "$v apply --force-conflicts: data"
  sed '/b: "2"/d' "$tmp/ssa.yaml" >"$tmp/ssa-less.yaml"
  k -n "$ns" apply --server-side -f "$tmp/ssa-less.yaml" >/dev/null || fail "$v apply --server-side again"
  [ "$(k -n "$ns" get cm ssa -o jsonpath='{.data.a}/{.data.b}')" = 1/ ] || fail "$v apply: dropped key"
  k -n "$ns" delete cm ssa >/dev/null
  # Imperative generators: kubectl >= 1.32 sends protobuf bodies, older ones JSON.
  out=$(k -n "$ns" create configmap imperative --from-literal=x=y 2>&1) || fail "$v create configmap: $out"
  [ "$(k -n "$ns" get cm imperative -o jsonpath='{.data.x}')" = y ] || fail "$v create configmap: data"
  out=$(k -n "$ns" create deployment imp --image=nginx --replicas=2 2>&1) || fail "$v create deployment: $out"
  [ "$(k -n "$ns" get deploy imp -o jsonpath='{.spec.replicas}{.spec.template.spec.containers[0].image}')" = 2nginx ] ||
    fail "$v create deployment: spec"
  # Every resource of kube-apiserver 1.33: RBAC, budgets, /scale, access reviews, drain through
  # pods/eviction.
  n=$(k api-resources --no-headers | wc -l)
  [ "$n" = 60 ] || fail "$v api-resources lists $n resources, not 60"
  k -n "$ns" create role reader --verb=get --resource=pods | matches created || fail "$v create role"
  k -n "$ns" create rolebinding readers --role=reader --user=alice | matches created ||
    fail "$v create rolebinding"
  k -n "$ns" scale deploy imp --replicas=3 | matches scaled || fail "$v scale"
  [ "$(k -n "$ns" get deploy imp -o jsonpath='{.spec.replicas}')" = 3 ] || fail "$v scale: replicas"
  [ "$(k auth can-i create pods)" = yes ] || fail "$v auth can-i"
  k -n "$ns" create pdb web --selector=app=web --min-available=1 | matches created || fail "$v create pdb"
  printf 'apiVersion: v1\nkind: Node\nmetadata: {name: node-%s}\n' "${v//./-}" >"$tmp/node.yaml"
  printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: web-1, labels: {app: web}}\nspec:\n  nodeName: node-%s\n  containers: [{name: c, image: nginx}]\n' "${v//./-}" >"$tmp/pod.yaml"
  k create -f "$tmp/node.yaml" >/dev/null || fail "$v create node"
  k -n "$ns" create -f "$tmp/pod.yaml" >/dev/null || fail "$v create pod"
  out=$(k drain "node-${v//./-}" --force --timeout=20s 2>&1) || fail "$v drain: $out"
  matches 'evicting pod' <<<"$out" || fail "$v drain did not evict: $out"
  expect_fail NotFound k -n "$ns" get pod web-1
  [ "$(k get node "node-${v//./-}" -o jsonpath='{.spec.unschedulable}')" = true ] || fail "$v cordon"
  # Authentication: the admin client certificate works, no credentials are refused.
  "$kubectl" --kubeconfig /dev/null --cache-dir "$tmp/cache-cert-$v" --server "$server" \
    --certificate-authority "$tmp/certs/ca.crt" --client-certificate "$tmp/certs/admin.crt" \
    --client-key "$tmp/certs/admin.key" get ns "$ns" >/dev/null || fail "$v client certificate"
  code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$tmp/certs/ca.crt" "$server/api/v1/namespaces")
  [ "$code" = 401 ] || fail "no credentials: expected 401, got $code"
  expect_fail "provide credentials" "$kubectl" --kubeconfig /dev/null --cache-dir "$tmp/cache-bad-$v" \
    --server "$server" --certificate-authority "$tmp/certs/ca.crt" --token wrong get ns
done

kill -TERM "$server_pid"
wait "$server_pid" || fail "kubesim serve did not stop cleanly"
server_pid=
echo "kubectl tests passed"
