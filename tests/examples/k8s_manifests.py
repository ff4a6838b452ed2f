#!/usr/bin/env python3
"""What k8s_shards_test.sh needs from examples/k8s/ and from kubesim's --results files.

  k8s_manifests.py extract MANIFEST_DIR OUT_DIR
      Checks that the manifests fit together (SHARDS = completions = parallelism, the merge Job's
      SHARDS and RESULTS are the sweep's, every pod mounts the results claim) and writes, for the
      sweep's shard container and the merge Job's init and main containers, OUT_DIR/NAME.sh (the
      script its shell runs, exactly as the kubelet hands it over) and OUT_DIR/NAME.env (its
      environment as shell assignments).

  k8s_manifests.py compare WHOLE.json MERGED.json SHARD.json...
      Checks that the merged results equal the unsharded run's, seed for seed (outcome, failures,
      error, trace hash, trace tail, counters; wall times aside), and that the shards are a true
      partition of the run: N of them, indexes 0..N-1, each seed once.

Exits 1 with a message naming the first difference.
"""
import json
import os
import re
import shlex
import sys

import yaml


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def load_manifests(directory):
    objects = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith((".yaml", ".yml")):
            continue
        with open(os.path.join(directory, name)) as f:
            for doc in yaml.safe_load_all(f):
                if doc:
                    objects[(doc["kind"], doc["metadata"]["name"])] = doc
    return objects


