// Loading a scenario file's YAML: its one document, or what keeps it from being read.
//
// yaml-cpp 0.7's LoadAll never returns on a stray flow indicator such as "," (it reads the same
// token as an empty document again and again, allocating as it goes; yaml-cpp issue #1040, fixed
// in 0.8). So the documents are walked one at a time, at most three, and a parser that stops
// advancing is reported as the syntax error it is.
#include <yaml-cpp/eventhandler.h>

#include <sstream>

#include "kubesim/scenarios/internal/yaml_reader.h"

namespace kubesim::scenarios::internal {
namespace {

constexpr int kMaxDocuments = 3;

// Records whether a document's root is a lone null, and where the root is.
class RootProbe : public YAML::EventHandler {
 public:
  bool lone_null = false;
  YAML::Mark mark = YAML::Mark::null_mark();

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { root(m, true); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { root(m, false); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                const std::string&) override {
    root(m, false);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    root(m, false);
    ++depth_;
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    root(m, false);
    ++depth_;
  }
  void OnMapEnd() override { --depth_; }

 private:
  void root(const YAML::Mark& m, bool null) {
    if (depth_ != 0 || seen_) return;
    seen_ = true;
    lone_null = null;
    mark = m;
  }

  int depth_ = 0;
  bool seen_ = false;
};

}  // namespace

LoadedYaml load_yaml(std::string_view text) {
  LoadedYaml out;
  const std::string input(text);
  try {
    std::istringstream stream(input);
    YAML::Parser parser(stream);
    std::vector<RootProbe> documents;
    while (static_cast<int>(documents.size()) < kMaxDocuments) {
      RootProbe probe;
      if (!parser.HandleNextDocument(probe)) break;
      if (!documents.empty() && probe.lone_null && documents.back().lone_null &&
          probe.mark.pos == documents.back().mark.pos) {
        const auto pos = static_cast<std::size_t>(probe.mark.pos);
        const char c = pos < input.size() ? input[pos] : ' ';
        out.error = std::pair{mark_of(probe.mark), c > ' ' && c < 0x7f
                                                       ? "unexpected \"" + std::string(1, c) + "\""
                                                       : std::string("unexpected character")};
        return out;
      }
      documents.push_back(probe);
    }
    if (documents.size() > 1) out.second_document = mark_of(documents[1].mark);
    out.document = YAML::Load(input);
  } catch (const YAML::Exception& e) {
    out.error = std::pair{mark_of(e.mark), e.msg};
  }
  return out;
}

}  // namespace kubesim::scenarios::internal
