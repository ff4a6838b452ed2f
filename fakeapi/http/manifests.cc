#include "kubesim/fakeapi/http/manifests.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kubesim/api/yaml.h"

namespace kubesim::fakeapi::http {
namespace {

namespace fs = std::filesystem;

api::Status at(const std::string& where, const api::Status& s) {
  api::Status out = s;
  out.message = where + ": " + s.message;
  return out;
}

api::Result<void> read_file(const fs::path& path, std::vector<Manifest>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return api::new_bad_request(path.string() + ": cannot read the file");
  std::stringstream text;
  text << in.rdbuf();
  auto docs = api::yaml_documents_to_json(text.str());  // JSON is YAML
  if (!docs) return at(path.string(), docs.status());
  std::size_t index = 0;
  for (auto& doc : docs.value()) {
    ++index;
    const std::string where = path.string() + ": document " + std::to_string(index);
    if (!doc.is_object()) return api::new_bad_request(where + ": not an object");
    const auto kind = doc.find("kind");
    const bool is_list = kind != doc.end() && kind->is_string() &&
                         kind->get<std::string>().ends_with("List") && doc.contains("items");
    if (!is_list) {
      Manifest m;
      m.source = where;
      m.object = std::move(doc);
      out.push_back(std::move(m));
      continue;
    }
    if (!doc["items"].is_array()) return api::new_bad_request(where + ": items is not a list");
    std::size_t item_index = 0;
    for (auto& item : doc["items"]) {
      Manifest m;
      m.source = where + " item " + std::to_string(item_index++);
      m.object = std::move(item);
      out.push_back(std::move(m));
    }
  }
  return {};
}

}  // namespace

api::Result<std::vector<Manifest>> read_manifests(const std::string& file_or_dir) {
  std::vector<Manifest> out;
  std::error_code ec;
  const fs::path root(file_or_dir);
  if (fs::is_directory(root, ec)) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json")) {
        files.push_back(entry.path());
      }
    }
    if (ec) return api::new_bad_request(file_or_dir + ": " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      auto r = read_file(f, out);
      if (!r) return r.status();
    }
    return out;
  }
  if (!fs::exists(root, ec)) return api::new_bad_request(file_or_dir + ": no such file or directory");
  auto r = read_file(root, out);
  if (!r) return r.status();
  return out;
}

api::Result<std::size_t> create_manifests(ApiServer& server, const std::vector<Manifest>& manifests) {
  std::size_t created = 0;
  for (const auto& m : manifests) {
    if (!m.object.is_object()) return api::new_bad_request(m.source + ": not an object");
    auto object = api::Object::from_json(m.object);
    if (!object) return at(m.source, object.status());
    const api::ObjectPtr& obj = object.value();
    const std::string what = m.source + " (" + std::string(obj->kind()) + " " +
                             std::string(obj->key().view()) + ")";
    const ResourceInfo* info = server.registry().find_kind(obj->gvk());
    if (info == nullptr) {
      return api::new_bad_request(what + ": no resource serves " + obj->gvk().to_string());
    }
    std::string ns;
    if (info->namespaced) ns = obj->namespace_().empty() ? "default" : std::string(obj->namespace_());
    auto result = server.create(info->gvr, ns, obj, api::CreateOptions());
    if (!result) return at(what, result.status());
    ++created;
  }
  return created;
}

}  // namespace kubesim::fakeapi::http
