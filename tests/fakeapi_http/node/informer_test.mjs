// @kubernetes/client-node against `kubesim serve`: an informer sees add, update and delete, and
// recovers by itself after the server cuts its watch (POST /kubesim/v1/restart ends every watch
// with its terminating chunk; the informer re-watches from its last resourceVersion); a Lease's
// MicroTime makes the round trip.
//
// Usage: node informer_test.mjs KUBESIM_BINARY. Exits 77 (skipped) when the package is not
// installed (scripts/setup.sh runs `npm ci` in this folder).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';

let k8s;
try {
  k8s = await import('@kubernetes/client-node');
} catch (e) {
  console.log(`@kubernetes/client-node is not installed (${e.code ?? e.message}): skipped`);
  process.exit(77);
}

const NS = 'nodetest';
const kubesim = process.argv[2];
if (!kubesim) {
  console.error('usage: node informer_test.mjs KUBESIM_BINARY');
  process.exit(2);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let failures = 0;
function check(cond, what) {
  if (cond) {
    console.log(`ok: ${what}`);
  } else {
    console.error(`FAIL: ${what}`);
    failures++;
  }
}

// Waits (up to 20 s, polling) until pred() holds; a broken server fails the test, not hangs it.
async function until(pred, what) {
  for (let i = 0; i < 400 && !pred(); i++) await sleep(50);
  check(pred(), what);
}

const dir = mkdtempSync(path.join(tmpdir(), 'kubesim-node-'));
const kubeconfig = path.join(dir, 'kubeconfig');
const server = spawn(kubesim, ['serve', '--listen', '127.0.0.1:0', '--kubeconfig-out', kubeconfig],
  { stdio: ['ignore', 'ignore', 'inherit'] });
let exited = null;
server.on('exit', (code) => { exited = code; });
for (let i = 0; i < 200 && !existsSync(kubeconfig) && exited === null; i++) await sleep(50);
if (!existsSync(kubeconfig)) {
  console.error('FAIL: kubesim serve did not start');
  process.exit(1);
}

const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfig);
const core = kc.makeApiClient(k8s.CoreV1Api);

async function admin(name) {
  const url = new URL(`${kc.getCurrentCluster().server}/kubesim/v1/${name}`);
  const opts = { method: 'POST', hostname: url.hostname, port: url.port, path: url.pathname, headers: {} };
  await kc.applyToHTTPSOptions(opts);
  return new Promise((resolve, reject) => {
    const req = https.request(opts, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ code: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const configmap = (name, value) => ({ metadata: { name }, data: { k: value } });

try {
  await core.createNamespace({ body: { metadata: { name: NS } } });
  const seen = [];
  const errors = [];
  let connects = 0;
  const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${NS}/configmaps`,
    () => core.listNamespacedConfigMap({ namespace: NS }));
  informer.on('add', (o) => seen.push(`add ${o.metadata.name} ${o.data?.k}`));
  informer.on('update', (o) => seen.push(`update ${o.metadata.name} ${o.data?.k}`));
  informer.on('delete', (o) => seen.push(`delete ${o.metadata.name}`));
  informer.on('connect', () => { connects++; });
  informer.on('error', (e) => errors.push(String(e)));
  await informer.start();
  await until(() => connects >= 1, 'the informer connected');

  await core.createNamespacedConfigMap({ namespace: NS, body: configmap('a', '1') });
  await until(() => seen.includes('add a 1'), 'add seen');
  const a = await core.readNamespacedConfigMap({ name: 'a', namespace: NS });
  a.data.k = '2';
  await core.replaceNamespacedConfigMap({ name: 'a', namespace: NS, body: a });
  await until(() => seen.includes('update a 2'), 'update seen');
  await core.deleteNamespacedConfigMap({ name: 'a', namespace: NS });
  await until(() => seen.includes('delete a'), 'delete seen');

  // The server cuts every watch; the informer must come back without help.
  const restarted = await admin('restart');
  check(restarted.code === 200, `restart answered ${restarted.code}`);
  await until(() => connects >= 2, 'the informer reconnected after the cut');
  await core.createNamespacedConfigMap({ namespace: NS, body: configmap('b', '1') });
  await until(() => seen.includes('add b 1'), 'add seen after the cut');
  const b = await core.readNamespacedConfigMap({ name: 'b', namespace: NS });
  b.data.k = '2';
  await core.replaceNamespacedConfigMap({ name: 'b', namespace: NS, body: b });
  await until(() => seen.includes('update b 2'), 'update seen after the cut');
  check(errors.length === 0, `no informer errors (${errors.join('; ')})`);
  // Events are neither lost nor replayed across the cut.
  check(JSON.stringify(seen) === JSON.stringify(['add a 1', 'update a 2', 'delete a', 'add b 1', 'update b 2']),
    `events in order, once each: ${JSON.stringify(seen)}`);
  check(informer.list(NS).map((o) => o.metadata.name).join() === 'b', 'the cache holds b only');
  await informer.stop();

  // A Lease's MicroTime: the client writes six digits, the server keeps the instant in UTC.
  const coordination = kc.makeApiClient(k8s.CoordinationV1Api);
  const renew = new k8s.V1MicroTime('2025-01-01T02:00:00.123+02:00');
  await coordination.createNamespacedLease({
    namespace: NS,
    body: { metadata: { name: 'lock' }, spec: { holderIdentity: 'a', renewTime: renew } },
  });
  const lease = await coordination.readNamespacedLease({ name: 'lock', namespace: NS });
  // The client hands a MicroTime back as it came (a string or a Date, by version).
  const back = lease.spec.renewTime;
  check(new Date(back).getTime() === renew.getTime() &&
    (back instanceof Date || back === '2025-01-01T00:00:00.123000Z'),
    `the lease's renewTime read back (${JSON.stringify(back)})`);
} catch (e) {
  console.error('FAIL:', e);
  failures++;
} finally {
  server.kill('SIGTERM');
  for (let i = 0; i < 200 && exited === null; i++) await sleep(50);
  check(exited === 0, `kubesim serve stopped cleanly (exit ${exited})`);
  rmSync(dir, { recursive: true, force: true });
}
console.log(failures === 0 ? 'client-node tests passed' : `${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
