// sim/timing/sass_spills.cpp — the STL/LDL instructions and their PTX lines out of an sm_90 cubin.
#include "sim/timing/sass_spills.hpp"

#include "sim/sass/compile.hpp"
#include "sim/sass/decode.hpp"

namespace warpsim::timing {

std::optional<std::vector<SassLocalAccess>> sass_local_accesses(std::string_view cubin, std::string* error) {
    auto program = sass::decode_cubin(cubin, error);
    if (!program) return std::nullopt;
    std::vector<SassLocalAccess> out;
    for (const auto& f : program->functions)
        for (const auto& inst : f.code) {
            if (!inst.op || inst.op->space != sass::MemSpace::Local) continue;
            const bool store = inst.op->mem == sass::MemOp::Store;
            if (!store && inst.op->mem != sass::MemOp::Load) continue;
            out.push_back({".text." + f.name, inst.offset, inst.ptx_line, store});
        }
    return out;
}

std::optional<std::vector<SassLocalAccess>> sass_local_accesses_of_ptx(std::string_view ptx_text,
                                                                       std::string_view arch,
                                                                       std::string* log) {
    auto cubin = sass::compile_cubin(ptx_text, arch, log);
    if (!cubin) return std::nullopt;
    return sass_local_accesses(*cubin, log);
}

}  // namespace warpsim::timing
