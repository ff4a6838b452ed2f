#include "kubesim/fakeapi/http/auth.h"

#include <cctype>

namespace kubesim::fakeapi::http {
namespace {

// One CSV record (RFC 4180 quoting, as Go's encoding/csv reads it). False on a malformed quote.
bool split_csv(std::string_view line, std::vector<std::string>& fields) {
  fields.clear();
  std::string field;
  std::size_t i = 0;
  for (;;) {
    field.clear();
    if (i < line.size() && line[i] == '"') {
      ++i;
      for (;;) {
        if (i >= line.size()) return false;  // unterminated quote
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      if (i < line.size() && line[i] != ',') return false;  // text after the closing quote
    } else {
      while (i < line.size() && line[i] != ',') {
        if (line[i] == '"') return false;  // bare quote inside a field
        field += line[i++];
      }
    }
    fields.push_back(field);
    if (i >= line.size()) return true;
    ++i;  // the comma
  }
}

std::vector<std::string> split_groups(std::string_view text) {
  std::vector<std::string> groups;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    if (end > start) groups.emplace_back(text.substr(start, end - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return groups;
}

}  // namespace

UserInfo anonymous_user() {
  UserInfo u;
  u.name = "system:anonymous";
  u.groups = {"system:unauthenticated"};
  return u;
}

api::Result<std::map<std::string, UserInfo, std::less<>>> parse_token_file(std::string_view text) {
  std::map<std::string, UserInfo, std::less<>> tokens;
  std::vector<std::string> fields;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (!split_csv(line, fields)) {
      return api::new_bad_request("token file line " + std::to_string(line_no) +
                                  ": malformed quoted field");
    }
    if (fields.size() < 3) {
      return api::new_bad_request("token file line " + std::to_string(line_no) +
                                  ": must have at least 3 columns (token, user name, user uid), "
                                  "found " + std::to_string(fields.size()));
    }
    if (fields[0].empty()) continue;
    UserInfo user;
    user.name = fields[1];
    user.uid = fields[2];
    if (fields.size() >= 4) user.groups = split_groups(fields[3]);
    tokens[fields[0]] = std::move(user);
  }
  return tokens;
}

std::string_view bearer_token(std::string_view authorization) {
  while (!authorization.empty() && authorization.front() == ' ') authorization.remove_prefix(1);
  constexpr std::string_view kScheme = "bearer";
  if (authorization.size() <= kScheme.size()) return {};
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != kScheme[i]) return {};
  }
  if (authorization[kScheme.size()] != ' ') return {};
  std::string_view token = authorization.substr(kScheme.size() + 1);
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  if (token.find(' ') != std::string_view::npos) return {};
  return token;
}

}  // namespace kubesim::fakeapi::http
