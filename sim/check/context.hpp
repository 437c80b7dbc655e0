// sim/check/context.hpp — what every checker needs to describe a finding: source lines of a site (CUDA via
// .loc and PTX), thread coordinates of a lane, and names for addresses (shared variables, buffers).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels_ir/ir.hpp"
#include "kernels_ir/source_chain.hpp"

namespace warpsim::check {

// A static instruction: function index in the module and pc in its body.
struct Site {
    uint32_t function = 0;
    uint32_t pc = 0;
    auto operator<=>(const Site&) const =
        default;  // NOLINT(modernize-use-nullptr): clang-tidy 14 misreads it
};

// A static .shared variable of the kernel at its offset in the block's shared window.
struct SharedVar {
    std::string name;
    uint64_t offset = 0, size = 0;
    uint32_t elem_bytes = 1;     // one array element (vector variables: the whole vector)
    std::vector<uint64_t> dims;  // empty: scalar
};

// The block's shared window as the engine lays it out: module-scope .shared variables, then those of
// every .func, then the kernel's own, each at its alignment, in declaration order; dynamic shared memory
// (extern unsized arrays) starts after, 16-byte aligned. All of it after the block's reserved region
// (DeviceLimits::reserved_shared_per_block, 1 KB from compute capability 8.0), as in the engine.
struct SharedLayout {
    std::vector<SharedVar> vars;
    uint64_t dynamic_base = 0;
    uint64_t reserved_bytes =
        0;  // [0, reserved_bytes): the driver's reserved region (cooperative groups' scratch)
    std::string dynamic_name;  // the extern array's name, "" when the kernel declares none
    uint32_t dynamic_elem_bytes = 1;
};
SharedLayout shared_layout(const ir::Module& m, uint32_t kernel_index, uint32_t reserved_bytes);

// A global allocation the launch made, named for messages ("args[1] out (1000 x f32)").
struct NamedAllocation {
    uint64_t base = 0, size = 0;
    std::string name;
    uint32_t elem_bytes = 1;
};

struct CheckContext {
    const ir::Module* module = nullptr;
    uint32_t kernel_index = 0;
    std::string ptx_file = "kernel.ptx";
    std::array<uint32_t, 3> block_dim{1, 1, 1};
    SharedLayout shared;
    std::vector<NamedAllocation> allocations;

    const ir::Instruction* instruction(Site s) const;
    uint32_t ptx_line(Site s) const;
    // The user's line: for inlined code the call site in the kernel's (or .func's) own body, 0 without .loc.
    uint32_t cuda_line(Site s) const;
    // Innermost first: the .loc and, for inlined code, each call site up to the user's line; empty without
    // .loc.
    std::vector<ir::SourceFrame> source_chain(Site s) const;
    // "reverse_blocks.cu:19 (reverse_blocks.ptx:52)" or "reverse_blocks.ptx:52"; inlined code names the chain
    // "sm_30_intrinsics.hpp:449 in __shfl_xor_sync, inlined from planted.cu:72 (planted.ptx:490)".
    std::string where(Site s) const;
    // "line 19" (CUDA, the user's line as cuda_line) or "PTX line 52": what a fix suggestion names.
    std::string line_word(Site s) const;
    std::string function_name(Site s) const;
    std::array<uint32_t, 3> thread(uint32_t warp, uint32_t lane) const;
    // "s[255]" / "tile[3][4]" / "dynamic shared memory +12"; "" when no variable covers the offset. Byte
    // arrays (nvcc declares `extern __shared__ float s[]` as .b8) are indexed in units of the access size.
    std::string shared_name(uint64_t offset, uint32_t access_bytes = 1) const;
    // "args[2] c[1000]" / "args[2] c, 4 bytes past its end"; "" outside every named allocation.
    std::string global_name(uint64_t addr) const;
    // The buffer or variable itself, without an element: "args[2] c", "tile", the extern array's name or
    // "dynamic shared memory"; "" when none covers the address (global_name's near misses included).
    std::string global_array(uint64_t addr) const;
    std::string shared_array(uint64_t offset) const;
    // Source-level name of a variable: "_ZZ17barrier_in_branchPfE1s" -> "s" (a function-local static).
    static std::string source_name(const std::string& mangled);

  private:
    const NamedAllocation* allocation_at(uint64_t addr) const;
    const SharedVar* shared_var_at(uint64_t offset) const;
};

std::string xyz(const std::array<uint32_t, 3>& v);  // "(3,0,0)"

}  // namespace warpsim::check
