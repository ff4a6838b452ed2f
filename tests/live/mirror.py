#!/usr/bin/python3
"""A ConfigMap mirror under leader election on a Lease, written with the Python Kubernetes client
(Debian's python3-kubernetes), as a live scenario runs it: an unmodified program that knows
nothing of kubesim but its KUBECONFIG and its identity.

For every ConfigMap in MIRROR_SOURCE it keeps one of the same name and data in MIRROR_TARGET, and
deletes the target ConfigMaps that have no source. Only the leader mirrors: it lists both
namespaces, writes the differences, then watches the source from the list's resourceVersion for
up to a retry period, so that a change starts the next pass at once (a watch that fails — cut,
410 Gone after a compaction, refused — just ends the wait). The Lease loop is
client-go's, by hand (the Debian client's leaderelection package only knows ConfigMap locks):
a candidate takes the lock when its holder has not renewed it for a lease duration of the
candidate's own (monotonic) time; the leader renews every retry period and stops leading when it
has not renewed for the renew deadline, before any other candidate may take over.

Environment: KUBECONFIG, KUBESIM_REPLICA (the identity written as holderIdentity),
MIRROR_SOURCE, MIRROR_TARGET, and MIRROR_BUG=skip-deletes for the planted bug: target
ConfigMaps whose source is gone are never deleted.
"""
import datetime
import os
import sys
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

IDENTITY = os.environ["KUBESIM_REPLICA"]
SOURCE = os.environ.get("MIRROR_SOURCE", "src")
TARGET = os.environ.get("MIRROR_TARGET", "dst")
BUG = os.environ.get("MIRROR_BUG", "")
LOCK_NAMESPACE, LOCK_NAME = "kube-system", "mirror"
LEASE_DURATION = 6.0
RENEW_DEADLINE = 4.0
RETRY_PERIOD = 1.0
TIMEOUT = 5  # seconds, every request


def log(message):
    print(f"{time.strftime('%H:%M:%S')} {IDENTITY}: {message}", flush=True)


class Elector:
    def __init__(self, coordination):
        self.api = coordination
        self.observed = None  # (holder, renewTime) of the record last seen
        self.observed_at = 0.0  # monotonic time it was first seen
        self.last_renew = None  # monotonic time of this replica's last successful renew

    def _now(self):
        return datetime.datetime.now(datetime.timezone.utc)

    def _create(self):
        now = self._now()
        lease = client.V1Lease(
            metadata=client.V1ObjectMeta(name=LOCK_NAME, namespace=LOCK_NAMESPACE),
            spec=client.V1LeaseSpec(holder_identity=IDENTITY, lease_duration_seconds=int(LEASE_DURATION),
                                    acquire_time=now, renew_time=now, lease_transitions=0))
        self.api.create_namespaced_lease(LOCK_NAMESPACE, lease, _request_timeout=TIMEOUT)

    def try_acquire_or_renew(self):
        try:
            lease = self.api.read_namespaced_lease(LOCK_NAME, LOCK_NAMESPACE, _request_timeout=TIMEOUT)
        except ApiException as e:
            if e.status != 404:
                raise
            self._create()
            return True
        spec = lease.spec
        record = (spec.holder_identity, spec.renew_time)
        if record != self.observed:
            self.observed = record
            self.observed_at = time.monotonic()
        holder = spec.holder_identity or ""
        if holder and holder != IDENTITY and self.observed_at + LEASE_DURATION > time.monotonic():
            return False
        now = self._now()
        if holder != IDENTITY:
            spec.lease_transitions = (spec.lease_transitions or 0) + 1
            spec.acquire_time = now
        spec.holder_identity = IDENTITY
        spec.renew_time = now
        spec.lease_duration_seconds = int(LEASE_DURATION)
        self.api.replace_namespaced_lease(LOCK_NAME, LOCK_NAMESPACE, lease, _request_timeout=TIMEOUT)
        return True

    def step(self):
        """One attempt; True while this replica leads."""
        try:
            if self.try_acquire_or_renew():
                self.last_renew = time.monotonic()
        except Exception as e:  # a failed attempt is retried next period
            log(f"lease: {short(e)}")
        return self.last_renew is not None and time.monotonic() - self.last_renew < RENEW_DEADLINE


def short(e):
    if isinstance(e, ApiException):
        return f"{e.status} {e.reason}"
    return type(e).__name__ + ": " + str(e).splitlines()[0][:120] if str(e) else type(e).__name__


def reconcile(core):
    """One pass; returns the source list's resourceVersion."""
    listed = core.list_namespaced_config_map(SOURCE, _request_timeout=TIMEOUT)
    sources = {m.metadata.name: (m.data or {}) for m in listed.items}
    targets = {m.metadata.name: m for m in core.list_namespaced_config_map(TARGET, _request_timeout=TIMEOUT).items}
    for name, data in sorted(sources.items()):
        copy = targets.get(name)
        if copy is None:
            body = client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name, namespace=TARGET), data=data)
            core.create_namespaced_config_map(TARGET, body, _request_timeout=TIMEOUT)
        elif (copy.data or {}) != data:
            copy.data = data
            core.replace_namespaced_config_map(name, TARGET, copy, _request_timeout=TIMEOUT)
    if BUG != "skip-deletes":
        for name in sorted(set(targets) - set(sources)):
            try:
                core.delete_namespaced_config_map(name, TARGET, _request_timeout=TIMEOUT)
            except ApiException as e:
                if e.status != 404:
                    raise
    return listed.metadata.resource_version


def wait_for_change(core, resource_version):
    """Returns at the first change of the source after resource_version, or after a retry period."""
    deadline = time.monotonic() + RETRY_PERIOD
    try:
        for _ in watch.Watch().stream(core.list_namespaced_config_map, SOURCE, resource_version=resource_version,
                                      timeout_seconds=int(RETRY_PERIOD), _request_timeout=TIMEOUT):
            return
    except Exception as e:
        log(f"watch: {short(e)}")
    time.sleep(max(0.0, deadline - time.monotonic()))


def main():
    config.load_kube_config()
    core = client.CoreV1Api()
    elector = Elector(client.CoordinationV1Api())
    leading = False
    log(f"started; mirroring {SOURCE} to {TARGET}" + (f" with the bug {BUG}" if BUG else ""))
    while True:
        now_leading = elector.step()
        if now_leading != leading:
            log("leading" if now_leading else "not leading")
            leading = now_leading
        resource_version = None
        if leading:
            try:
                resource_version = reconcile(core)
            except Exception as e:
                log(f"reconcile: {short(e)}")
        if resource_version:
            wait_for_change(core, resource_version)
        else:
            time.sleep(RETRY_PERIOD)


if __name__ == "__main__":
    sys.exit(main())
