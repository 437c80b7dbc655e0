// sim/engine/dispatch.cpp — the dispatch table: which selector decodes each ir::Opcode. Opcodes left out
// are reported by name and PTX line when a launch reaches them.
#include "sim/engine/dispatch.hpp"

#include "sim/engine/cluster.hpp"

namespace warpsim::engine {

namespace {

DispatchTable build_table() {
    DispatchTable t{};
    using O = ir::Opcode;
    auto set = [&](std::initializer_list<O> ops, Selector s) {
        for (O op : ops) t[static_cast<std::size_t>(op)] = s;
    };
    set({O::add, O::sub, O::mul, O::mad, O::mul24, O::mad24, O::sad, O::div, O::rem, O::abs, O::neg, O::min,
         O::max, O::addc, O::subc, O::madc, O::popc, O::clz, O::bfind, O::fns, O::brev, O::bfe, O::bfi, O::bmsk, O::szext,
         O::dp4a, O::dp2a},
        &select_int);
    set({O::fma, O::copysign, O::testp, O::rcp, O::sqrt, O::rsqrt, O::sin, O::cos, O::lg2, O::ex2, O::tanh},
        &select_float);
    set({O::setp, O::set, O::selp, O::slct}, &select_compare);
    set({O::and_, O::or_, O::xor_, O::not_, O::cnot, O::lop3, O::shf, O::shl, O::shr, O::prmt}, &select_logic);
    set({O::mov, O::cvta, O::isspacep}, &select_move);
    set({O::cvt}, &select_cvt);
    set({O::ld, O::ldu, O::st, O::prefetch, O::prefetchu, O::membar, O::fence, O::discard, O::applypriority,
         O::nanosleep, O::pmevent},
        &select_memory);
    set({O::atom, O::red}, &select_atomic);
    set({O::bra, O::brx, O::call, O::ret, O::exit, O::trap, O::brkpt}, &select_control);
    set({O::bar, O::barrier}, &select_barrier);
    set({O::shfl, O::vote, O::match, O::activemask, O::redux, O::elect}, &select_warp);
    set({O::vadd2, O::vadd4, O::vsub2, O::vsub4, O::vavrg2, O::vavrg4, O::vabsdiff2, O::vabsdiff4, O::vmin2, O::vmin4,
         O::vmax2, O::vmax4, O::vset2, O::vset4},
        &select_video);
    set({O::mapa, O::getctarank}, &select_cluster);
    set({O::ldmatrix, O::stmatrix, O::mma, O::movmatrix}, &select_tensor);
    set({O::wmma}, &select_wmma);
    set({O::alloca, O::stacksave, O::stackrestore}, &select_stack);
    set({O::wgmma}, &select_wgmma);
    set({O::cp, O::mbarrier, O::griddepcontrol, O::setmaxnreg, O::createpolicy}, &select_async);
    return t;
}

}  // namespace

const DispatchTable& dispatch_table() {
    static const DispatchTable table = build_table();  // immutable after construction
    return table;
}

}  // namespace warpsim::engine
