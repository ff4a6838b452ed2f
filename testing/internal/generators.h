// What the generators of kubesim/testing/generators.h share; not part of the API.
#ifndef KUBESIM_TESTING_INTERNAL_GENERATORS_H_
#define KUBESIM_TESTING_INTERNAL_GENERATORS_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <rapidcheck.h>

namespace kubesim::testing::gen::internal {

// 1 to `max_length` characters: the first and last from `ends`, the others from `inner`; mostly
// short. Shrinks toward ends[0].
rc::Gen<std::string> bounded_name(std::string ends, std::string inner, std::size_t max_length);

// An index in [0, n), uniform whatever rapidcheck's size; shrinks toward 0. (rc::gen::elementOf
// and rc::gen::oneOf do not shrink at all, and rc::gen::inRange narrows with the size.)
inline rc::Gen<std::size_t> index_below(std::size_t n) {
  return rc::gen::resize(100, rc::gen::inRange<std::size_t>(0, n));
}

// One of `items` (not empty), uniformly; shrinks toward items[0].
template <class Container>
rc::Gen<typename Container::value_type> pick(Container items) {
  const std::size_t n = items.size();
  return rc::gen::map(index_below(n), [items = std::move(items)](std::size_t i) { return items[i]; });
}

// A value of one of the generators, chosen by weight; shrinks toward the first generator's values.
template <class T>
rc::Gen<T> one_of(std::vector<std::pair<std::size_t, rc::Gen<T>>> weighted) {
  std::size_t total = 0;
  for (const auto& [w, g] : weighted) total += w;
  return rc::gen::mapcat(index_below(total), [weighted = std::move(weighted)](std::size_t x) {
    for (const auto& [w, g] : weighted) {
      if (x < w) return g;
      x -= w;
    }
    return weighted.back().second;
  });
}

// 0 to `max_size` elements.
rc::Gen<std::vector<std::string>> up_to(std::size_t max_size, rc::Gen<std::string> element);

}  // namespace kubesim::testing::gen::internal

#endif  // KUBESIM_TESTING_INTERNAL_GENERATORS_H_
