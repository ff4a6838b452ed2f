// kubesim's fixture library for controller authors, in one include: the fake cluster
// (cluster.h), virtual-time assertions and conditions (conditions.h), faults (fault_plan.h),
// the API call log (calls.h), object matchers (matchers.h), seeds (seeded_test.h) and the
// controller side (kubesim/controller/: builder.h, expectations.h, manager.h, whose names
// cluster.h brings into kubesim::testing). Guide: docs/testing.md.
#ifndef KUBESIM_TESTING_TESTING_H_
#define KUBESIM_TESTING_TESTING_H_

#include "kubesim/controller/builder.h"        // IWYU pragma: export
#include "kubesim/controller/expectations.h"   // IWYU pragma: export
#include "kubesim/controller/manager.h"        // IWYU pragma: export
#include "kubesim/testing/calls.h"             // IWYU pragma: export
#include "kubesim/testing/cluster.h"           // IWYU pragma: export
#include "kubesim/testing/conditions.h"        // IWYU pragma: export
#include "kubesim/testing/fault_plan.h"        // IWYU pragma: export
#include "kubesim/testing/matchers.h"          // IWYU pragma: export
#include "kubesim/testing/seeded_test.h"       // IWYU pragma: export

#endif  // KUBESIM_TESTING_TESTING_H_
