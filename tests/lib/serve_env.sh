# Shared by the shell tests that run `kubesim serve` (source it after `set -euo pipefail`):
#   serve_env_init          a temporary folder $tmp, removed at exit with the server stopped
#   fail MESSAGE            prints FAIL: MESSAGE and exits 1
#   find_kubectls ARGS...   sets the array kubectls to ARGS, or to the oldest and newest
#                           kubectl.1.NN under /usr/lib/google-cloud-sdk/bin; exits 77 (skipped)
#                           when there is none
#   start_serve KUBESIM     starts `KUBESIM serve` on a free loopback port with generated
#                           certificates, waits for its kubeconfig and exports KUBECONFIG

fail() { echo "FAIL: $*" >&2; exit 1; }

serve_env_init() {
  tmp=$(mktemp -d)
  server_pid=
  trap serve_env_cleanup EXIT
}

serve_env_cleanup() {
  if [ -n "${server_pid:-}" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}

find_kubectls() {
  kubectls=("$@")
  if [ ${#kubectls[@]} -eq 0 ]; then
    local found
    mapfile -t found < <(ls /usr/lib/google-cloud-sdk/bin/kubectl.1.* 2>/dev/null | sort -V)
    if [ ${#found[@]} -gt 0 ]; then
      kubectls+=("${found[0]}")
      [ ${#found[@]} -gt 1 ] && kubectls+=("${found[-1]}")
    fi
  fi
  if [ ${#kubectls[@]} -eq 0 ]; then
    echo "no kubectl found: skipped"
    exit 77
  fi
}

start_serve() {
  "$1" serve --listen 127.0.0.1:0 --kubeconfig-out "$tmp/kubeconfig" --cert-dir "$tmp/certs" \
    >"$tmp/serve.out" 2>"$tmp/serve.err" &
  server_pid=$!
  for _ in $(seq 100); do
    [ -s "$tmp/kubeconfig" ] && break
    sleep 0.1
  done
  [ -s "$tmp/kubeconfig" ] || fail "kubesim serve did not start: $(cat "$tmp/serve.err")"
  export KUBECONFIG=$tmp/kubeconfig
}
