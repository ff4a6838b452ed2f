#!/usr/bin/env python3
"""Writes the Go type tables of the built-in kinds (fakeapi/internal/encoding/types/schema.h).

Usage: gen_schema.py API_DIR APIMACHINERY_DIR FAKEAPI_DIR

API_DIR is a checkout of k8s.io/api and APIMACHINERY_DIR one of k8s.io/apimachinery, both at the
tag K8S_TAG below (the release kubesim's API server follows), for example:
  git -C <k8s.io/api clone> archive v0.33.9 | tar -x -C API_DIR
  git -C <k8s.io/apimachinery clone> archive v0.33.9 | tar -x -C APIMACHINERY_DIR
The script refuses an API_DIR whose go.mod does not require k8s.io/apimachinery at K8S_TAG. It
reads, for every message reachable from the kinds in ROOTS:
  - generated.proto: field numbers, wire types, repeated/map shape, message types;
  - types.go: what Go's encoding/json does with the field: its JSON name, omitempty/omitzero,
    pointer or value, embedded (inlined into the parent JSON object).
FAKEAPI_DIR is kubesim's fakeapi/. It writes
FAKEAPI_DIR/internal/encoding/types/schema_tables.h (declarations),
FAKEAPI_DIR/internal/encoding/types/schema_<package>[_N].cc (one MessageSpec per message) and
schema_kinds.cc beside them (the decodable kinds). Regenerate after adding a kind to ROOTS; never
edit the output by hand.
"""
import json
import os
import re
import sys

# The k8s.io/api and k8s.io/apimachinery release the tables describe (kube-apiserver 1.33).
K8S_TAG = "v0.33.9"

# (proto package short name, kind) of every top-level object with a table: each kind with
# ObjectMeta that kube-apiserver 1.33 serves (with default feature gates) in the packages below,
# Binding, Eviction, Scale and TokenRequest being the bodies of subresources. Checked against
# the packages' register.go (addKnownTypes); left out on purpose: core/v1's PodStatusResult and
# RangeAllocation (registered but never served), SerializedReference (no ObjectMeta) and the
# *Options kinds (query parameters, not bodies). The first version listed of a kind is the one
# go_type_of picks when asked without a version: the group's preferred version.
ROOTS = [
    ("core", "Namespace"), ("core", "ConfigMap"), ("core", "Secret"),
    ("core", "ServiceAccount"), ("core", "Service"), ("core", "ResourceQuota"),
    ("core", "Pod"), ("core", "Endpoints"), ("core", "Event"), ("core", "Node"),
    ("core", "PersistentVolumeClaim"), ("core", "PersistentVolume"),
    ("core", "ReplicationController"), ("core", "LimitRange"), ("core", "PodTemplate"),
    ("core", "ComponentStatus"), ("core", "Binding"),
    ("apps", "Deployment"), ("apps", "ReplicaSet"), ("apps", "StatefulSet"),
    ("apps", "DaemonSet"), ("apps", "ControllerRevision"),
    ("autoscalingv2", "HorizontalPodAutoscaler"),
    ("autoscaling", "HorizontalPodAutoscaler"), ("autoscaling", "Scale"),
    ("batch", "Job"), ("batch", "CronJob"),
    ("certificates", "CertificateSigningRequest"),
    ("coordination", "Lease"),
    ("discovery", "EndpointSlice"),
    ("events", "Event"),
    ("flowcontrol", "FlowSchema"), ("flowcontrol", "PriorityLevelConfiguration"),
    ("networking", "Ingress"), ("networking", "IngressClass"), ("networking", "NetworkPolicy"),
    ("networking", "IPAddress"), ("networking", "ServiceCIDR"),
    ("node", "RuntimeClass"),
    ("policy", "PodDisruptionBudget"), ("policy", "Eviction"),
    ("rbac", "Role"), ("rbac", "ClusterRole"), ("rbac", "RoleBinding"),
    ("rbac", "ClusterRoleBinding"),
    ("scheduling", "PriorityClass"),
    ("storage", "StorageClass"), ("storage", "CSIDriver"), ("storage", "CSINode"),
    ("storage", "CSIStorageCapacity"), ("storage", "VolumeAttachment"),
    ("admissionregistration", "MutatingWebhookConfiguration"),
    ("admissionregistration", "ValidatingWebhookConfiguration"),
    ("admissionregistration", "ValidatingAdmissionPolicy"),
    ("admissionregistration", "ValidatingAdmissionPolicyBinding"),
    ("authentication", "TokenRequest"), ("authentication", "TokenReview"),
    ("authentication", "SelfSubjectReview"),
    ("authorization", "SubjectAccessReview"), ("authorization", "SelfSubjectAccessReview"),
    ("authorization", "LocalSubjectAccessReview"),
    ("authorization", "SelfSubjectRulesReview"),
]


