#!/usr/bin/env python3
"""One perturbation at a time, over the families `kubesim explore` tries, for every controller of
the corpus (corpus.sh sweep): every scenarios/NAME.yaml gets, in turn, one perturbation — a
crash right after the replica's 1st, 3rd or 8th create, update or delete (restarted after 1 s or
5 s), a partition (3 s, 20 s), coalesced watch events (3 s), 409 Conflicts or 500s on half its
requests, an API server restart, a pause (4 s), a restart against a view 2 s or 10 s old (stale:
replicas of processes with watchList: false only), a 15 s outage of its writes and one more 500
20 s later (recur), a partition with the history compacted behind it, long enough (40 s) to end
its watches or 5 s with an API server restart (relist) — at two points of the run; and the
replica's first list or watch of configmaps or of secrets slowed by 5 s or failing three times,
at its start or after a restart at 40 s (start) — and is run for NAME and NAME-fixed. A correct version must pass every one; the table says, per family, how many
perturbations broke the version with the bug.

    sweep.py PROGRAM [--seeds N] [--fixed-only] [NAME...]

--fixed-only runs only the correct versions (no table). Exits 1 when a correct version failed
(naming the perturbation), 0 otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def replicas(text):
    """The replicas of the file's processes: (NAME-0 … NAME-(n-1), whether it lists at
    resourceVersion 0)."""
    out = []
    for name, body in re.findall(r"^  - name: (\S+)\n((?:    .*\n)*)", text, re.M):
        n = re.search(r"^    replicas: (\d+)", body, re.M)
        listing = re.search(r"^    watchList: false", body, re.M) is not None
        out += [("%s-%d" % (name, i), listing) for i in range(int(n.group(1)) if n else 1)]
    return out


def later(at, by):
    """The instant `by` seconds after `at` (both as the file writes them: "10s")."""
    return "%ds" % (int(at[:-1]) + by)


WRITES = "[create, update, patch, delete]"


def perturbations(procs):
    """(family, timeline entries) pairs."""
    for p, listing in procs:
        for resource in ["configmaps", "secrets"]:
            for what in ["latency: 5s, count: 1", "error: 500, count: 3"]:
                rule = "{verb: [list, watch], resource: %s, process: %s, %s, for: 30s}" % (resource, p, what)
                yield "start", "  - at: 0s\n    faults:\n      - %s" % rule
                yield "start", ("  - at: 40s\n    faults:\n      - %s\n  - at: 40s\n    crash: {process: %s, restartAfter: 1s}"
                                % (rule, p))
        for verb in ["create", "update", "delete"]:
            for k in [1, 3, 8]:
                for restart in ["1s", "5s"]:
                    yield "crash", ("  - when: {process: %s, after: {verb: %s, count: %d}}\n"
                                    "    crash: {process: %s, restartAfter: %s}" % (p, verb, k, p, restart))
        for at in ["10s", "40s"]:
            for d in ["3s", "20s"]:
                yield "partition", "  - at: %s\n    partition: {process: %s, for: %s}" % (at, p, d)
            yield "coalesce", ("  - at: %s\n    faults:\n      - {verb: watch, resource: configmaps, process: %s,"
                               " coalesce: 3s, for: 20s}" % (at, p))
            yield "409", ("  - at: %s\n    faults:\n      - {verb: [create, update, delete], process: %s, error: 409,"
                          " probability: 0.5, for: 20s}" % (at, p))
            yield "500", ("  - at: %s\n    faults:\n      - {process: %s, error: 500, probability: 0.5, for: 20s}"
                          % (at, p))
            yield "restart", "  - at: %s\n    apiserver: restart" % at
            yield "pause", "  - at: %s\n    pause: {process: %s, for: 4s}" % (at, p)
            for by in ["2s", "10s"] if listing else []:
                yield "stale", ("  - at: %s\n    faults:\n      - {verb: [get, list], process: %s, staleBy: %s, for: 30s}\n"
                                "      - {verb: watch, process: %s, coalesce: %s, for: 30s}\n"
                                "  - at: %s\n    crash: {process: %s, restartAfter: 1s}" % (at, p, by, p, by, at, p))
            yield "recur", ("  - at: %s\n    faults:\n      - {verb: %s, process: %s, error: 500, for: 15s}\n"
                            "  - at: %s\n    faults:\n      - {verb: %s, process: %s, error: 500, count: 1}"
                            % (at, WRITES, p, later(at, 20), WRITES, p))
            yield "relist", ("  - at: %s\n    partition: {process: %s, for: 40s}\n  - at: %s\n    compact: {}"
                             % (at, p, later(at, 2)))
            yield "relist", ("  - at: %s\n    partition: {process: %s, for: 5s}\n  - at: %s\n    apiserver: restart\n"
                             "  - at: %s\n    compact: {}" % (at, p, at, later(at, 2)))


def main(argv):
    if len(argv) < 1:
        print(__doc__, file=sys.stderr)
        return 2
    program, rest = argv[0], argv[1:]
    seeds = "3"
    fixed_only = False
    while rest[:1] in (["--seeds"], ["--fixed-only"]):
        if rest[0] == "--fixed-only":
            fixed_only, rest = True, rest[1:]
        else:
            seeds, rest = rest[1], rest[2:]
    names = rest or sorted(f[:-5] for f in os.listdir(os.path.join(HERE, "scenarios")))
    failed = 0
    families = ["crash", "partition", "coalesce", "409", "500", "restart", "pause", "stale", "recur", "relist",
                "start"]
    print("%-18s %s" % ("bug found by", "  ".join("%-9s" % f for f in families)))
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            text = open(os.path.join(HERE, "scenarios", name + ".yaml")).read()
            if "\ntimeline:" in text:
                print("sweep.py: %s.yaml has a timeline already" % name, file=sys.stderr)
                return 2
            counts = {}
            for family, event in perturbations(replicas(text)):
                doc = text.replace("\nexpect:", "\ntimeline:\n" + event + "\n\nexpect:", 1)
                for fixed in (True,) if fixed_only else (False, True):
                    body = doc.replace("type: %s}" % name, "type: %s-fixed}" % name) if fixed else doc
                    path = os.path.join(work, "%s%s.yaml" % (name, "-fixed" if fixed else ""))
                    open(path, "w").write(body)
                    run = subprocess.run([program, "run", path, "--seeds", seeds], capture_output=True, text=True)
                    if run.returncode not in (0, 1):
                        print("sweep.py: %s: exit %d\n%s" % (path, run.returncode, run.stdout + run.stderr))
                        return 2
                    if fixed and run.returncode != 0:
                        failed += 1
                        print("FAILED: %s-fixed broke under\n%s\n  %s" % (name, event, run.stdout.splitlines()[1:3]))
                    if not fixed:
                        hit, tried = counts.get(family, (0, 0))
                        counts[family] = (hit + (run.returncode == 1), tried + 1)
            cells = ["%d/%d" % counts[f] if f in counts else "-" for f in families]
            print("%-18s %s" % (name, "  ".join("%-9s" % c for c in cells)), flush=True)
    print("sweep.py: %s" % ("every correct version passed every perturbation" if failed == 0
                            else "%d perturbation(s) broke a correct version" % failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
