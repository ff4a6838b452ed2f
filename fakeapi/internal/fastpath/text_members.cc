#include "fakeapi/internal/fastpath/text_members.h"

#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal {

bool config_map_data_as_stored(std::string_view text) {
  // An empty map is left out when stored (omitempty): not as it is.
  if (text.size() < 2 || text[0] != '{' || text[1] == '}') return false;
  std::int64_t total = 0;
  bool ok = true;
  json_text::for_each_member(text, 0, [&](const json_text::Member& m) {
    if (m.escaped_key || !validation::config_key_messages(m.raw_key).empty() ||
        text[m.value_begin] != '"') {
      ok = false;
      return false;
    }
    const std::string_view raw = json_text::raw_string(text, m.value_begin, m.value_end);
    total += static_cast<std::int64_t>(raw.find('\\') == std::string_view::npos
                                           ? raw.size()
                                           : json_text::decode_string(raw).size());
    return true;
  });
  return ok && total <= kMaxConfigMapSize;
}

}  // namespace kubesim::fakeapi::internal
