// sim/engine/fault.hpp — the kinds of launch failure as one enum, with CUDA's error name, cudaError_t value
// and words for each, all generated from sim/engine/faults.def.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace warpsim::engine {

enum class Fault : uint8_t {
#define FAULT(kind, name, code, words) kind,
#include "sim/engine/faults.def"
#undef FAULT
};

// One row of faults.def.
struct FaultInfo {
    Fault kind;
    std::string_view kind_name;  // "budget_exhausted"
    std::string_view cuda_name;  // "cudaErrorLaunchTimeout"
    int cuda_code;               // 702 (cudaError_t)
    std::string_view words;      // "the launch timed out and was terminated" (cudaGetErrorString)
};

inline constexpr FaultInfo kFaultTable[] = {
#define FAULT(kind, name, code, words) {Fault::kind, #kind, #name, code, words},
#include "sim/engine/faults.def"
#undef FAULT
};

constexpr const FaultInfo& fault_info(Fault f) {
    return kFaultTable[static_cast<std::size_t>(f)];
}
constexpr std::string_view cuda_name(Fault f) {
    return fault_info(f).cuda_name;
}
constexpr int cuda_code(Fault f) {
    return fault_info(f).cuda_code;
}
constexpr std::string_view cuda_words(Fault f) {
    return fault_info(f).words;
}

// A kernel that would hang on a GPU (a barrier, cluster barrier or mbarrier phase no one completes).
constexpr bool is_deadlock(Fault f) {
    return f == Fault::barrier_deadlock || f == Fault::cluster_deadlock || f == Fault::mbarrier_deadlock;
}
// An access the memory checker reports as such (out of bounds, unallocated, misaligned).
constexpr bool is_memory_fault(Fault f) {
    return f == Fault::illegal_address || f == Fault::misaligned_address;
}

// The first kind (in table order) with this CUDA error name; nullopt for a name no row has.
constexpr std::optional<Fault> fault_from_cuda_name(std::string_view name) {
    for (const auto& row : kFaultTable)
        if (row.cuda_name == name) return row.kind;
    return std::nullopt;
}

static_assert(
    [] {
        for (std::size_t i = 0; i < std::size(kFaultTable); ++i)
            if (static_cast<std::size_t>(kFaultTable[i].kind) != i) return false;
        return true;
    }(),
    "kFaultTable is indexed by Fault");

}  // namespace warpsim::engine
