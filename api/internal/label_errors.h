// Messages and checks shared by label requirements and the selector parser, worded as
// apimachinery's labels package words them.
#ifndef KUBESIM_API_INTERNAL_LABEL_ERRORS_H_
#define KUBESIM_API_INTERNAL_LABEL_ERRORS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/labels.h"

namespace kubesim::api::internal {

std::string join(const std::vector<std::string>& parts, std::string_view sep);
// Decimal 64-bit integer with an optional sign, as Go's strconv.ParseInt(s, 10, 64).
std::optional<std::int64_t> parse_int64(std::string_view s);
std::optional<std::string> key_error(std::string_view key);
std::optional<std::string> value_error(std::string_view key, std::string_view value);
std::string not_integer_error(std::string_view value);
// Checks the number of values the operator needs; nullopt when it is right.
std::optional<std::string> arity_error(SelectionOperator op, std::size_t count);

}  // namespace kubesim::api::internal

#endif  // KUBESIM_API_INTERNAL_LABEL_ERRORS_H_
