// kernels_ir/forms/form.cpp — the dispatch from an opcode to its family's form decoder, and attach_form.
#include "kernels_ir/forms/form.hpp"

namespace warpsim::ir {
namespace forms_detail {
Form decode_cp(const std::vector<std::string>& mods);
Form decode_cp_reduce(const std::vector<std::string>& mods);
Form decode_mbarrier(const std::vector<std::string>& mods);
Form decode_wgmma(const std::vector<std::string>& mods);
Form decode_matrix_move(const std::vector<std::string>& mods, bool store);
Form decode_wmma(const std::vector<std::string>& mods);
Form decode_mma(const std::vector<std::string>& mods);
}  // namespace forms_detail

Form decode_form(Opcode op, const std::vector<std::string>& mods) {
    switch (op) {
        case Opcode::cp:
            return forms_detail::decode_cp(mods);
        case Opcode::cp_reduce:
            return forms_detail::decode_cp_reduce(mods);
        case Opcode::mbarrier:
            return forms_detail::decode_mbarrier(mods);
        case Opcode::wgmma:
            return forms_detail::decode_wgmma(mods);
        case Opcode::ldmatrix:
            return forms_detail::decode_matrix_move(mods, false);
        case Opcode::stmatrix:
            return forms_detail::decode_matrix_move(mods, true);
        case Opcode::wmma:
            return forms_detail::decode_wmma(mods);
        case Opcode::mma:
            return forms_detail::decode_mma(mods);
        default:
            return Form{};
    }
}

void attach_form(Instruction& inst, uint32_t opcode_col) {
    Form f = decode_form(inst.op, inst.mods);
    if (std::holds_alternative<std::monostate>(f.v)) {
        inst.form = nullptr;
        return;
    }
    if (auto* e = std::get_if<FormError>(&f.v)) {
        // The modifiers follow the opcode without spaces: ".mod" starts one past the previous one's end.
        uint32_t col = opcode_col;
        if (e->mod != FormError::kWholeInstruction) {
            col += static_cast<uint32_t>(opcode_name(inst.op).size());
            for (uint32_t i = 0; i < e->mod && i < inst.mods.size(); ++i)
                col += 1 + static_cast<uint32_t>(inst.mods[i].size());
        }
        e->line = inst.loc.ptx_line;
        e->col = col;
    }
    inst.form = std::make_shared<const Form>(std::move(f));
}

}  // namespace warpsim::ir
