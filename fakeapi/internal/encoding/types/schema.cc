#include "fakeapi/internal/encoding/types/schema.h"

#include <algorithm>

namespace kubesim::fakeapi::types {

const FieldSpec* MessageSpec::find(std::uint32_t number) const {
  auto it = std::lower_bound(fields.begin(), fields.end(), number,
                             [](const FieldSpec& f, std::uint32_t n) { return f.number < n; });
  return it != fields.end() && it->number == number ? &*it : nullptr;
}

}  // namespace kubesim::fakeapi::types
