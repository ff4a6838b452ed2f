// What the generators of kubesim/testing/generators.h share; not part of the API.
#ifndef KUBESIM_TESTING_INTERNAL_GENERATORS_H_
#define KUBESIM_TESTING_INTERNAL_GENERATORS_H_

#include <cstddef>
#include <string>
#include <vector>

#include <rapidcheck/Gen.h>

namespace kubesim::testing::gen::internal {

// 1 to `max_length` characters: the first and last from `ends`, the others from `inner`; mostly
// short. Shrinks toward ends[0].
rc::Gen<std::string> bounded_name(std::string ends, std::string inner, std::size_t max_length);

// 0 to `max_size` elements.
rc::Gen<std::vector<std::string>> up_to(std::size_t max_size, rc::Gen<std::string> element);

}  // namespace kubesim::testing::gen::internal

#endif  // KUBESIM_TESTING_INTERNAL_GENERATORS_H_
