#!/usr/bin/env bash
# `kubesim serve` as a user starts it: plain HTTP on loopback with a token file, manifests loaded
# at start (a directory, multi-document YAML), a compaction interval, the kubeconfig it writes,
# a clean stop on SIGTERM; HTTPS with a certificate of the user's own; and bad flags, each
# refused with exit code 2, a message naming the flag, and no kubeconfig written.
# Usage: serve_test.sh KUBESIM_BINARY. Needs curl and openssl (installed by scripts/setup.sh).
set -euo pipefail

kubesim=$1
# shellcheck source=../lib/serve_env.sh
source "$(dirname "$0")/../lib/serve_env.sh"
serve_env_init

mkdir -p "$tmp/manifests"
cat >"$tmp/manifests/a-namespace.yaml" <<'YAML'
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
YAML
cat >"$tmp/manifests/b-configmaps.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: one, namespace: team-a}
data: {k: "1"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: two, namespace: team-a}
data: {k: "2"}
YAML
printf 'tok-alice,alice,u1,"devs,ops"\n' >"$tmp/tokens.csv"

# start_serve ARGS...: starts serve in the background writing $tmp/kubeconfig, waits for it, and
# sets server_pid, server (its URL) and admin (its token).
start_serve() {
  rm -f "$tmp/kubeconfig"
  "$kubesim" serve --kubeconfig-out "$tmp/kubeconfig" "$@" >"$tmp/serve.out" 2>"$tmp/serve.err" &
  server_pid=$!
  for _ in $(seq 100); do
    [ -s "$tmp/kubeconfig" ] && break
    sleep 0.1
  done
  [ -s "$tmp/kubeconfig" ] || fail "serve $* did not start: $(cat "$tmp/serve.err")"
  server=$(sed -n 's/.*server: "\(.*\)"/\1/p' "$tmp/kubeconfig")
  admin=$(sed -n 's/.*token: "\(.*\)"/\1/p' "$tmp/kubeconfig")
}

start_serve --listen 127.0.0.1:0 --insecure --token-file "$tmp/tokens.csv" \
  --load "$tmp/manifests" --compaction 30s
case "$server" in http://127.0.0.1:*) ;; *) fail "kubeconfig server: $server" ;; esac
grep -q "3 objects loaded" "$tmp/serve.out" || fail "ready line: $(cat "$tmp/serve.out")"
grep -Eq "ready in [0-9]+ ms" "$tmp/serve.out" || fail "ready line: $(cat "$tmp/serve.out")"
[ -n "$admin" ] || fail "kubeconfig has no token"

code() { curl -s -o "$tmp/body" -w '%{http_code}' "$@"; }
[ "$(code -H "Authorization: Bearer tok-alice" "$server/api/v1/namespaces/team-a/configmaps")" = 200 ] ||
  fail "token file user: $(cat "$tmp/body")"
grep -q '"name":"one"' "$tmp/body" && grep -q '"name":"two"' "$tmp/body" || fail "loaded objects: $(cat "$tmp/body")"
[ "$(code -H "Authorization: Bearer $admin" "$server/api/v1/namespaces/team-a")" = 200 ] || fail "admin token"
[ "$(code "$server/api/v1/namespaces")" = 401 ] || fail "no token: expected 401"
[ "$(code -H "Authorization: Bearer nope" "$server/api/v1/namespaces")" = 401 ] || fail "bad token: expected 401"

kill -TERM "$server_pid"
wait "$server_pid" || fail "serve did not stop cleanly"
server_pid=
grep -q "stopped" "$tmp/serve.out" || fail "no stop line"

# A certificate of the user's own, and no client CA: the kubeconfig trusts the serving chain.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/own.key" -out "$tmp/own.crt" -days 1 \
  -subj /CN=localhost -addext "subjectAltName=IP:127.0.0.1" 2>/dev/null ||
  fail "openssl could not make a certificate"
start_serve --listen 127.0.0.1:0 --tls-cert-file "$tmp/own.crt" \
  --tls-private-key-file "$tmp/own.key"
sed -n 's/.*certificate-authority-data: "\(.*\)"/\1/p' "$tmp/kubeconfig" | base64 -d >"$tmp/ca.pem"
cmp -s "$tmp/ca.pem" "$tmp/own.crt" || fail "kubeconfig CA is not the serving certificate"
[ "$(code --cacert "$tmp/ca.pem" -H "Authorization: Bearer $admin" "$server/api/v1/namespaces")" = 200 ] ||
  fail "own certificate: $(cat "$tmp/body")"
kill -TERM "$server_pid"
wait "$server_pid" || fail "serve with own certificate did not stop cleanly"
server_pid=

# refused MESSAGE ARGS...: serve must exit 2 with MESSAGE on stderr and write no kubeconfig.
refused() {
  local message=$1
  shift
  rm -f "$tmp/kc-bad"
  local rc=0
  "$kubesim" serve --kubeconfig-out "$tmp/kc-bad" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err" || rc=$?
  [ "$rc" = 2 ] || fail "serve $*: exit $rc, expected 2 ($(cat "$tmp/bad.err"))"
  grep -q -- "$message" "$tmp/bad.err" || fail "serve $*: expected '$message', got: $(cat "$tmp/bad.err")"
  [ ! -e "$tmp/kc-bad" ] || fail "serve $*: wrote a kubeconfig"
}
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Not_A_Name}\n' >"$tmp/invalid.yaml"
printf 'apiVersion: v1\nkind: [unclosed\n' >"$tmp/broken.yaml"
refused "--listen" --listen nowhere
refused "--listen" --listen 127.0.0.1:70000
refused "loopback" --listen 0.0.0.0:0 --insecure
refused "--compaction" --listen 127.0.0.1:0 --compaction 5x
refused "--compaction" --listen 127.0.0.1:0 --compaction 0s
refused "--compaction" --listen 127.0.0.1:0 --compaction 99999999999h
refused "--compaction" --listen 127.0.0.1:0 --compaction 9999999999999999999999999s
refused '--idle-timeout: time: unknown unit "d" in duration "1d"' --listen 127.0.0.1:0 --idle-timeout 1d
refused "--read-header-timeout: must be positive" --listen 127.0.0.1:0 --read-header-timeout 0
refused "--load" --listen 127.0.0.1:0 --load "$tmp/missing.yaml"
refused "--load" --listen 127.0.0.1:0 --load "$tmp/broken.yaml"
refused "Not_A_Name" --listen 127.0.0.1:0 --load "$tmp/invalid.yaml"
refused "--token-file" --listen 127.0.0.1:0 --token-file "$tmp/missing.csv"
refused "--tls-cert-file" --listen 127.0.0.1:0 --tls-cert-file "$tmp/tokens.csv"
refused "--insecure" --listen 127.0.0.1:0 --insecure --client-ca-file "$tmp/tokens.csv"
echo "serve tests passed"
