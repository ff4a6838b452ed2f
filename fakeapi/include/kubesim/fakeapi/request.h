// The fake API server's names for one API call (kubesim/api/request.h: api::Request and
// api::Response, the value every transport hands to ApiServer::serve and its filters), and what
// the server reads from a request beyond its fields: the revision a read waits for.
#ifndef KUBESIM_FAKEAPI_REQUEST_H_
#define KUBESIM_FAKEAPI_REQUEST_H_

#include <cstdint>

#include "kubesim/api/request.h"

namespace kubesim::fakeapi {

// A revision of the store: its one global write counter, as etcd's.
using Revision = std::int64_t;

using api::DeleteCollectionOptions;
using api::Request;
using api::Response;
using api::Subresource;
using api::Verb;
using api::VerbOptions;

// The revision a get or list at an explicit resourceVersion waits for before it is served
// (kube-apiserver serves it from its watch cache once that has reached it); 0 for every other
// request.
Revision read_revision(const Request& request);

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_REQUEST_H_
