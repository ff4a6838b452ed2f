#include "api/rest/internal/watch_decoder.h"

#include <nlohmann/json.hpp>

#include "kubesim/api/go_strings.h"
#include "kubesim/api/validation.h"

#include "api/rest/internal/response.h"

namespace kubesim::api::rest::internal {
namespace {

bool json_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

WatchEvent error_event(std::string_view message) {
  return WatchEvent::error(watch_decoding_error(message));
}

}  // namespace

Status watch_decoding_error(std::string_view error) {
  const std::string message =
      "unable to decode an event from the watch stream: " + std::string(error);
  Status s;
  s.code = 500;
  s.reason = StatusReason::kInternalError;
  s.message = "an error on the server (" + go_quote(message) +
              ") has prevented the request from succeeding";
  StatusDetails d;
  d.causes.push_back(StatusCause{std::string(kCauseTypeUnexpectedServerResponse), message, ""});
  d.causes.push_back(StatusCause{"ClientWatchDecoding", message, ""});
  s.details = std::move(d);
  return s;
}

WatchEvent decode_watch_event(std::string_view text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return error_event("malformed JSON");
  if (!j.is_object()) return error_event("a watch event must be a JSON object");
  auto type_it = j.find("type");
  const std::string type_name =
      type_it != j.end() && type_it->is_string() ? type_it->get<std::string>() : "";
  const auto type = parse_event_type(type_name);
  if (!type) return error_event("got invalid watch event type: " + type_name);
  auto object_it = j.find("object");
  if (object_it == j.end() || !object_it->is_object()) {
    return error_event("unable to decode watch event: the event has no object");
  }
  if (*type == EventType::kError) {
    auto status = Status::from_json(*object_it);
    return WatchEvent::error(*status);  // from_json fails only for non-objects
  }
  auto object = Object::from_json(std::move(*object_it));
  if (!object.ok()) return error_event("unable to decode watch event: " + object.status().message);
  return WatchEvent{*type, std::move(object).value()};
}

void WatchDecoder::fail(std::string message, std::vector<WatchEvent>& out) {
  out.push_back(error_event(message));
  finished_ = true;
  frame_.clear();
}

void WatchDecoder::complete_frame(std::vector<WatchEvent>& out) {
  WatchEvent event = decode_watch_event(frame_);
  frame_.clear();
  if (event.type == EventType::kError) finished_ = true;
  out.push_back(std::move(event));
}

void WatchDecoder::feed(std::string_view bytes, std::vector<WatchEvent>& out) {
  std::size_t i = 0;
  while (i < bytes.size() && !finished_) {
    if (depth_ == 0) {
      // Between events: whitespace, then the '{' of the next one.
      const char c = bytes[i];
      if (json_space(c)) {
        ++i;
        continue;
      }
      if (c != '{') {
        fail(std::string("invalid character '") + c + "' looking for beginning of value", out);
        return;
      }
    }
    // Scan inside an object as far as this input or the object goes.
    const std::size_t start = i;
    for (; i < bytes.size(); ++i) {
      const char c = bytes[i];
      if (in_string_) {
        if (escape_) {
          escape_ = false;
        } else if (c == '\\') {
          escape_ = true;
        } else if (c == '"') {
          in_string_ = false;
        }
        continue;
      }
      if (c == '"') {
        in_string_ = true;
      } else if (c == '{' || c == '[') {
        ++depth_;
      } else if (c == '}' || c == ']') {
        if (--depth_ == 0) {
          ++i;
          break;
        }
      }
    }
    if (frame_.size() + (i - start) > max_event_bytes_) {
      fail("a watch event is larger than " + std::to_string(max_event_bytes_) + " bytes", out);
      return;
    }
    frame_.append(bytes.substr(start, i - start));
    if (depth_ == 0) complete_frame(out);
  }
}

}  // namespace kubesim::api::rest::internal
