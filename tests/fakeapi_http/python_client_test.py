#!/usr/bin/python3
"""The Python Kubernetes client (Debian's python3-kubernetes) against `kubesim serve`.

Usage: python_client_test.py KUBESIM_BINARY. Starts `kubesim serve` (TLS, generated CA and token)
with --kubeconfig-out and talks to it through the client exactly as an application would: a
paginated list (limit/continue), watches from a resourceVersion (replayed history, then live
events; 410 when the version is compacted), a strategic merge patch from a dict body, the
read-modify-replace round trip (the client re-serialises creationTimestamp as +00:00) and the 409
Conflict of a stale replace, a 404 whose body is a JSON Status, a Lease whose MicroTime comes
from a datetime, and server-side apply through the dynamic client (conflicts, force).
Exits 77 (skipped) when the kubernetes module is not installed.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

try:
    from kubernetes import client, config, watch
    from kubernetes.client.rest import ApiException
except ImportError:
    print("python3-kubernetes is not installed: skipped")
    sys.exit(77)

NS = "pytest"
KUBESIM = None


class Server:
    """`kubesim serve` on a free loopback port, with a kubeconfig in a temporary directory."""

    def __init__(self, binary):
        self.dir = tempfile.TemporaryDirectory()
        self.kubeconfig = os.path.join(self.dir.name, "kubeconfig")
        self.stderr = open(os.path.join(self.dir.name, "serve.err"), "w+")
        self.proc = subprocess.Popen(
            [binary, "serve", "--listen", "127.0.0.1:0", "--kubeconfig-out", self.kubeconfig],
            stdout=subprocess.DEVNULL, stderr=self.stderr)
        for _ in range(200):
            if os.path.exists(self.kubeconfig) or self.proc.poll() is not None:
                break
            time.sleep(0.05)
        if not os.path.exists(self.kubeconfig):
            self.stderr.seek(0)
            raise RuntimeError("kubesim serve did not start: " + self.stderr.read())

    def stop(self):
        self.proc.terminate()
        code = self.proc.wait(timeout=20)
        self.dir.cleanup()
        return code


def configmap(name, **data):
    return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name), data=data)


class PythonClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server(KUBESIM)
        cls.api_client = config.new_client_from_config(config_file=cls.server.kubeconfig)
        cls.core = client.CoreV1Api(cls.api_client)
        cls.core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=NS)))

    @classmethod
    def tearDownClass(cls):
        cls.api_client.close()
        assert cls.server.stop() == 0, "kubesim serve did not stop cleanly"

    def admin(self, path):
        """POSTs to an admin endpoint with the kubeconfig's credentials."""
        conf = self.api_client.configuration
        req = urllib.request.Request(conf.host + "/kubesim/v1/" + path, method="POST", data=b"",
                                     headers={"Authorization": conf.api_key["authorization"]})
        import ssl
        ctx = ssl.create_default_context(cafile=conf.ssl_ca_cert)
        with urllib.request.urlopen(req, context=ctx) as resp:
            return json.loads(resp.read())

    def test_list_with_limit_and_continue(self):
        for i in range(5):
            self.core.create_namespaced_config_map("default", configmap("page-%d" % i, i=str(i)))
        names, token, pages = [], None, 0
        while True:
            page = self.core.list_namespaced_config_map("default", limit=2, _continue=token)
            pages += 1
            self.assertIsNotNone(page.items)
            self.assertTrue(page.metadata.resource_version)
            names += [cm.metadata.name for cm in page.items if cm.metadata.name.startswith("page-")]
            token = page.metadata._continue
            if not token:
                break
            self.assertLessEqual(len(page.items), 2)
            self.assertGreater(page.metadata.remaining_item_count, 0)
        self.assertEqual(sorted(names), ["page-%d" % i for i in range(5)])
        self.assertGreaterEqual(pages, 3)
        empty = self.core.list_namespaced_config_map(NS, label_selector="app in (x, y)")
        self.assertEqual(empty.items, [])

    def test_watch_from_resource_version_replays_then_streams_live(self):
        rv = self.core.list_namespaced_config_map(NS).metadata.resource_version
        self.core.create_namespaced_config_map(NS, configmap("w", k="1"))
        self.core.patch_namespaced_config_map("w", NS, {"data": {"k": "2"}})  # strategic merge
        self.core.delete_namespaced_config_map("w", NS)
        seen = []
        w = watch.Watch()
        for event in w.stream(self.core.list_namespaced_config_map, NS, resource_version=rv,
                              label_selector="", _request_timeout=30):
            obj = event["object"]
            seen.append((event["type"], obj.metadata.name, obj.data))
            if len(seen) == 3:
                # Live: an event after the replay arrives while the stream stays open.
                self.core.create_namespaced_config_map(NS, configmap("live", k="x"))
            if len(seen) == 4:
                w.stop()
        self.assertEqual([s[0] for s in seen], ["ADDED", "MODIFIED", "DELETED", "ADDED"])
        self.assertEqual(seen[1][2], {"k": "2"})
        self.assertEqual(seen[3][1], "live")
        self.assertIsNotNone(w.resource_version)

    def test_watch_from_compacted_version_is_410(self):
        rv = self.core.create_namespaced_config_map(NS, configmap("old", k="1")).metadata.resource_version
        self.core.patch_namespaced_config_map("old", NS, {"data": {"k": "2"}})
        self.admin("compact")
        with self.assertRaises(ApiException) as raised:
            for _ in watch.Watch().stream(self.core.list_namespaced_config_map, NS,
                                          resource_version=rv, timeout_seconds=5):
                pass
        self.assertEqual(raised.exception.status, 410)

    def test_stale_replace_is_409_conflict(self):
        self.core.create_namespaced_config_map(NS, configmap("r", k="1"))
        cm = self.core.read_namespaced_config_map("r", NS)
        stale = self.core.read_namespaced_config_map("r", NS)
        cm.data["k"] = "2"
        replaced = self.core.replace_namespaced_config_map("r", NS, cm)  # +00:00 timestamp round trip
        self.assertEqual(replaced.data, {"k": "2"})
        self.assertNotEqual(replaced.metadata.resource_version, stale.metadata.resource_version)
        stale.data["k"] = "3"
        with self.assertRaises(ApiException) as raised:
            self.core.replace_namespaced_config_map("r", NS, stale)
        self.assertEqual(raised.exception.status, 409)
        body = json.loads(raised.exception.body)
        self.assertEqual(body["reason"], "Conflict")
        self.assertEqual(body["code"], 409)
        self.assertEqual(self.core.read_namespaced_config_map("r", NS).data, {"k": "2"})

    def test_lease_micro_times(self):
        """A datetime goes out as isoformat(): its microseconds are what a MicroTime needs."""
        from datetime import datetime, timedelta, timezone
        coord = client.CoordinationV1Api(self.api_client)
        renew = datetime(2025, 1, 1, 2, 0, 0, 123456, tzinfo=timezone(timedelta(hours=2)))
        lease = client.V1Lease(metadata=client.V1ObjectMeta(name="lock"),
                               spec=client.V1LeaseSpec(holder_identity="a", renew_time=renew))
        created = coord.create_namespaced_lease(NS, lease)
        self.assertEqual(created.spec.renew_time, renew)
        self.assertEqual(created.spec.renew_time.utcoffset(), timedelta(0))
        # Without microseconds isoformat() leaves the fraction out, which a MicroTime refuses.
        lease.metadata.name = "whole-second"
        lease.spec.renew_time = datetime(2025, 1, 1, tzinfo=timezone.utc)
        with self.assertRaises(ApiException) as raised:
            coord.create_namespaced_lease(NS, lease)
        self.assertEqual(raised.exception.status, 400)
        self.assertIn('cannot parse "+00:00" as ".000000"',
                      json.loads(raised.exception.body)["message"])

    def test_server_side_apply(self):
        """The dynamic client's server_side_apply: it creates, another manager's change to a
        field it applied is a 409 naming that manager, and force_conflicts takes the field."""
        from kubernetes import dynamic
        dyn = dynamic.DynamicClient(self.api_client)
        cms = dyn.resources.get(api_version="v1", kind="ConfigMap")
        # The client sends a dict only as JSON content types; an apply body goes as text.
        body = json.dumps({"apiVersion": "v1", "kind": "ConfigMap",
                           "metadata": {"name": "ssa", "namespace": NS}, "data": {"k": "1"}})
        applied = dyn.server_side_apply(cms, body=body, name="ssa", namespace=NS, field_manager="py")
        self.assertEqual(applied.data.k, "1")
        managed = applied.to_dict()["metadata"]["managedFields"]
        self.assertEqual([(m["manager"], m["operation"]) for m in managed], [("py", "Apply")])
        self.assertEqual(managed[0]["fieldsV1"], {"f:data": {"f:k": {}}})
        self.core.patch_namespaced_config_map("ssa", NS, {"data": {"k": "2"}}, field_manager="other")
        with self.assertRaises(ApiException) as raised:
            dyn.server_side_apply(cms, body=body, name="ssa", namespace=NS, field_manager="py")
        self.assertEqual(raised.exception.status, 409)
        status = json.loads(raised.exception.body)
        self.assertEqual(status["message"],
                         'Apply failed with 1 conflict: conflict with "other" using v1: .data.k')
        self.assertEqual(status["details"]["causes"][0]["field"], ".data.k")
        forced = dyn.server_side_apply(cms, body=body, name="ssa", namespace=NS, field_manager="py",
                                       force_conflicts=True)
        self.assertEqual(forced.data.k, "1")

    def test_not_found_is_a_json_status(self):
        with self.assertRaises(ApiException) as raised:
            self.core.read_namespaced_config_map("absent", NS)
        self.assertEqual(raised.exception.status, 404)
        self.assertEqual(json.loads(raised.exception.body)["code"], 404)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python_client_test.py KUBESIM_BINARY")
    KUBESIM = sys.argv.pop(1)
    unittest.main()
