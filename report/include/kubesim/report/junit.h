// The --junit file: JUnit XML as CI systems read it (Jenkins, GitLab, GitHub test reporters).
//
//   <testsuites name="kubesim" tests= failures= errors= time=>
//     <testsuite name=SCENARIO tests= failures= errors= skipped= time= file=FILE>
//       <testcase name="seed 7" classname=SCENARIO time=WALL>
//         <failure message="CHECK at T (FILE:L:C); replay: …" type=CONDITION>the whole story</failure>
//
// A seed that broke a check has a <failure>; a seed whose run failed an <error>. A mustFind
// scenario has one more testcase, "mustFind", which fails when no seed found what it lists (and
// is skipped in a shard that cannot tell); its seeds that found it pass, and say so in
// <system-out> with their replay command. Every text is escaped (internal/markup.h), so the file
// is well-formed whatever the checks and traces hold. Times are the seeds' wall-clock seconds.
#ifndef KUBESIM_REPORT_JUNIT_H_
#define KUBESIM_REPORT_JUNIT_H_

#include <ostream>

#include "kubesim/runner/run_set.h"

namespace kubesim::report {

void write_junit(const runner::RunSet& set, std::ostream& out);

}  // namespace kubesim::report

#endif  // KUBESIM_REPORT_JUNIT_H_
