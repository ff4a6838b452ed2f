// Bad values print as apimachinery's field.Error.ErrorBody prints the Go values they decode to:
// float64 with %v, maps and slices with encoding/json (internal/validation/field_errors.h).
#include "fakeapi/internal/validation/field_errors.h"

#include <gtest/gtest.h>

namespace kubesim::fakeapi::internal::validation {
namespace {

using nlohmann::json;

TEST(FieldErrorsTest, FloatsPrintAsFmtPrintsThem) {
  EXPECT_EQ(render(json(1.0)), "1");
  EXPECT_EQ(render(json(2.5)), "2.5");
  EXPECT_EQ(render(json(1e6)), "1e+06");
  EXPECT_EQ(render(json(123456.0)), "123456");
  EXPECT_EQ(render(json(0.0001)), "0.0001");
  EXPECT_EQ(render(json(0.00001)), "1e-05");
  EXPECT_EQ(render(json(-3)), "-3");
  EXPECT_EQ(render(json(true)), "true");
}

TEST(FieldErrorsTest, CompoundsPrintAsEncodingJsonWritesThem) {
  EXPECT_EQ(go_json(json::parse(R"({"n": 1.0, "m": [2.50, 1e21, 1e-7, 1e-6, 0.0, -0.5]})")),
            R"({"m":[2.5,1e+21,1e-7,0.000001,0,-0.5],"n":1})");
  EXPECT_EQ(go_json(json::parse(R"({"a<b": "x&y>z", "k": [true, null, "\u00e9"]})")),
            "{\"a\\u003cb\":\"x\\u0026y\\u003ez\",\"k\":[true,null,\"\xc3\xa9\"]}");
  EXPECT_EQ(render(json::parse(R"({"n": 100000000.0})")), R"({"n":100000000})");
}

}  // namespace
}  // namespace kubesim::fakeapi::internal::validation
