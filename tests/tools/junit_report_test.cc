// The JUnit file and the HTML report: well-formed, escaped, self-contained.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/report/junit.h"
#include "kubesim/report/report.h"
#include "report/internal/markup.h"
#include "tests/tools/stubs.h"
#include "tests/tools/xml_check.h"

namespace kubesim::tools {
namespace {

using testing::sample_failure;
using testing::sample_timeline;
using testing::xml_problem;

// Two scenarios: "mirror <&>" fails in seed 2 (with text that needs escaping), "unsafe" is a
// mustFind scenario that found its check in seed 3.
runner::RunSet sample_set() {
  runner::RunSet set;
  set.program = "kubesim";
  set.command = {"kubesim", "run", "lib/"};
  runner::ScenarioRun mirror;
  mirror.result.file = "lib/mirror \"1\".yaml";
  mirror.result.name = "mirror <&>";
  mirror.result.description = "keeps 'b' equal to a & more";
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    runner::SeedResult r;
    r.seed = seed;
    if (seed == 2) {
      runner::Failure f = sample_failure(seed);
      f.check = "{count: <b>, equals: \"a\" & 'c'}";
      f.detail = "bad bytes: \x01\x02 \xFF\xFE and ]]> end";
      r.failures.push_back(f);
      r.trace_tail = {"{\"event\":\"<watch>\"}"};
      r.timeline = sample_timeline(seed);
    }
    mirror.result.seeds.push_back(r);
    mirror.wall_seconds.push_back(0.25 * static_cast<double>(seed));
  }
  mirror.planned_seeds = {1, 2, 3};
  runner::ScenarioRun unsafe;
  unsafe.result.file = "lib/unsafe.yaml";
  unsafe.result.name = "unsafe";
  unsafe.result.must_find = {"atMostOneLeader"};
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    runner::SeedResult r;
    r.seed = seed;
    if (seed == 3) r.failures.push_back(sample_failure(seed));
    unsafe.result.seeds.push_back(r);
    unsafe.wall_seconds.push_back(0);
  }
  unsafe.planned_seeds = {1, 2, 3};
  set.scenarios = {mirror, unsafe};
  return set;
}

