// print_explore_report (kubesim/explore/explore.h): what explore found, then the table of the
// perturbation families it tried.
#include <cmath>
#include <iomanip>
#include <sstream>

#include "kubesim/api/go_duration.h"
#include "kubesim/explore/explore.h"

namespace kubesim::explore {
namespace {

std::string seconds(double s) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(s < 10 ? 2 : 1) << s << "s";
  return out.str();
}

}  // namespace

void print_explore_report(const ExploreReport& r, std::ostream& out) {
  const double rate = r.seconds > 0 ? static_cast<double>(r.runs + r.reference_runs) / r.seconds : 0;
  out << "explore " << r.scenario << ": " << r.reference_runs << " reference run"
      << (r.reference_runs == 1 ? "" : "s") << " and " << r.runs << " perturbed runs in "
      << seconds(r.seconds) << " (" << std::lround(rate) << " runs/s)\n";
  if (r.found) {
    const ExploreFinding& f = *r.found;
    out << "FOUND (seed " << f.seed << "): " << f.check << " broken at "
        << api::format_rounded(f.at - sim::Time{}) << "\n";
    std::istringstream detail(f.detail);
    for (std::string line; std::getline(detail, line);) out << "  " << line << "\n";
    if (f.family.empty()) {
      out << "  without any perturbation: the scenario fails as written\n";
    } else {
      out << "  perturbation (" << f.family << "): " << f.perturbation << "\n";
    }
    out << "  found after " << f.runs_to_find << " runs in " << seconds(f.seconds_to_find)
        << "; shrunk in " << f.shrink_runs << " runs from " << f.entries_before << " to "
        << f.entries << " timeline, fault and workload entries\n";
    if (!f.shrink_error.empty()) out << "  (not shrunk: the shrinker failed: " << f.shrink_error << ")\n";
    out << "  wrote " << f.min_file;
    if (f.replays) {
      out << "; it fails by itself, replayed in " << seconds(f.replay_seconds) << ":\n";
    } else {
      out << "; it does NOT fail by itself with run:\n";
    }
    out << "    " << f.replay_command << "\n";
  } else {
    out << "nothing found within the budget" << (r.time_ran_out ? " (the time ran out)" : "") << "\n";
  }
  out << "\n" << std::left << std::setw(10) << "family" << std::right << std::setw(8) << "points"
      << std::setw(8) << "runs" << std::setw(10) << "failures" << "\n";
  for (const FamilyTally& t : r.families) {
    out << std::left << std::setw(10) << t.family << std::right << std::setw(8) << t.points
        << std::setw(8) << t.runs << std::setw(10) << t.failures;
    if (!t.note.empty()) out << "  " << t.note;
    out << "\n";
  }
}

}  // namespace kubesim::explore
