#!/usr/bin/python3
"""Leader election with the Python client's own kubernetes.leaderelection package (Debian's
python3-kubernetes), on a ConfigMap lock, as a live scenario runs it: an unmodified program that
knows nothing of kubesim but its KUBECONFIG and its identity.

The package writes its record unlike client-go: every value a JSON string ("leaseDurationSeconds":
"6") and the times in Python's own str(datetime) form. kubesim's checks on the lock
(leaderElected, atMostOneLeader) must read it all the same.

Environment: KUBECONFIG, KUBESIM_REPLICA (the identity written as holderIdentity).
"""
import os
import threading
import time

from kubernetes import config
from kubernetes.leaderelection import electionconfig, leaderelection
from kubernetes.leaderelection.resourcelock.configmaplock import ConfigMapLock

IDENTITY = os.environ["KUBESIM_REPLICA"]
stopped = threading.Event()


def leading():
    print(f"{IDENTITY}: leading", flush=True)
    stopped.wait()


def stopped_leading():
    print(f"{IDENTITY}: stopped leading", flush=True)
    stopped.set()


def main():
    config.load_kube_config()
    print(f"{IDENTITY}: started", flush=True)
    lock = ConfigMapLock("py-election", "kube-system", IDENTITY)
    cfg = electionconfig.Config(lock, lease_duration=6, renew_deadline=4, retry_period=1,
                                onstarted_leading=leading, onstopped_leading=stopped_leading)
    leaderelection.LeaderElection(cfg).run()
    os._exit(0)


if __name__ == "__main__":
    main()
