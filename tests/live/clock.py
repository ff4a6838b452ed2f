#!/usr/bin/python3
"""Prints what its wall clock reads, every 200 ms, after one request to the API server (so that a
live run knows it started): the live test compares it with the real clock to see libfaketime's
skew and the timeline's clock step."""
import time

from kubernetes import client, config

config.load_kube_config()
client.CoreV1Api().list_namespace(_request_timeout=5)
while True:
    print(f"{time.time():.3f}", flush=True)
    time.sleep(0.2)