def api_package(name, group, version="v1"):
    return ("k8s.io.api.%s.%s" % (name, version), group, version, "api:%s/%s" % (name, version))


# short name -> (proto package, API group, version, directory)
PACKAGES = {
    "meta": ("k8s.io.apimachinery.pkg.apis.meta.v1", None, "v1", "apimachinery:pkg/apis/meta/v1"),
    "core": api_package("core", ""),
    "apps": api_package("apps", "apps"),
    "autoscaling": api_package("autoscaling", "autoscaling"),
    "autoscalingv2": api_package("autoscaling", "autoscaling", "v2"),
    "batch": api_package("batch", "batch"),
    "certificates": api_package("certificates", "certificates.k8s.io"),
    "coordination": api_package("coordination", "coordination.k8s.io"),
    "discovery": api_package("discovery", "discovery.k8s.io"),
    "events": api_package("events", "events.k8s.io"),
    "flowcontrol": api_package("flowcontrol", "flowcontrol.apiserver.k8s.io"),
    "networking": api_package("networking", "networking.k8s.io"),
    "node": api_package("node", "node.k8s.io"),
    "policy": api_package("policy", "policy"),
    "rbac": api_package("rbac", "rbac.authorization.k8s.io"),
    "scheduling": api_package("scheduling", "scheduling.k8s.io"),
    "storage": api_package("storage", "storage.k8s.io"),
    "admissionregistration": api_package("admissionregistration",
                                         "admissionregistration.k8s.io"),
    "authentication": api_package("authentication", "authentication.k8s.io"),
    "authorization": api_package("authorization", "authorization.k8s.io"),
}

# Messages with a JSON form of their own, decoded by hand-written code.
LEAVES = {
    "k8s.io.apimachinery.pkg.apis.meta.v1.Time": "kTime",
    "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime": "kMicroTime",
    "k8s.io.apimachinery.pkg.api.resource.Quantity": "kQuantity",
    "k8s.io.apimachinery.pkg.util.intstr.IntOrString": "kIntOrString",
    "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1": "kFieldsV1",
    # ExtraValue ([]string, a message of `repeated string items` on the wire) in three packages.
    "k8s.io.api.authentication.v1.ExtraValue": "kStringList",
    "k8s.io.api.authorization.v1.ExtraValue": "kStringList",
    "k8s.io.api.certificates.v1.ExtraValue": "kStringList",
}
SCALARS = {"string": "kString", "bool": "kBool", "int32": "kInt32", "int64": "kInt64",
           "bytes": "kBytes"}
MAX_LINES_PER_FILE = 330


def read_protos(dirs):
    """{full message name: [(number, label, type, name)]}, types fully qualified."""
    messages = {}
    for short, (pkg, _, _, where) in PACKAGES.items():
        text = open(os.path.join(dirs[where], "generated.proto")).read()
        text = re.sub(r"//[^\n]*", "", text)
        for m in re.finditer(r"^message (\w+) \{(.*?)^\}", text, re.M | re.S):
            fields = []
            for f in re.finditer(
                    r"(optional|repeated)\s+([\w.]+)\s+(\w+)\s*=\s*(\d+)|"
                    r"map<\s*(\w+)\s*,\s*([\w.]+)\s*>\s+(\w+)\s*=\s*(\d+)", m.group(2)):
                if f.group(1):
                    label, typ, name, num = f.group(1), f.group(2), f.group(3), int(f.group(4))
                else:
                    if f.group(5) != "string":
                        sys.exit("map key %s in %s" % (f.group(5), m.group(1)))
                    label, typ, name, num = "map", f.group(6), f.group(7), int(f.group(8))
                if typ not in SCALARS and typ not in ("double", "float"):
                    typ = typ[1:] if typ.startswith(".") else pkg + "." + typ
                fields.append((num, label, typ, name))
            messages[pkg + "." + m.group(1)] = sorted(fields)
    return messages


