// sim/check/findings.hpp — what a checker reports: a finding with its kind, the one or two accesses
// involved (source lines, threads, blocks), the address and variable, and a fix; deduplicated by kind and
// the pcs involved, with an occurrence count, and rendered like compute-sanitizer's reports.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/check/context.hpp"

namespace warpsim::check {

// schedules: results that differ between legal warp orders (`--schedules N`), not a checker of its own.
enum class Tool : uint8_t { memcheck, racecheck, synccheck, initcheck, schedules };
std::string_view tool_name(Tool t);

// One party of a finding: what it did ("write", "read", "waits at barrier", "exited"), where and who.
struct Party {
    std::string what;
    Site at;
    std::array<uint32_t, 3> thread{0, 0, 0};
    std::array<uint32_t, 3> block{0, 0, 0};
};

struct Finding {
    Tool tool = Tool::memcheck;
    std::string kind;            // stable id: "race.raw.shared", "sync.barrier_partial", ...
    std::string title;           // "Read-after-write hazard on shared memory"
    std::vector<Party> parties;  // 1 or 2; the dedup key uses their sites
    std::optional<uint64_t> address;
    std::string space;               // "shared", "global", ...
    std::string variable;            // "s[255]", "args[2] c[1000]"
    std::vector<std::string> notes;  // extra lines
    std::string fix;                 // "add __syncthreads() between line 19 and line 20"
    uint64_t count = 1;              // occurrences folded into this finding
};

class FindingLog {
  public:
    // Adds a finding or counts it against the one with the same kind and sites (the first keeps its details).
    void add(Finding f);
    const std::vector<Finding>& findings() const { return findings_; }
    size_t size() const { return findings_.size(); }
    size_t count(Tool t) const;
    uint64_t occurrences() const;

  private:
    using Key = std::tuple<std::string, std::vector<Site>>;
    std::map<Key, size_t> index_;
    std::vector<Finding> findings_;
};

// compute-sanitizer-style text: every line starts with "========= ", a blank "=========" between
// findings, and "========= ERROR SUMMARY: N errors" at the end.
std::string render_text(const FindingLog& log, const CheckContext& ctx, const std::string& header);
nlohmann::json render_json(const FindingLog& log, const CheckContext& ctx);

}  // namespace warpsim::check