def kubelet_expand(text, defined):
    """$(VAR) references the kubelet replaces in command and args; $$ is a literal $."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "$" and i + 1 < len(text):
            if text[i + 1] == "$":
                out.append("$")
                i += 2
                continue
            if text[i + 1] == "(":
                end = text.find(")", i + 2)
                if end >= 0 and text[i + 2:end] in defined:
                    out.append(defined[text[i + 2:end]])
                    i = end + 1
                    continue
        out.append(text[i])
        i += 1
    return "".join(out)


def container_script(container):
    env = {e["name"]: e["value"] for e in container.get("env", [])}
    command = container.get("command", []) + container.get("args", [])
    if command[:2] != ["/bin/sh", "-c"] or len(command) != 3:
        fail("%s: expected command /bin/sh -c SCRIPT, got %r" % (container["name"], command))
    # The Job controller adds JOB_COMPLETION_INDEX; its value is known only in the pod.
    defined = dict(env, JOB_COMPLETION_INDEX="<index>")
    script = command[2]
    if kubelet_expand(script, defined) != script:
        fail("%s: the script uses $(VAR) or $$, which the local run does not model"
             % container["name"])
    return script, env


def extract(directory, out_dir):
    objects = load_manifests(directory)
    sweep = objects.get(("Job", "kubesim-sweep"))
    merge = objects.get(("Job", "kubesim-merge"))
    claim = objects.get(("PersistentVolumeClaim", "kubesim-results"))
    if not (sweep and merge and claim):
        fail("examples/k8s must hold the Jobs kubesim-sweep and kubesim-merge and the claim "
             "kubesim-results; found %s" % sorted(objects))
    spec = sweep["spec"]
    if spec.get("completionMode") != "Indexed":
        fail("the sweep Job is not Indexed")
    pods = {"sweep": spec["template"]["spec"], "merge": merge["spec"]["template"]["spec"]}
    containers = {
        "shard": pods["sweep"]["containers"][0],
        "wait-for-shards": pods["merge"]["initContainers"][0],
        "merge": pods["merge"]["containers"][0],
    }
    scripts = {}
    for name, container in containers.items():
        if container["name"] != name:
            fail("expected container %s, found %s" % (name, container["name"]))
        scripts[name] = container_script(container)
    shards = scripts["shard"][1]["SHARDS"]
    if not (str(spec["completions"]) == str(spec["parallelism"]) == shards):
        fail("SHARDS %s, completions %s and parallelism %s differ"
             % (shards, spec["completions"], spec["parallelism"]))
    for name in ("wait-for-shards", "merge"):
        for key in ("SHARDS", "RESULTS"):
            if scripts[name][1].get(key) != scripts["shard"][1][key]:
                fail("%s's %s is %r, the sweep's %r"
                     % (name, key, scripts[name][1].get(key), scripts["shard"][1][key]))
    for job, pod in pods.items():
        claims = [v["persistentVolumeClaim"]["claimName"] for v in pod.get("volumes", [])
                  if "persistentVolumeClaim" in v]
        if claims != ["kubesim-results"]:
            fail("the %s pods mount %r, not the claim kubesim-results" % (job, claims))
    for name, (script, env) in scripts.items():
        with open(os.path.join(out_dir, name + ".sh"), "w") as f:
            f.write(script)
        with open(os.path.join(out_dir, name + ".env"), "w") as f:
            for key, value in env.items():
                f.write("%s=%s\nexport %s\n" % (key, shlex.quote(value), key))
    print(shards)


def read_results(path):
    with open(path) as f:
        doc = json.load(f)
    if doc.get("kind") != "KubesimResults":
        fail("%s is not a kubesim results file" % path)
    return doc


def compare_seed(where, whole, merged):
    if whole == merged:
        return
    keys = sorted(k for k in set(whole) | set(merged) if whole.get(k) != merged.get(k))
    fail("%s differs in %s:\n  unsharded: %s\n  merged:    %s"
         % (where, ", ".join(keys), json.dumps({k: whole.get(k) for k in keys})[:2000],
            json.dumps({k: merged.get(k) for k in keys})[:2000]))


def compare(whole_path, merged_path, shard_paths):
    whole, merged = read_results(whole_path), read_results(merged_path)
    shards = [read_results(p) for p in shard_paths]
    if merged["shard"] != {"index": 0, "count": 1}:
        fail("the merged results are shard %r, not the whole run" % merged["shard"])
    n = len(shards)
    if sorted(s["shard"]["index"] for s in shards) != list(range(n)) or \
            any(s["shard"]["count"] != n for s in shards):
        fail("the shards are %r, not 0..%d of %d" % ([s["shard"] for s in shards], n - 1, n))
    if len(whole["scenarios"]) != len(merged["scenarios"]):
        fail("%d scenarios unsharded, %d merged"
             % (len(whole["scenarios"]), len(merged["scenarios"])))
    seeds = failures = 0
    for i, (w, m) in enumerate(zip(whole["scenarios"], merged["scenarios"])):
        for key in ("file", "name", "description", "mustFind", "passed", "plannedSeeds"):
            if w.get(key) != m.get(key):
                fail("scenario %d: %s is %r unsharded, %r merged" % (i, key, w.get(key), m.get(key)))
        ran = [s["seed"] for s in w["seeds"]]
        if ran != w["plannedSeeds"] or [s["seed"] for s in m["seeds"]] != ran:
            fail("%s: seeds %r unsharded, %r merged, %r planned"
                 % (w["name"], ran, [s["seed"] for s in m["seeds"]], w["plannedSeeds"]))
        per_shard = []
        for shard in shards:
            part = [s for s in shard["scenarios"] if s["name"] == w["name"]]
            per_shard += [s["seed"] for p in part for s in p["seeds"]]
        if sorted(per_shard) != sorted(ran):
            fail("%s: the shards ran seeds %r, the whole run %r" % (w["name"], per_shard, ran))
        for ws, ms in zip(w["seeds"], m["seeds"]):
            compare_seed("%s seed %d" % (w["name"], ws["seed"]), ws, ms)
            seeds += 1
            failures += len(ws.get("failures", []))
    runs = [sum(len(s["seeds"]) for s in shard["scenarios"]) for shard in shards]
    if n > 1 and max(runs) >= seeds:
        fail("one shard ran every seed: %r" % runs)
    print("%d scenarios, %d seeds (shards ran %s), %d failures: the merged results equal the "
          "unsharded run" % (len(whole["scenarios"]), seeds, "+".join(map(str, runs)), failures))


def main(argv):
    if len(argv) == 4 and argv[1] == "extract":
        extract(argv[2], argv[3])
    elif len(argv) >= 5 and argv[1] == "compare":
        compare(argv[2], argv[3], argv[4:])
    else:
        fail("usage: %s extract MANIFEST_DIR OUT_DIR | compare WHOLE MERGED SHARD..." % argv[0])


if __name__ == "__main__":
    main(sys.argv)
