// kernels_ir/forms/form.hpp — the typed form of an instruction, one variant over the families' forms
// (forms/async.hpp, forms/tensor.hpp), decoded once from the opcode and its modifiers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "kernels_ir/forms/async.hpp"
#include "kernels_ir/forms/tensor.hpp"
#include "kernels_ir/ir.hpp"

namespace warpsim::ir {

// An ill-formed combination of modifiers: the message, and which modifier it is about (kWholeInstruction
// when it is about a modifier that is missing). `col` is the PTX column of that modifier's dot (of the
// opcode for the whole instruction), filled by attach_form from the instruction's position.
struct FormError {
    static constexpr uint32_t kWholeInstruction = 0xffffffffu;
    std::string message;
    uint32_t mod = kWholeInstruction;
    uint32_t line = 0, col = 0;
};

struct Form {
    std::variant<std::monostate, FormError, CpForm, MbarrierForm, WgmmaForm, MatrixMoveForm, WmmaForm,
                 MmaForm>
        v;
};

// The form of (op, mods): a family's form, a FormError, or monostate for opcodes without typed forms.
Form decode_form(Opcode op, const std::vector<std::string>& mods);

// Sets inst.form from inst.op and inst.mods; `opcode_col` is the column of the opcode in the PTX text (the
// instruction's own column is the guard's when it has one), used to place errors on their modifier.
// Call it again after changing an instruction's modifiers.
void attach_form(Instruction& inst, uint32_t opcode_col);

// The form of `inst` when it is an F, else nullptr (no form, another family's, or an error).
template <typename F>
const F* form_as(const Instruction& inst) {
    return inst.form ? std::get_if<F>(&inst.form->v) : nullptr;
}
inline const FormError* form_error(const Instruction& inst) {
    return form_as<FormError>(inst);
}

}  // namespace warpsim::ir
