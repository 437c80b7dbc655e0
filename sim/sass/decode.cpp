// sim/sass/decode.cpp — decodes sm_90 SASS instructions out of a cubin's .text sections.
#include "sim/sass/decode.hpp"

#include <array>

#include <fmt/format.h>

#include "sim/sass/cubin.hpp"

namespace warpsim::sass {

namespace {

struct Class {
    std::string_view mnemonic;
    MemSpace space;
    MemOp mem;
    Flow flow;
};

// What each mnemonic does to memory and to the flow of its warp; mnemonics not listed do neither.
constexpr Class kClasses[] = {
    {"LDG", MemSpace::Global, MemOp::Load, Flow::None},
    {"STG", MemSpace::Global, MemOp::Store, Flow::None},
    {"LDS", MemSpace::Shared, MemOp::Load, Flow::None},
    {"STS", MemSpace::Shared, MemOp::Store, Flow::None},
    {"LDL", MemSpace::Local, MemOp::Load, Flow::None},
    {"STL", MemSpace::Local, MemOp::Store, Flow::None},
    {"LD", MemSpace::Generic, MemOp::Load, Flow::None},
    {"ST", MemSpace::Generic, MemOp::Store, Flow::None},
    {"ATOM", MemSpace::Generic, MemOp::Atomic, Flow::None},
    {"ATOMG", MemSpace::Global, MemOp::Atomic, Flow::None},
    {"ATOMS", MemSpace::Shared, MemOp::Atomic, Flow::None},
    {"RED", MemSpace::Generic, MemOp::Reduction, Flow::None},
    {"REDG", MemSpace::Global, MemOp::Reduction, Flow::None},
    {"LDSM", MemSpace::Shared, MemOp::Load, Flow::None},
    {"STSM", MemSpace::Shared, MemOp::Store, Flow::None},
    {"LDGSTS", MemSpace::Global, MemOp::Load, Flow::None},
    {"LDC", MemSpace::Constant, MemOp::Load, Flow::None},
    {"ULDC", MemSpace::Constant, MemOp::Load, Flow::None},
    {"BRA", MemSpace::None, MemOp::None, Flow::Branch},
    {"BRX", MemSpace::None, MemOp::None, Flow::Indirect},
    {"JMX", MemSpace::None, MemOp::None, Flow::Indirect},
    {"CALL", MemSpace::None, MemOp::None, Flow::Call},
    {"RET", MemSpace::None, MemOp::None, Flow::Return},
    {"EXIT", MemSpace::None, MemOp::None, Flow::Exit},
    {"BAR", MemSpace::None, MemOp::None, Flow::Sync},
};

constexpr OpcodeInfo classify(uint16_t code, std::string_view mnemonic, bool uniform_guard) {
    OpcodeInfo info{code, mnemonic, uniform_guard};
    for (const Class& c : kClasses)
        if (c.mnemonic == mnemonic) {
            info.space = c.space;
            info.mem = c.mem;
            info.flow = c.flow;
        }
    return info;
}

constexpr OpcodeInfo kOpcodes[] = {
#define SASS_OPCODE(code, mnemonic, uniform) classify(code, mnemonic, uniform),
#include "sim/sass/opcodes.def"
#undef SASS_OPCODE
};

// code -> index into kOpcodes (+1; 0 = unknown), built at compile time.
constexpr std::array<uint16_t, 4096> make_index() {
    std::array<uint16_t, 4096> index{};
    for (std::size_t i = 0; i < std::size(kOpcodes); ++i)
        index[kOpcodes[i].code] = static_cast<uint16_t>(i + 1);
    return index;
}
constexpr std::array<uint16_t, 4096> kIndex = make_index();

constexpr std::size_t kInstBytes = 16;

// Bits [from, from + count) of the 128-bit instruction (count <= 64).
uint64_t bits(uint64_t lo, uint64_t hi, unsigned from, unsigned count) {
    uint64_t v = 0;
    if (from < 64) v = lo >> from;
    if (from > 0 && from < 64) v |= hi << (64 - from);
    if (from >= 64) v = hi >> (from - 64);
    return count >= 64 ? v : v & ((uint64_t(1) << count) - 1);
}

int64_t sign_extend(uint64_t v, unsigned count) {
    const uint64_t sign = uint64_t(1) << (count - 1);
    return static_cast<int64_t>((v ^ sign) - sign);
}

// LD/ST-family size field (bits 73-75): U8 S8 U16 S16 32 64 128 U.128.
void decode_width(Instruction& inst) {
    static constexpr uint8_t kBytes[8] = {1, 1, 2, 2, 4, 8, 16, 16};
    const auto size = static_cast<unsigned>(bits(inst.lo, inst.hi, 73, 3));
    inst.width = kBytes[size];
    inst.width_signed = size == 1 || size == 3;
}

void decode_memory(Instruction& inst) {
    const OpcodeInfo& op = *inst.op;
    inst.addr_reg = static_cast<uint8_t>(bits(inst.lo, inst.hi, 24, 8));
    inst.addr_offset = static_cast<int32_t>(sign_extend(bits(inst.lo, inst.hi, 40, 24), 24));
    const bool source_is_b = op.mem == MemOp::Store || op.mem == MemOp::Reduction;
    // A store's source is operand B (bits 32-39), except in the generic ST without a memory descriptor
    // (0x385), whose bits 32-63 hold no operand and whose source sits at bits 64-71.
    const unsigned data_at = !source_is_b ? 16 : op.code == 0x385 ? 64 : 32;
    inst.data_reg = static_cast<uint8_t>(bits(inst.lo, inst.hi, data_at, 8));
    if (op.mem == MemOp::Load || op.mem == MemOp::Store)
        decode_width(inst);
    else
        inst.width = 4;
}

void decode_target(Instruction& inst) {
    const std::string_view m = inst.op->mnemonic;
    const int64_t next = int64_t(inst.offset) + int64_t(kInstBytes);
    if (m == "BRA" || m == "WARPSYNC") {
        // A signed count of 4-byte units: bits 2-9 of the byte offset at bits 16-23, the rest from bit 34 on.
        if (m == "WARPSYNC" && bits(inst.lo, inst.hi, 86, 1) == 0)
            return;  // only WARPSYNC.COLLECTIVE has a label
        const int64_t high = sign_extend(bits(inst.lo, inst.hi, 34, 48), 48);
        const auto low = static_cast<int64_t>(bits(inst.lo, inst.hi, 16, 8));
        inst.target = next + (low + high * 256) * 4;
    } else if (m == "BSSY") {
        inst.target = next + sign_extend(bits(inst.lo, inst.hi, 32, 32), 32);
    } else if (m == "LEPC") {
        inst.target = next + sign_extend(bits(inst.lo, inst.hi, 24, 32), 32);
    }
}

}  // namespace

const OpcodeInfo* opcode_info(uint16_t code) {
    const uint16_t at = kIndex[code & 0xfff];
    return at ? &kOpcodes[at - 1] : nullptr;
}

Instruction decode_instruction(uint64_t lo, uint64_t hi, uint32_t offset) {
    Instruction inst;
    inst.offset = offset;
    inst.lo = lo;
    inst.hi = hi;
    inst.op = opcode_info(static_cast<uint16_t>(lo & 0xfff));
    inst.guard = static_cast<uint8_t>((lo >> 12) & 7);
    inst.guard_negated = ((lo >> 15) & 1) != 0;
    if (!inst.op) return inst;
    if (inst.op->mem != MemOp::None && inst.op->space != MemSpace::Constant) decode_memory(inst);
    decode_target(inst);
    return inst;
}

const Function* Program::find(std::string_view name) const {
    for (const auto& f : functions)
        if (f.name == name) return &f;
    return nullptr;
}

std::optional<Program> decode_cubin(std::string_view bytes, std::string* error) {
    std::string scratch;
    std::string& err = error ? *error : scratch;
    auto cubin = read_cubin(bytes, err);
    if (!cubin) return std::nullopt;
    std::vector<LineRow> rows;
    if (!read_ptx_line_table(*cubin, rows, err)) return std::nullopt;
    Program program;
    for (std::size_t i = 0; i < cubin->sections.size(); ++i) {
        const CubinSection& s = cubin->sections[i];
        if (s.name.rfind(".text.", 0) != 0 || !s.executable()) continue;
        Function f;
        f.name = s.name.substr(6);
        f.section = static_cast<int>(i);
        const std::string_view text = cubin->data(s);
        f.code.reserve(text.size() / kInstBytes);
        for (std::size_t at = 0; at + kInstBytes <= text.size(); at += kInstBytes) {
            uint64_t lo = 0, hi = 0;
            for (std::size_t k = 0; k < 8; ++k) {
                lo |= uint64_t(static_cast<unsigned char>(text[at + k])) << (8 * k);
                hi |= uint64_t(static_cast<unsigned char>(text[at + 8 + k])) << (8 * k);
            }
            Instruction inst = decode_instruction(lo, hi, static_cast<uint32_t>(at));
            inst.ptx_line = ptx_line_at(rows, f.section, at);
            f.code.push_back(inst);
        }
        program.functions.push_back(std::move(f));
    }
    return program;
}

std::string describe(const Instruction& inst) {
    std::string out;
    if (!inst.always())
        out = fmt::format("@{}{}P{} ", inst.guard_negated ? "!" : "",
                          inst.op && inst.op->uniform_guard ? "U" : "",
                          inst.guard == 7 ? std::string("T") : std::to_string(inst.guard));
    out += inst.op ? std::string(inst.op->mnemonic) : fmt::format("<opcode 0x{:03x}>", inst.lo & 0xfff);
    if (inst.memory()) {
        if (inst.op->mem == MemOp::Load || inst.op->mem == MemOp::Store) {
            if (inst.width == 1 || inst.width == 2)
                out += fmt::format(".{}{}", inst.width_signed ? "S" : "U", inst.width * 8);
            if (inst.width >= 8) out += fmt::format(".{}", inst.width * 8);
        }
        auto reg = [](uint8_t r) { return r == 255 ? std::string("RZ") : fmt::format("R{}", r); };
        std::string addr = "[" + reg(inst.addr_reg);
        if (inst.addr_offset > 0) addr += fmt::format("+0x{:x}", inst.addr_offset);
        if (inst.addr_offset < 0) addr += fmt::format("-0x{:x}", -int64_t(inst.addr_offset));
        addr += "]";
        const bool store = inst.op->mem == MemOp::Store || inst.op->mem == MemOp::Reduction;
        out += store ? fmt::format(" {}, {}", addr, reg(inst.data_reg))
                     : fmt::format(" {}, {}", reg(inst.data_reg), addr);
    } else if (inst.target >= 0) {
        out += fmt::format(" 0x{:x}", inst.target);
    }
    return out;
}

}  // namespace warpsim::sass