class GoField:
    """What types.go says of one struct field: its JSON form and its merge semantics."""

    def __init__(self, name, pointer, omitempty, omitzero, inline, markers, tags):
        self.name, self.pointer, self.omitempty = name, pointer, omitempty
        self.omitzero, self.inline = omitzero, inline
        self.markers = markers  # {marker: [values in order]} from the field's doc comment
        self.patch_strategy = tags.get("patchStrategy", "")
        self.patch_merge_key = tags.get("patchMergeKey", "")


def markers_of(comment_lines):
    """{"listType": ["map"], "listMapKey": ["containerPort", "protocol"], ...} of `// +k=v`."""
    out = {}
    for line in comment_lines:
        m = re.match(r"//\s*\+(\w+)=(.*)$", line.strip())
        if m:
            out.setdefault(m.group(1), []).append(m.group(2).strip())
    return out


def read_go_structs(dirs):
    """({full message name: {field number: GoField}}, {full message name: type markers},
    {package short name: {Go constant: Go literal}})"""
    structs, type_markers, constants = {}, {}, {}
    for short, (pkg, _, _, where) in PACKAGES.items():
        d = dirs[where]
        consts = constants.setdefault(short, {})
        for fn in sorted(os.listdir(d)):
            if not fn.endswith(".go") or fn.endswith("_test.go") or "generated" in fn:
                continue
            text = open(os.path.join(d, fn)).read()
            for c in re.finditer(r"^\s+(\w+)(?:\s+\w+)?\s*=\s*(\"[^\"\n]*\"|-?\d+|true|false)\s*$",
                                 text, re.M):
                consts.setdefault(c.group(1), c.group(2))
            for m in re.finditer(r"((?:^//[^\n]*\n)*)^type (\w+) struct \{\n(.*?)^\}",
                                 text, re.M | re.S):
                fields, comments = {}, []
                for line in m.group(3).split("\n"):
                    line = line.strip()
                    if not line:
                        comments = []
                        continue
                    if line.startswith("//"):
                        comments.append(line)
                        continue
                    tag = re.search(r"`(.*)`", line)
                    markers, comments = markers_of(comments), []
                    if not tag:
                        continue
                    tags = dict(re.findall(r'(\w+):"([^"]*)"', tag.group(1)))
                    if "," not in tags.get("protobuf", ""):
                        continue
                    decl = line[:tag.start()].split()
                    number = int(tags["protobuf"].split(",")[1])
                    opts = tags.get("json", "").split(",")
                    embedded = len(decl) == 1
                    name = opts[0] or ("" if embedded else decl[0])
                    gotype = decl[-1]
                    fields[number] = GoField(name, gotype.startswith("*"), "omitempty" in opts,
                                             "omitzero" in opts, embedded and not opts[0],
                                             markers, tags)
                full = pkg + "." + m.group(2)
                structs.setdefault(full, fields)
                type_markers.setdefault(full, markers_of(m.group(1).split("\n")))
    return structs, type_markers, constants


def ident(full):
    pkg, name = full.rsplit(".", 1)
    parts = pkg.split(".")
    return "k" + parts[-2].capitalize() + parts[-1].capitalize() + name


def closure(messages, roots):
    order, todo = [], list(roots)
    while todo:
        full = todo.pop(0)
        if full in order or full in LEAVES:
            continue
        order.append(full)
        for _, _, typ, _ in messages[full]:
            if typ in messages and typ not in LEAVES and package_of(typ):
                todo.append(typ)
    return order


def package_of(full):
    for short, (pkg, *_rest) in PACKAGES.items():
        if full.rsplit(".", 1)[0] == pkg:
            return short
    return None


def wrap(head, names, tail, width=100):
    """`head` + the comma-separated `names` + `tail`, broken into lines of at most `width`."""
    lines, line = [], head
    for i, name in enumerate(names):
        item = name + ("," if i + 1 < len(names) else tail)
        if len(line) + 1 + len(item) > width and line.strip():
            lines.append(line)
            line = "    "
        line += ("" if line.endswith(" ") else " ") + item
    return lines + [line]


def last_marker(markers, *names):
    for name in names:
        if name in markers:
            return markers[name][-1]
    return None


