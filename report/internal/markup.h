// Text into XML and HTML: escaping that keeps any byte string well-formed.
//
// escape_markup escapes & < > " ' and replaces what XML 1.0 cannot hold — control characters
// other than tab, newline and carriage return, and bytes that are not UTF-8 — by U+FFFD, so a
// check's detail or a trace line, whatever it holds, cannot break the JUnit file or the report.
// In an attribute (`attribute` true) tab, newline and carriage return are written as character
// references, which XML parsers keep instead of normalising them to spaces.
#ifndef KUBESIM_REPORT_INTERNAL_MARKUP_H_
#define KUBESIM_REPORT_INTERNAL_MARKUP_H_

#include <string>
#include <string_view>

namespace kubesim::report::internal {

std::string escape_markup(std::string_view text, bool attribute = false);

}  // namespace kubesim::report::internal

#endif  // KUBESIM_REPORT_INTERNAL_MARKUP_H_
