// What the scenario parser's sections share while they read one file: the walker, the Scenario
// built so far, and the lookups that resolve what the file names — resources (built in, or
// declared in cluster.resources), replicas of processes, locks held by electors.
//
// The sections are read in an order that makes every lookup see what it needs: the scenario's
// own keys, then cluster (the resources), processes (replicas and electors), workload, timeline,
// expect, and mustFind last. Each lookup reports what is wrong at the field that named it and
// returns nullopt; the caller keeps going.
#ifndef KUBESIM_SCENARIOS_INTERNAL_PARSE_CONTEXT_H_
#define KUBESIM_SCENARIOS_INTERNAL_PARSE_CONTEXT_H_

#include <optional>
#include <string>
#include <vector>

#include "kubesim/fakeapi/registry.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/scenarios/scenario.h"
#include "kubesim/scenarios/yaml_reader.h"

namespace kubesim::scenarios::internal {

// The parser reads with the public YAML walker (kubesim/scenarios/yaml_reader.h).
using namespace yaml;

// A resolved resource and its scope.
struct ResolvedResource {
  ResourceRef ref;
  std::string kind;
  bool namespaced = true;
};

// An object named by a path: "configmaps/NS/NAME", "group/version/plural/NS/NAME", or without NS
// for a cluster-scoped resource.
struct ObjectPath {
  ResolvedResource resource;
  std::string ns;
  std::string name;
};

class ParseContext {
 public:
  ParseContext(Errors& errors, const Registry& controllers, Scenario& scenario)
      : reader(errors), controllers(controllers), scenario(scenario) {}

  Reader reader;
  const Registry& controllers;
  Scenario& scenario;           // the sections read so far
  bool duration_known = false;  // scenario.duration was read
  std::string duration_text;    // as written
  // The condition of every check the file wrote, also of those with errors (for mustFind).
  std::vector<std::string> conditions_written;

  // "configmaps" (a plural, built in or declared) or "group/version/plural".
  std::optional<ResolvedResource> resource(const Field& field);
  // The resource whose objects have `api_version` and `kind`; nullopt when none does.
  std::optional<ResolvedResource> resource_of_kind(const std::string& api_version,
                                                   const std::string& kind) const;
  std::optional<ObjectPath> object_path(const Field& field);
  // A replica of a process ("manager-0"), checked against the processes read.
  std::optional<std::string> replica(const Field& field);
  // "leases/NS/NAME", "configmaps/NS/NAME" or "endpoints/NS/NAME" (syntax only).
  std::optional<LockRef> lock_ref(const Field& field);
  // Reports the field's lock text when no elector of any process holds it.
  void check_lock_held(const Field& field, const std::string& lock);
  // An object to create: a mapping with apiVersion and kind of a known resource and
  // metadata.name or metadata.generateName, as JSON.
  std::optional<nlohmann::json> object(const Field& field);
  // Reports a namespace given for a cluster-scoped resource.
  void check_scope(const Field& ns_field, const ResolvedResource& resource);
  // Resolves "plural" or "group/version/plural" without reporting; `problem` says why not.
  std::optional<ResolvedResource> lookup(const std::string& text, std::string& problem) const;

 private:
  std::optional<ResolvedResource> find(const std::string& group, const std::string& version,
                                       const std::string& plural) const;
  std::vector<ResolvedResource> find_plural(const std::string& plural) const;
  std::vector<std::string> resource_names() const;

  fakeapi::Registry builtins_;
};

// The sections of a scenario file, each reading one top-level key into ctx.scenario.
void parse_cluster(ParseContext& ctx, const Field& field);
void parse_network(ParseContext& ctx, const Field& field);
void parse_processes(ParseContext& ctx, const Field& field);
void parse_workload(ParseContext& ctx, const Field& field);
void parse_timeline(ParseContext& ctx, const Field& field);
void parse_expect(ParseContext& ctx, const Field& field);
void parse_must_find(ParseContext& ctx, const Field& field);

// Pieces shared by sections.
// The keys that choose requests, as a fault rule and a `calls:` budget name them: verb,
// resource, namespace, name, process.
extern const std::vector<std::string> kRequestKeys;
struct RequestMatch {
  std::vector<fakeapi::Verb> verbs;          // empty: any
  std::optional<ResolvedResource> resource;  // unset: any
  std::string subresource;                   // "": the resource and its subresources
  std::string ns, name, process;             // "": any
  bool whole_process = false;                // process names a process, not one replica
};
// Reads those of kRequestKeys that `f` has: a verb or a list of verbs; a resource (a plural or
// group/version/plural, either with /SUBRESOURCE); a namespace; a name; a process's replica
// ("ctl-0"), or with `whole_process` also a process ("ctl": any of its replicas). False when one
// was wrong (reported at it).
bool read_request_match(ParseContext& ctx, const MapFields& f, bool whole_process, RequestMatch& match);
// A latency: one duration, [min, max] or {min, max}.
std::optional<LatencySpec> parse_latency(ParseContext& ctx, const Field& field);
// A timeline `faults:` list.
std::optional<FaultsEvent> parse_faults(ParseContext& ctx, const Field& field);
// "replicas: N" style names of a process's replicas for messages: "manager-0, manager-1".
std::string replica_names(const ProcessSpec& process);

}  // namespace kubesim::scenarios::internal

#endif  // KUBESIM_SCENARIOS_INTERNAL_PARSE_CONTEXT_H_
