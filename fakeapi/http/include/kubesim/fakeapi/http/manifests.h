// Manifests for `kubesim serve --load`: YAML or JSON files (multi-document, `kind: List`
// expanded), read from one file or from every *.yaml, *.yml and *.json file of a directory in
// name order, then created in the fake API server in that order (so a CRD comes before its
// objects when its file sorts first or it appears first in a file).
//
// Reading and creating are separate: read_manifests touches only the disk, create_manifests only
// the ApiServer (call it on the loop's thread). Either stops at the first error and says where:
// "path/file.yaml: document 3 (ConfigMap default/x): <Status message>". Objects created before
// an error stay created.
#ifndef KUBESIM_FAKEAPI_HTTP_MANIFESTS_H_
#define KUBESIM_FAKEAPI_HTTP_MANIFESTS_H_

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/result.h"
#include "kubesim/fakeapi/server.h"

namespace kubesim::fakeapi::http {

struct Manifest {
  Manifest() {}
  std::string source;  // "path/file.yaml: document 3"
  nlohmann::json object;
};

api::Result<std::vector<Manifest>> read_manifests(const std::string& file_or_dir);
// Creates each manifest (namespaced objects without a namespace go to "default"). Returns how
// many were created.
api::Result<std::size_t> create_manifests(ApiServer& server, const std::vector<Manifest>& manifests);

}  // namespace kubesim::fakeapi::http

#endif  // KUBESIM_FAKEAPI_HTTP_MANIFESTS_H_
