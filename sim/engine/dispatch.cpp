// sim/engine/dispatch.cpp — the dispatch table: which selector decodes each ir::Opcode, one entry per row of
// kernels_ir/opcodes.def. An opcode is either given its family's selector or listed as parsed but not
// executed (a launch that reaches it stops with its name and PTX line): a new row without an entry here does
// not compile (-Wswitch, warnings are errors).
#include "sim/engine/dispatch.hpp"

#include "sim/engine/cluster.hpp"

namespace warpsim::engine {

namespace {

constexpr Selector selector_of(ir::Opcode op) {
    using O = ir::Opcode;
    switch (op) {
        case O::add:
        case O::sub:
        case O::mul:
        case O::mad:
        case O::mul24:
        case O::mad24:
        case O::sad:
        case O::div:
        case O::rem:
        case O::abs:
        case O::neg:
        case O::min:
        case O::max:
        case O::addc:
        case O::subc:
        case O::madc:
        case O::popc:
        case O::clz:
        case O::bfind:
        case O::fns:
        case O::brev:
        case O::bfe:
        case O::bfi:
        case O::bmsk:
        case O::szext:
        case O::dp4a:
        case O::dp2a:
            return &select_int;
        case O::fma:
        case O::copysign:
        case O::testp:
        case O::rcp:
        case O::sqrt:
        case O::rsqrt:
        case O::sin:
        case O::cos:
        case O::lg2:
        case O::ex2:
        case O::tanh:
            return &select_float;
        case O::setp:
        case O::set:
        case O::selp:
        case O::slct:
            return &select_compare;
        case O::and_:
        case O::or_:
        case O::xor_:
        case O::not_:
        case O::cnot:
        case O::lop3:
        case O::shf:
        case O::shl:
        case O::shr:
        case O::prmt:
            return &select_logic;
        case O::mov:
        case O::cvta:
        case O::isspacep:
            return &select_move;
        case O::cvt:
            return &select_cvt;
        case O::ld:
        case O::ldu:
        case O::st:
        case O::prefetch:
        case O::prefetchu:
        case O::membar:
        case O::fence:
        case O::discard:
        case O::applypriority:
        case O::nanosleep:
        case O::pmevent:
            return &select_memory;
        case O::atom:
        case O::red:
            return &select_atomic;
        case O::bra:
        case O::brx:
        case O::call:
        case O::ret:
        case O::exit:
        case O::trap:
        case O::brkpt:
            return &select_control;
        case O::bar:
        case O::barrier:
            return &select_barrier;
        case O::shfl:
        case O::vote:
        case O::match:
        case O::activemask:
        case O::redux:
        case O::elect:
            return &select_warp;
        case O::vadd2:
        case O::vadd4:
        case O::vsub2:
        case O::vsub4:
        case O::vavrg2:
        case O::vavrg4:
        case O::vabsdiff2:
        case O::vabsdiff4:
        case O::vmin2:
        case O::vmin4:
        case O::vmax2:
        case O::vmax4:
        case O::vset2:
        case O::vset4:
            return &select_video;
        case O::mapa:
        case O::getctarank:
            return &select_cluster;
        case O::ldmatrix:
        case O::stmatrix:
        case O::mma:
        case O::movmatrix:
            return &select_tensor;
        case O::wmma:
            return &select_wmma;
        case O::alloca:
        case O::stacksave:
        case O::stackrestore:
            return &select_stack;
        case O::wgmma:
            return &select_wgmma;
        case O::cp:
        case O::cp_reduce:
        case O::mbarrier:
        case O::griddepcontrol:
        case O::setmaxnreg:
        case O::createpolicy:
            return &select_async;
        case O::tex:
        case O::tld4:
        case O::txq:
        case O::suld:
        case O::sust:
        case O::sured:
        case O::suq:
            return &select_texture;
        // Parsed, not executed: multimem, tensormap, the deprecated scalar video forms.
        case O::tensormap:
        case O::multimem:
        case O::istypep:
        case O::vabsdiff:
        case O::vadd:
        case O::vsub:
        case O::vmin:
        case O::vmax:
        case O::vset:
        case O::vshl:
        case O::vshr:
        case O::vmad:
            return nullptr;
    }
    return nullptr;
}

constexpr DispatchTable kTable = {
#define WARPSIM_OPCODE(id, spelling, cls, family, sig, section) selector_of(ir::Opcode::id),
#include "kernels_ir/opcodes.def"
#undef WARPSIM_OPCODE
};

}  // namespace

const DispatchTable& dispatch_table() {
    return kTable;
}

}  // namespace warpsim::engine