def list_semantics(where, label, typ, f):
    """(ListType, comma-joined keys) of a field, as kube-openapi's schemaconv derives what
    structured-merge-diff uses (getListElementRelationship): a +listType marker decides;
    without one, patchStrategy "merge" (or "merge,retainKeys") makes a map list keyed by
    patchMergeKey, or a set when there is no key; anything else is atomic."""
    list_type = last_marker(f.markers, "listType")
    if label != "repeated":
        # A []byte marked +listType=atomic is a string to OpenAPI: the marker says nothing.
        if list_type is not None and typ != "bytes":
            sys.exit("%s: +listType on a field that is not a list" % where)
        return "kNone", ""
    if list_type == "map":
        keys = f.markers.get("listMapKey", [])
        if not keys:
            sys.exit("%s: +listType=map without +listMapKey" % where)
        return "kMap", ",".join(keys)
    if list_type in ("atomic", "set"):
        return "k" + list_type.capitalize(), ""
    if list_type is not None:
        sys.exit("%s: unknown +listType=%s" % (where, list_type))
    if f.patch_strategy in ("merge", "merge,retainKeys"):
        return ("kMap", f.patch_merge_key) if f.patch_merge_key else ("kSet", "")
    return "kAtomic", ""


def is_atomic(where, label, typ, f, type_markers):
    """Whether a map (+mapType) or struct (+structType on the field, else on its Go type) field
    is replaced whole; SMD's default for both is granular."""
    if label == "map":
        value = last_marker(f.markers, "mapType")
    elif label == "optional" and typ in type_markers:
        value = last_marker(f.markers, "structType", "mapType")
        if value is None:
            value = last_marker(type_markers[typ], "structType")
    else:
        return False
    if value not in (None, "atomic", "granular"):
        sys.exit("%s: unknown map or struct type %s" % (where, value))
    return value == "atomic"


def default_json(where, f, constants):
    """The +default= marker as JSON text; ref(Name) names a constant of the same package."""
    raw = last_marker(f.markers, "default")
    if raw is None:
        return ""
    ref = re.match(r"ref\((\w+)\)$", raw)
    if ref:
        if ref.group(1) not in constants:
            sys.exit("%s: +default=%s names no constant" % (where, raw))
        raw = constants[ref.group(1)]
    try:
        json.loads(raw)
    except ValueError:
        sys.exit("%s: +default=%s is not JSON" % (where, raw))
    return raw


