// Decoding responses into the Client interface's results, as client-go's rest.Request does.
//
// A failed response becomes a Status: the Status body the server sent when there is one (JSON,
// kind Status, status Failure), else the Status client-go makes up from the code
// (apimachinery's NewGenericServerResponse: reason by code, a stock message, the verb, resource
// and name, the body's text for text/* and untyped bodies, Retry-After, and an
// UnexpectedServerResponse cause). A 2xx body that is a Failure Status is a failure too.
// Problems on the client side (no response, a body that is not what it should be, a done context)
// are Statuses with code 0, as client-go returns plain errors for them.
#ifndef KUBESIM_API_REST_INTERNAL_RESPONSE_H_
#define KUBESIM_API_REST_INTERNAL_RESPONSE_H_

#include <string>
#include <string_view>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/api/result.h"
#include "kubesim/api/status.h"
#include "api/rest/internal/http_types.h"

namespace kubesim::api::rest::internal {

// What the request was about, for made-up Statuses: "GET", configmaps, "name".
struct RequestInfo {
  RequestInfo() {}
  RequestInfo(std::string method_, GroupResource resource_, std::string name_)
      : method(std::move(method_)), resource(std::move(resource_)), name(std::move(name_)) {}
  std::string method;
  GroupResource resource;
  std::string name;
};

// Client-side failures (code 0, api::ClientError): the transport's error text, classified by
// what it says (a done context, connection refused, a timeout; anything else lost the
// connection); an answer that does not decode; a request refused before it is sent.
Status transport_error(std::string error);
Status decode_error(std::string message);
Status request_error(std::string message);

// The Status of a non-2xx response (see above).
Status status_from_error_response(const HttpResponse& response, const RequestInfo& info);

// The results of the Client calls. A transport error (code 0) becomes transport_error.
Result<ObjectPtr> decode_object_response(const HttpResponse& response, const RequestInfo& info);
// Items without kind/apiVersion get the list's (kind without "List"), as client-go's
// UnstructuredList does.
Result<ObjectList> decode_list_response(const HttpResponse& response, const RequestInfo& info);
// Success for any 2xx that is not a Failure Status.
Result<void> decode_empty_response(const HttpResponse& response, const RequestInfo& info);

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_RESPONSE_H_
