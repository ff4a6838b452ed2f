#!/usr/bin/env python3
"""Writes default_tables.cc: the defaulting tables of the built-in kinds.

Two sources, in this order for each Go type (the order defaulter-gen's SetObjectDefaults_* calls
them in): the hand-written SetDefaults_* functions transcribed in rules.yaml, then the
`+default=` markers of that type's fields in k8s.io/api's types.go.

Run by hand after editing rules.yaml or moving to another k8s.io/api release:

    python3 fakeapi/internal/defaulting/gen_defaults.py [K8S_IO_API_DIR]

Without a directory, k8s.io/api v0.33.9 is read from the bare mirror at
/work/.mirror/kubernetes+api/repo (git archive). Needs PyYAML.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = os.path.join(HERE, "rules.yaml")
OUT = os.path.join(HERE, "default_tables.cc")
MIRROR = "/work/.mirror/kubernetes+api/repo"
TAG = "v0.33.9"

# The packages whose markers apply: every group of the defaulting rules.
PACKAGES = [
    "core/v1", "apps/v1", "batch/v1", "autoscaling/v1", "autoscaling/v2", "networking/v1",
    "policy/v1", "rbac/v1", "storage/v1", "discovery/v1", "scheduling/v1",
    "admissionregistration/v1", "flowcontrol/v1", "certificates/v1", "node/v1", "events/v1",
]

TESTS = {"nil": "kNil", "not_nil": "kNotNil", "zero": "kZero", "not_zero": "kNotZero",
         "equals": "kEquals", "in": "kIn"}


def cstr(s):
    return json.dumps(s, ensure_ascii=False)


def json_text(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def fail(msg):
    sys.exit("gen_defaults.py: " + msg)


def conditions(when, where):
    if when is None:
        return []
    if isinstance(when, dict):
        when = [when]
    out = []
    for c in when:
        if len(c) != 1:
            fail(f"{where}: a condition has exactly one test: {c}")
        (test, arg), = c.items()
        if test not in TESTS:
            fail(f"{where}: unknown test {test}")
        if test in ("equals", "in"):
            path, value = arg
            out.append((TESTS[test], path, json_text(value)))
        else:
            out.append((TESTS[test], arg, ""))
    return out


def rule_steps(block):
    where = block["go"]
    steps = []
    for s in block.get("steps") or []:
        conds = conditions(s.get("when"), where)
        if "hook" in s:
            steps.append(("kHook", "", "", "kNil", s["hook"], conds))
        elif "set" in s:
            unless = s.get("unless")
            if unless not in ("nil", "zero"):
                fail(f"{where}: set {s['set']} needs unless: nil or zero")
            steps.append(("kSet", s["set"], json_text(s["to"]), "kNil" if unless == "nil" else "kZero",
                          None, conds))
        else:
            fail(f"{where}: a step is a set or a hook: {s}")
    return steps


FIELD = re.compile(r'^\s+(\w+)\s+(\S+)\s+`json:"([^",]*)')
STRUCT = re.compile(r"^type (\w+) struct \{")
CONST = re.compile(r'^\s*(\w+)\s+\w+\s*=\s*("[^"]*")')


def markers(api_dir, package):
    """(proto type, json field, value, pointer, source) for each +default marker of the package."""
    path = os.path.join(api_dir, package, "types.go")
    if not os.path.exists(path):
        return []
    lines = open(path, encoding="utf-8").read().split("\n")
    consts = {m.group(1): json.loads(m.group(2)) for m in map(CONST.match, lines) if m}
    proto_pkg = "k8s.io.api." + package.replace("/", ".")
    out, struct, pending = [], None, None
    for number, line in enumerate(lines, 1):
        m = STRUCT.match(line)
        if m:
            struct, pending = m.group(1), None
            continue
        if line.startswith("}"):
            struct = None
            continue
        if struct is None:
            continue
        marker = re.match(r"^\s*// \+default=(.*)$", line)
        if marker:
            pending = (marker.group(1).strip(), number)
            continue
        if line.strip().startswith("//"):
            continue
        f = FIELD.match(line)
        if f and pending:
            text, at = pending
            ref = re.match(r"^ref\((\w+)\)$", text)
            value = consts[ref.group(1)] if ref else json.loads(text)
            go_type = f.group(2)
            pointer = go_type.startswith("*")
            if pointer or not (value == "" or value == 0 or value is False):
                source = f"k8s.io/api {package}/types.go:{at} +default on {struct}.{f.group(1)}"
                out.append((f"{proto_pkg}.{struct}", f.group(3), json_text(value), pointer, source))
        if line.strip():
            pending = None
    return out


def api_source(argv):
    if len(argv) > 1:
        return argv[1], None
    tmp = tempfile.TemporaryDirectory()
    archive = subprocess.run(["git", "-C", MIRROR, "archive", TAG], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", tmp.name], input=archive.stdout, check=True)
    return tmp.name, tmp


def main(argv):
    api_dir, keep = api_source(argv)
    blocks = yaml.safe_load(open(RULES, encoding="utf-8"))
    tables = []  # (type, source, steps)
    for b in blocks:
        tables.append((b["type"], b["go"], rule_steps(b)))
    by_type = {}
    for package in PACKAGES:
        for proto, field, value, pointer, source in markers(api_dir, package):
            by_type.setdefault(proto, []).append(
                (source, ("kSet", field, value, "kNil" if pointer else "kZero", None, [])))
    for proto, entries in by_type.items():
        tables.append((proto, "; ".join(s for s, _ in entries), [step for _, step in entries]))
    del keep

    hooks = sorted({s[4] for _, _, steps in tables for s in steps if s[4]})
    out = ["// Generated by fakeapi/internal/defaulting/gen_defaults.py from rules.yaml and the +default",
           "// markers of k8s.io/api " + TAG + "'s types.go. Do not edit; regenerate.",
           '#include "fakeapi/internal/defaulting/hooks.h"',
           '#include "fakeapi/internal/defaulting/rule_tables.h"',
           "",
           "namespace kubesim::fakeapi::defaulting {",
           "namespace {",
           ""]
    names = []
    for i, (proto, source, steps) in enumerate(tables):
        for j, s in enumerate(steps):
            if s[5]:
                out.append(f"constexpr Condition kWhen{i}_{j}[] = {{")
                for test, path, value in s[5]:
                    out.append(f"    {{Test::{test}, {cstr(path)}, {cstr(value)}}},")
                out.append("};")
        names.append((proto, source, f"kSteps{i}", bool(steps)))
        if not steps:
            continue
        out.append(f"constexpr Step kSteps{i}[] = {{")
        for j, (op, path, value, unless, hook, conds) in enumerate(steps):
            h = f"&hooks::{hook}" if hook else "nullptr"
            w = f"kWhen{i}_{j}" if conds else "{}"
            out.append(f"    {{Op::{op}, {cstr(path)}, {cstr(value)}, Unless::{unless}, {h}, {w}}},")
        out.append("};")
    out += ["", "}  // namespace", "", "constexpr TypeRules kTypeRules[] = {"]
    for proto, source, steps, any_steps in names:
        span = steps if any_steps else "{}"
        out.append(f"    {{{cstr(proto)}, {cstr(source)}, {span}}},")
    out += ["};", "", "std::span<const TypeRules> type_rules() { return kTypeRules; }", "",
            "}  // namespace kubesim::fakeapi::defaulting", ""]
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print(f"wrote {OUT}: {len(tables)} types, hooks: {', '.join(hooks)}")


if __name__ == "__main__":
    main(sys.argv)