def cxx_string(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def field_line(messages, msg, field, go, type_markers, constants):
    num, label, typ, pname = field
    if num not in go:
        sys.exit("%s: field %d (%s) has no Go field" % (msg, num, pname))
    f = go[num]
    where = "%s.%s" % (msg, pname)
    card = {"optional": "kSingular", "repeated": "kRepeated", "map": "kMap"}[label]
    target = "nullptr"
    if typ in SCALARS:
        kind = SCALARS[typ]
    elif typ in LEAVES:
        kind = LEAVES[typ]
    elif typ in messages and package_of(typ):
        kind, target = "kMessage", "&" + ident(typ)
    else:
        kind = "kUnsupported"
    strategy = f.patch_strategy.split(",") if f.patch_strategy else []
    if any(s not in ("merge", "retainKeys", "replace") for s in strategy):
        sys.exit("%s: unknown patchStrategy %s" % (where, f.patch_strategy))
    flags = [name for name, on in (
        ("kPointer", f.pointer), ("kOmitEmpty", f.omitempty), ("kOmitZero", f.omitzero),
        ("kInline", f.inline), ("kAtomic", is_atomic(where, label, typ, f, type_markers)),
        ("kPatchMerge", "merge" in strategy),
        ("kPatchRetainKeys", "retainKeys" in strategy)) if on]
    list_type, keys = list_semantics(where, label, typ, f)
    extra = ["L::" + list_type, cxx_string(keys), cxx_string(f.patch_merge_key),
             cxx_string(default_json(where, f, constants))]
    while extra and extra[-1] in ("L::kNone", '""'):
        extra.pop()
    extra = ["{}" if e == '""' else e for e in extra]
    shown = pname if f.inline else f.name
    return '    {%d, "%s", K::%s, C::%s, %s, %s},' % (
        num, shown, kind, card, " | ".join(flags) or "0", ", ".join([target] + extra))


def message_block(messages, full, structs, type_markers, constants):
    if full not in structs:
        sys.exit("no Go struct for " + full)
    fields = messages[full]
    fid = ident(full)
    atomic = last_marker(type_markers.get(full, {}), "structType") == "atomic"
    tail = ", /*atomic=*/true" if atomic else ""
    if not fields:
        return ["constinit const MessageSpec %s{\"%s\", {}%s};" % (fid, full, tail), ""]
    consts = constants[package_of(full)]
    lines = ["constexpr FieldSpec %sFields[] = {" % fid]
    lines += [field_line(messages, full, f, structs[full], type_markers, consts) for f in fields]
    lines += ["};", "constinit const MessageSpec %s{\"%s\", %sFields%s};" % (fid, full, fid, tail),
              ""]
    return lines


HEADER = """// Generated by fakeapi/internal/encoding/types/gen_schema.py from k8s.io/api and k8s.io/apimachinery
// %s (generated.proto for the wire, types.go for the JSON form). Do not edit; regenerate.
""" % K8S_TAG


def check_tag(api):
    """Exits unless API_DIR's go.mod pins k8s.io/apimachinery at K8S_TAG (a release checkout)."""
    gomod = open(os.path.join(api, "go.mod")).read()
    m = re.search(r"^\s*k8s\.io/apimachinery\s+(\S+)", gomod, re.M)
    if not m or m.group(1) != K8S_TAG:
        sys.exit("%s is not k8s.io/api %s: its go.mod requires k8s.io/apimachinery %s" %
                 (api, K8S_TAG, m.group(1) if m else "(none)"))


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    api, machinery, out = sys.argv[1:]
    check_tag(api)
    sources = os.path.join(out, "internal", "encoding", "types")
    dirs = {}
    for short, (_, _, _, where) in PACKAGES.items():
        root, rel = where.split(":")
        dirs[where] = os.path.join(api if root == "api" else machinery, rel)
    messages = read_protos(dirs)
    structs, type_markers, constants = read_go_structs(dirs)
    roots = [PACKAGES[p][0] + "." + k for p, k in ROOTS]
    order = closure(messages, roots)

    decls = [HEADER + "#ifndef KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_SCHEMA_TABLES_H_",
             "#define KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_SCHEMA_TABLES_H_", "",
             '#include "fakeapi/internal/encoding/types/schema.h"', "",
             "namespace kubesim::fakeapi::types {", ""]
    for short in PACKAGES:
        names = [ident(m) for m in order if package_of(m) == short]
        if names:
            decls += wrap("extern const MessageSpec ", names, ";")
    decls += ["", "}  // namespace kubesim::fakeapi::types", "",
              "#endif  // KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_SCHEMA_TABLES_H_", ""]
    write(os.path.join(out, "internal", "encoding", "types",
                       "schema_tables.h"),
          "\n".join(decls))

    prologue = [HEADER + '#include "fakeapi/internal/encoding/types/schema_tables.h"', "",
                "namespace kubesim::fakeapi::types {", "",
                "using K = ValueKind;", "using C = Cardinality;", "using L = ListType;", ""]
    epilogue = ["}  // namespace kubesim::fakeapi::types", ""]
    for short in PACKAGES:
        blocks = [message_block(messages, m, structs, type_markers, constants) for m in order if package_of(m) == short]
        chunks, current = [], []
        for b in blocks:
            if current and sum(map(len, current)) + len(b) > MAX_LINES_PER_FILE:
                chunks.append(current)
                current = []
            current.append(b)
        if current:
            chunks.append(current)
        for i, chunk in enumerate(chunks):
            suffix = "" if len(chunks) == 1 else "_%d" % (i + 1)
            body = [line for b in chunk for line in b]
            write(os.path.join(sources, "schema_%s%s.cc" % (short, suffix)),
                  "\n".join(prologue + body + epilogue))

    kinds = [HEADER + '#include "fakeapi/internal/encoding/types/schema_tables.h"', "",
             "namespace kubesim::fakeapi::types {", "",
             "constexpr KindSpec kKinds[] = {"]
    for p, k in ROOTS:
        _, group, version, _ = PACKAGES[p]
        kinds.append('    {"%s", "%s", "%s", &%s},' % (group, version, k,
                                                       ident(PACKAGES[p][0] + "." + k)))
    kinds += ["};", "", "std::span<const KindSpec> decodable_kinds() { return kKinds; }", ""]
    write(os.path.join(sources, "schema_kinds.cc"), "\n".join(kinds + epilogue))
    print("%d messages, %d fields" % (len(order), sum(len(messages[m]) for m in order)))


if __name__ == "__main__":
    main()
