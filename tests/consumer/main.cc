// A controller author's first program: a fake cluster, a simulated process's client, one write,
// and the recorder's log of it.
#include <iostream>

#include "kubesim/api/object.h"
#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/informer/shared_informer.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/process.h"

int main() {
  using namespace kubesim;
  sim::Loop loop;
  fakeapi::ApiServer server(loop);
  sim::Process replica(loop, "replica-0");
  fakeapi::InProcessClient client(server, replica);
  auto created = loop.run_until_complete(client.create(
      sim::Context(), api::kConfigMaps, "default",
      api::make_object({{"apiVersion", "v1"},
                        {"kind", "ConfigMap"},
                        {"metadata", {{"name", "hello"}, {"namespace", "default"}}},
                        {"data", {{"greeting", "hi"}}}}),
      api::CreateOptions()));
  if (!created.ok()) {
    std::cerr << "create failed: " << created.status() << "\n";
    return 1;
  }
  const auto& calls = server.recorder().calls();
  if (calls.size() != 1 || calls[0].process != "replica-0" || calls[0].code != 201) {
    std::cerr << "unexpected recorder log\n";
    return 1;
  }
  std::cout << "consumer ok: created " << created.value()->name() << " at resourceVersion "
            << created.value()->resource_version() << "\n";
  return 0;
}
