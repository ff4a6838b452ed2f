#include "live/internal/program.h"

#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <vector>

namespace kubesim::live {

namespace fs = std::filesystem;

namespace {

bool executable(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

// What kind of program the file at `path` is, from its first bytes and (for ELF) its headers.
ProgramKind classify(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<char, 4> magic{};
  if (!in.read(magic.data(), magic.size())) return ProgramKind::kOther;
  if (magic[0] == '#' && magic[1] == '!') return ProgramKind::kScript;
  if (magic[0] != 0x7f || magic[1] != 'E' || magic[2] != 'L' || magic[3] != 'F') return ProgramKind::kOther;
  in.seekg(0);
  Elf64_Ehdr header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header) || header.e_ident[EI_CLASS] != ELFCLASS64) {
    return ProgramKind::kOther;
  }
  bool interp = false;
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(static_cast<std::streamoff>(header.e_phoff + static_cast<std::uint64_t>(i) * header.e_phentsize));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) break;
    if (ph.p_type == PT_INTERP) interp = true;
  }
  // Go binaries carry a section named .go.buildinfo (and a "Go" build-id note).
  std::vector<char> names;
  if (header.e_shstrndx != SHN_UNDEF && header.e_shstrndx < header.e_shnum) {
    Elf64_Shdr strtab{};
    in.seekg(static_cast<std::streamoff>(header.e_shoff + static_cast<std::uint64_t>(header.e_shstrndx) * header.e_shentsize));
    if (in.read(reinterpret_cast<char*>(&strtab), sizeof strtab) && strtab.sh_size < (1u << 24)) {
      names.resize(strtab.sh_size);
      in.seekg(static_cast<std::streamoff>(strtab.sh_offset));
      if (!in.read(names.data(), static_cast<std::streamsize>(names.size()))) names.clear();
    }
  }
  const std::string_view all(names.data(), names.size());
  if (all.find(".go.buildinfo") != std::string_view::npos || all.find(".gopclntab") != std::string_view::npos) {
    return ProgramKind::kGo;
  }
  return interp ? ProgramKind::kDynamic : ProgramKind::kStatic;
}

}  // namespace

Program find_program(const std::string& word, const fs::path& cwd, const std::string& path_env) {
  Program out;
  if (word.empty()) return out;
  std::vector<fs::path> candidates;
  if (word.find('/') != std::string::npos) {
    candidates.push_back(fs::path(word).is_absolute() ? fs::path(word) : cwd / word);
  } else {
    std::size_t start = 0;
    for (;;) {
      const std::size_t colon = path_env.find(':', start);
      std::string dir = path_env.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (dir.empty()) dir = ".";
      const fs::path d(dir);
      candidates.push_back((d.is_absolute() ? d : cwd / d) / word);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  for (const auto& c : candidates) {
    if (!executable(c)) continue;
    out.path = c.string();
    out.kind = classify(c);
    return out;
  }
  return out;
}

std::optional<std::string> faketime_obstacle(const Program& program) {
  switch (program.kind) {
    case ProgramKind::kGo:
      return program.path + " is a Go binary: Go reads the clock without the C library, so libfaketime cannot change it";
    case ProgramKind::kStatic:
      return program.path + " is statically linked: libfaketime (LD_PRELOAD) cannot change its clock";
    case ProgramKind::kMissing:
      return "the program is not found";
    default:
      break;
  }
  if (faketime_library().empty()) return "libfaketime is not installed (Debian: apt-get install faketime)";
  return std::nullopt;
}

std::string faketime_library() {
  static const std::array<const char*, 4> kPaths = {
      "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
      "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
      "/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1",
      "/usr/local/lib/faketime/libfaketimeMT.so.1",
  };
  for (const char* p : kPaths) {
    if (::access(p, R_OK) == 0) return p;
  }
  return "";
}

bool clock_differs(const scenarios::Scenario& scenario, const scenarios::ProcessSpec& process, const std::string& replica) {
  const scenarios::ClockSpec& c = process.clock;
  if (c.skew.min != sim::Duration::zero() || c.skew.max != sim::Duration::zero() || c.drift.min != 0 ||
      c.drift.max != 0) {
    return true;
  }
  return std::any_of(scenario.timeline.begin(), scenario.timeline.end(), [&](const scenarios::TimelineEvent& e) {
    const auto* skew = std::get_if<scenarios::SkewEvent>(&e.action);
    return skew != nullptr && skew->process == replica;
  });
}

std::string faketime_spec(sim::Duration offset, double rate) {
  const double seconds = std::chrono::duration<double>(offset).count();
  std::array<char, 64> buf{};
  std::snprintf(buf.data(), buf.size(), "%+.6fs x%.6f", seconds, rate);
  return buf.data();
}

}  // namespace kubesim::live
