// sim/sass/decode.hpp — a decoder of sm_90 SASS, the machine code ptxas makes: every 16-byte instruction of
// a cubin's .text.<function> sections with its opcode, guard predicate, memory space, access width,
// address registers and offset, branch target, and the PTX line it was compiled from. The encodings were
// read off nvdisasm's listings of tests/sass/corpus and are checked against them (tests/sass).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::sass {

enum class MemSpace : uint8_t { None, Global, Shared, Local, Generic, Constant };
enum class MemOp : uint8_t { None, Load, Store, Atomic, Reduction };
// How an instruction changes the flow of its warp: Branch (BRA: to `target`, or falls through when its
// guard is false), Indirect (BRX/JMX), Call, Return, Exit, Sync (a barrier: BAR).
enum class Flow : uint8_t { None, Branch, Indirect, Call, Return, Exit, Sync };

struct OpcodeInfo {
    uint16_t code = 0;           // the low 12 bits of the first word
    std::string_view mnemonic;   // nvdisasm's name without modifiers ("LDS")
    bool uniform_guard = false;  // the guard is a uniform predicate (UP0..UP6)
    MemSpace space = MemSpace::None;
    MemOp mem = MemOp::None;
    Flow flow = Flow::None;
};

struct Instruction {
    uint32_t offset = 0;             // byte offset in its .text section
    uint64_t lo = 0, hi = 0;         // the two 64-bit words
    const OpcodeInfo* op = nullptr;  // nullptr: an opcode the table does not know
    uint8_t guard = 7;               // guard predicate: 0..6, 7 = PT (always)
    bool guard_negated = false;
    uint8_t width = 0;          // bytes per lane of a memory access (LDS.128: 16), 0 when not one
    bool width_signed = false;  // .S8 / .S16
    uint8_t data_reg = 255;     // LD*: destination, ST*: source register (255 = RZ)
    uint8_t addr_reg = 255;     // the address register (255 = RZ)
    int32_t addr_offset = 0;    // the signed byte offset added to the address register
    int64_t target = -1;        // BRA/BSSY/WARPSYNC/LEPC: the byte offset its label names, else -1
    uint32_t ptx_line = 0;      // the PTX line (ptxas -lineinfo), 0 when the cubin has no line table

    std::string_view mnemonic() const { return op ? op->mnemonic : std::string_view("?"); }
    bool always() const { return guard == 7 && !guard_negated; }
    bool memory() const { return op && op->mem != MemOp::None && op->space != MemSpace::Constant; }
};

struct Function {
    std::string name;  // the function's symbol name (the part after ".text.")
    int section = -1;  // its ELF section index
    std::vector<Instruction> code;
};

struct Program {
    std::vector<Function> functions;
    const Function* find(std::string_view name) const;
};

// The opcode table entry of a 12-bit code, nullptr when unknown.
const OpcodeInfo* opcode_info(uint16_t code);

// Decodes one instruction at `offset` (its line and `target` relative to the same section).
Instruction decode_instruction(uint64_t lo, uint64_t hi, uint32_t offset);

// Decodes every .text.<function> section of a cubin. nullopt with `error` set when the bytes are not an
// ELF file or its line table is malformed; instructions of unknown opcodes decode with op == nullptr.
std::optional<Program> decode_cubin(std::string_view cubin, std::string* error = nullptr);

// The instruction as a short text for reports: "LDS.128 R8, [R16+0x10]", "@!P0 BRA 0x5b0".
std::string describe(const Instruction& inst);

}  // namespace warpsim::sass
