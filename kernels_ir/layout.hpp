// kernels_ir/layout.hpp — where things live: kernel parameters, each function's .param area and .local depot,
// and the shared-memory window of every kernel, computed once under one alignment rule.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

// The alignment rule, for every state space: `.align N` when written, else the natural alignment of one
// element (the type's size times the vector width), at least 1.
uint32_t alignment_of(const Variable& v);
uint32_t alignment_of(const Param& p);

// Dynamic shared memory (extern unsized .shared arrays) starts at this alignment after the static variables.
inline constexpr uint32_t kDynamicSharedAlign = 16;

// Kernel parameters in the launch's parameter buffer, in declaration order.
struct ParamLayout {
    std::vector<uint32_t> offsets;
    uint32_t total = 0;  // bytes up to the end of the last parameter (no tail padding)
};
ParamLayout param_layout(const std::vector<Param>& params);

// A function's frame: its .param area (a .func's formals, then its returns, then the .param variables of its
// body, which call sites fill) and its .local depot; both sizes rounded up to 16 bytes.
struct FrameLayout {
    std::vector<uint32_t> formal_offsets, return_offsets;  // .func only (kernel parameters: param_layout)
    struct Slot {
        Space space = Space::local;  // Space::local or Space::param
        uint32_t offset = 0;
    };
    std::map<std::string, Slot, std::less<>> symbols;  // .local and body .param variables
    uint32_t param_bytes = 0, local_bytes = 0;
};
FrameLayout frame_layout(const Function& fn);

// The shared-memory window of a module. Module-scope .shared variables come first, then those of every .func
// (which any kernel may call), in declaration order: the common part every kernel shares. Each kernel's own
// variables follow the common part. Dynamic shared memory starts kDynamicSharedAlign-aligned after a kernel's
// static variables; code of a .func sees it at the largest such start over the module's kernels. The window
// starts at `base`: a block's reserved region (the driver's, 1 KB from compute capability 8.0) lies below it.
struct SharedPlacement {
    int64_t owner = -1;  // function index, -1 for module scope
    uint32_t index = 0;  // in the owner's variables (Module::globals or Function::locals)
    std::string name;
    uint32_t offset = 0;
    uint64_t size = 0;
};
struct SharedLayout {
    std::vector<SharedPlacement> placements;  // every sized static .shared variable, in window order
    std::vector<uint32_t> static_bytes;       // per function: end of its static variables (kernels: its own)
    uint32_t base = 0;                        // where the first variable may start
    std::vector<uint32_t> dynamic_base;       // per function: where its extern unsized array starts

    // Offset of the static variable `name` declared in `owner` (-1: module scope); -1 when there is none.
    int64_t offset_of(int64_t owner, std::string_view name) const;
    // Bytes a block of `kernel` needs with `dynamic` bytes of dynamic shared memory: the static variables
    // alone without dynamic memory, else up to the end of the dynamic array as the kernel's code (and any
    // .func's) addresses it.
    uint64_t block_bytes(uint32_t kernel, uint64_t dynamic) const;

  private:
    friend SharedLayout shared_layout(const Module& m, uint32_t base);
    std::map<int64_t, std::map<std::string, uint32_t, std::less<>>> index_;  // owner -> name -> offset
    uint32_t func_dynamic_base_ = 0;
    bool has_funcs_ = false;
};
SharedLayout shared_layout(const Module& m, uint32_t base = 0);

// Whether v is a .shared variable (::cta included) and whether it is an extern unsized array.
bool is_shared_variable(const Variable& v);
bool is_dynamic_shared(const Variable& v);

}  // namespace warpsim::ir