TEST(MarkupTest, EscapesAndReplacesWhatXmlCannotHold) {
  using report::internal::escape_markup;
  EXPECT_EQ(escape_markup("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(escape_markup("l1\nl2\tx"), "l1\nl2\tx");
  EXPECT_EQ(escape_markup("l1\nl2\tx\r", true), "l1&#10;l2&#9;x&#13;");
  EXPECT_EQ(escape_markup("\x01z\x7F"), "\xEF\xBF\xBDz\xEF\xBF\xBD");
  EXPECT_EQ(escape_markup("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80"), "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80");
  EXPECT_EQ(escape_markup("\xFF\xC3"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(escape_markup("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(escape_markup("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong
}

RC_GTEST_PROP(MarkupTest, AnyBytesMakeWellFormedText, (const std::string& bytes)) {
  const std::string doc = "<r a=\"" + report::internal::escape_markup(bytes, true) + "\">" +
                          report::internal::escape_markup(bytes) + "</r>";
  RC_ASSERT(xml_problem(doc) == "");
}

TEST(JunitTest, IsWellFormedAndEscaped) {
  std::ostringstream out;
  report::write_junit(sample_set(), out);
  const std::string xml = out.str();
  EXPECT_EQ(xml_problem(xml), "") << xml;
  EXPECT_NE(xml.find("<testsuites name=\"kubesim\" tests=\"7\" failures=\"1\" errors=\"0\" "
                     "time=\"1.500\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"mirror &lt;&amp;&gt;\" tests=\"3\" failures=\"1\" "
                     "errors=\"0\" skipped=\"0\" time=\"1.500\" file=\"lib/mirror &quot;1&quot;.yaml\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testcase name=\"seed 1\" classname=\"mirror &lt;&amp;&gt;\" time=\"0.250\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"{count: &lt;b&gt;, equals: &quot;a&quot; &amp; &#39;c&#39;} "
                     "broke at 6.25s (lib/mirror &quot;1&quot;.yaml:12:7); replay: kubesim run "
                     "&#39;lib/mirror &quot;1&quot;.yaml&#39; --seed 2\" type=\"atMostOneLeader\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("bad bytes: \xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD and ]]&gt; end"),
            std::string::npos);
  // The mustFind scenario: its seeds pass, the one that found it says so, and "mustFind" passes.
  EXPECT_NE(xml.find("<testcase name=\"seed 3\" classname=\"unsafe\" time=\"0.000\">\n"
                     "      <system-out>found what mustFind lists; replay: kubesim run "
                     "lib/unsafe.yaml --seed 3\n</system-out>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testcase name=\"mustFind\" classname=\"unsafe\" time=\"0.000\"/>"),
            std::string::npos);
}

TEST(JunitTest, AMustFindThatFoundNothingFailsItsOwnTestcase) {
  runner::RunSet set = sample_set();
  set.scenarios[1].result.seeds[2].failures.clear();
  std::ostringstream out;
  report::write_junit(set, out);
  EXPECT_EQ(xml_problem(out.str()), "");
  EXPECT_NE(out.str().find("<testcase name=\"mustFind\" classname=\"unsafe\" time=\"0.000\">\n"
                           "      <failure message=\"FAIL unsafe: found no atMostOneLeader in 3 "
                           "seeds\" type=\"mustFind\"/>"),
            std::string::npos)
      << out.str();
  set.shard = runner::Shard{0, 2};
  std::ostringstream shard;
  report::write_junit(set, shard);
  EXPECT_NE(shard.str().find("<skipped message=\"UNDECIDED unsafe"), std::string::npos);
}

// A scenario with a workload: each seed's counts in its system-out, the sums as a property.
TEST(JunitTest, TheWorkloadsWritesAreInEachSeedAndTheSuite) {
  runner::RunSet set = sample_set();
  for (std::size_t i = 0; i < 3; ++i) {
    runner::EntryWrites w;
    w.verb = "create";
    w.written = 10;
    w.failed = i;
    set.scenarios[0].result.seeds[i].writes.push_back(w);
  }
  std::ostringstream out;
  report::write_junit(set, out);
  const std::string xml = out.str();
  EXPECT_EQ(xml_problem(xml), "") << xml;
  EXPECT_NE(xml.find("<property name=\"kubesim.workload\" value=\"30 written, 3 failed\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testcase name=\"seed 1\" classname=\"mirror &lt;&amp;&gt;\" time=\"0.250\">\n"
                     "      <system-out>workload: 10 written\n</system-out>\n    </testcase>"),
            std::string::npos) << xml;
  EXPECT_NE(xml.find("</failure>\n      <system-out>workload: 10 written, 1 failed\n</system-out>"), std::string::npos) << xml;
  // A scenario without a workload says nothing of it.
  EXPECT_EQ(xml.find("workload", xml.find("<testsuite name=\"unsafe\"")), std::string::npos);
}

TEST(JunitTest, ARunThatFailedIsAnError) {
  runner::RunSet set = sample_set();
  set.scenarios[0].result.seeds[0].error = "the run threw: boom";
  std::ostringstream out;
  report::write_junit(set, out);
  EXPECT_EQ(xml_problem(out.str()), "");
  EXPECT_NE(out.str().find("<error message=\"the run failed: the run threw: boom; replay: "),
            std::string::npos);
  EXPECT_NE(out.str().find("failures=\"1\" errors=\"1\""), std::string::npos);
}

TEST(ReportTest, IsOneSelfContainedPageWithATimeline) {
  std::ostringstream out;
  report::write_report_html(sample_set(), out);
  const std::string html = out.str();
  for (const char* outside : {"http://", "https://", "<script", "<link", "<img", "url(", "@import"}) {
    EXPECT_EQ(html.find(outside), std::string::npos) << outside;
  }
  EXPECT_EQ(html.substr(0, 15), "<!DOCTYPE html>");
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("<style>"), std::string::npos);
  EXPECT_NE(html.find("mirror &lt;&amp;&gt;"), std::string::npos);
  EXPECT_EQ(html.find("mirror <&>"), std::string::npos);
  EXPECT_NE(html.find("1 passed, 1 failed"), std::string::npos);
  EXPECT_NE(html.find("kubesim run &#39;lib/mirror &quot;1&quot;.yaml&#39; --seed 2"),
            std::string::npos);
  EXPECT_NE(html.find("Timeline of seed 2"), std::string::npos);
  // The passing mustFind scenario points at the seed that found its check.
  EXPECT_NE(html.find("found in seed 3: <code>atMostOneLeader: leases/team-a/manager</code> at 9.25s"
                      "</td><td class=\"cmd\">kubesim run lib/unsafe.yaml --seed 3</td>"),
            std::string::npos);
  // The mustFind scenario's seed 3 has no timeline recorded.
  EXPECT_NE(html.find("Timeline of seed 3</h3>\n<p class=\"muted\">No timeline was recorded"),
            std::string::npos);
}

TEST(ReportTest, TheTimelineDrawsEveryLaneSpanMarkAndTheFailure) {
  runner::Timeline t = sample_timeline(2);
  t.marks.push_back(runner::TimelineMark{"", "failure", "atMostOneLeader", sim::Time{std::chrono::seconds(92)}});
  const std::string svg = report::timeline_svg(t);
  EXPECT_EQ(xml_problem(svg), "") << svg;
  EXPECT_EQ(svg.find("http"), std::string::npos);
  for (const char* text :
       {"lock leases/team-a/manager", "process manager-0", "apiserver", "queue manager-0",
        "leader manager-0: 2s to 1m30s", "partition: 1m0s to 1m40s", "pause: 4m0s to 4m20s",
        "fault update leases 500: 2m30s to 2m50s", "restart at 1m30s", "compact at 2m0s",
        "crash at 1m0s", "watch-restart configmaps at 1m31s", "failure atMostOneLeader at 1m32s",
        "<polyline", ">5m0s</text>", ">10m0s</text>", "leader manager-1"}) {
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  }
  // The failure line is red and spans the lanes.
  EXPECT_NE(svg.find("stroke=\"#d62728\" stroke-width=\"2\"><title>failure"), std::string::npos);
}

// A lane label that does not fit keeps its kind and loses the middle of its path, not its
// start ("…ck leases/kube-system/manager" was cut from the left).
TEST(ReportTest, LongLaneLabelsKeepTheirKindAndTheEndsOfTheirPath) {
  runner::Timeline t;
  t.duration = std::chrono::minutes(1);
  t.lanes = {"lock leases/kube-system/manager", "lock configmaps/a-rather-long-namespace/manager",
             "process a-replica-with-a-very-long-name-indeed-0"};
  const std::string svg = report::timeline_svg(t);
  EXPECT_NE(svg.find("</title>lock leases/kube-system/manager</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("</title>lock configmaps/\xE2\x80\xA6/manager</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("</title>process a-replica-w\xE2\x80\xA6" "ame-indeed-0</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<g class=\"legend\">"), std::string::npos);
}

// The y of the rectangle whose <title> starts with `title`.
std::string rect_y(const std::string& svg, const std::string& title) {
  const std::size_t at = svg.find("<title>" + title);
  const std::size_t rect = svg.rfind("<rect ", at);
  const std::size_t y = svg.find(" y=\"", rect) + 4;
  return svg.substr(y, svg.find('"', y) - y);
}

TEST(ReportTest, OverlappingSpansOfALaneSitOneAboveTheOther) {
  runner::Timeline t;
  t.duration = std::chrono::minutes(1);
  t.lanes = {"lock l", "apiserver"};
  using std::chrono::seconds;
  t.spans = {{"lock l", "leader", "a", sim::Time{seconds(0)}, sim::Time{seconds(30)}},
             {"lock l", "leader", "b", sim::Time{seconds(20)}, sim::Time{seconds(60)}},
             {"lock l", "leader", "c", sim::Time{seconds(30)}, sim::Time{seconds(40)}},
             {"apiserver", "fault", "x", sim::Time{seconds(5)}, sim::Time{seconds(9)}}};
  const std::string svg = report::timeline_svg(t);
  EXPECT_EQ(xml_problem(svg), "");
  const double a = std::stod(rect_y(svg, "leader a")), b = std::stod(rect_y(svg, "leader b"));
  EXPECT_EQ(b - a, 18);                                  // b overlaps a: the next row
  EXPECT_EQ(rect_y(svg, "leader c"), rect_y(svg, "leader a"));  // c starts as a ends
  EXPECT_EQ(std::stod(rect_y(svg, "fault x")), a + 24 + 18);    // the lock lane is two rows tall
  // The legend names only what the picture holds.
  EXPECT_NE(svg.find(">fault window</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">partitioned</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">failure</text>"), std::string::npos);
}

TEST(ReportTest, AnEmptyTimelineIsStillAPicture) {
  const std::string svg = report::timeline_svg(runner::Timeline{});
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace kubesim::tools
