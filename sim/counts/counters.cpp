// sim/counts/counters.cpp — KernelCounters: accumulation, merging and the metric table.
#include "sim/counts/counters.hpp"

#include <bit>

namespace warpsim::counts {

void KernelCounters::on_instruction(uint32_t function, uint32_t pc, uint32_t issued_mask, uint32_t exec_mask) {
    (void)issued_mask;
    ++warp_insts_;
    thread_insts_ += static_cast<uint64_t>(std::popcount(exec_mask));
    auto& line = per_pc_[{function, pc}];
    ++line.warp_insts;
    line.thread_insts += static_cast<uint64_t>(std::popcount(exec_mask));
}

void KernelCounters::on_access(const WarpAccess& access) { (void)access; }
void KernelCounters::on_block_begin(uint64_t, uint32_t) {}
void KernelCounters::on_block_end(uint64_t, uint32_t) {}

void KernelCounters::merge(const KernelCounters& other) {
    warp_insts_ += other.warp_insts_;
    thread_insts_ += other.thread_insts_;
    for (const auto& [key, s] : other.per_pc_) {
        auto& line = per_pc_[key];
        line.warp_insts += s.warp_insts;
        line.thread_insts += s.thread_insts;
        line.requests += s.requests;
        line.sectors += s.sectors;
        line.ideal_sectors += s.ideal_sectors;
        line.wavefronts += s.wavefronts;
        line.ideal_wavefronts += s.ideal_wavefronts;
    }
}

std::map<std::string, double> KernelCounters::metrics() const {
    return {{"smsp__inst_executed.sum", static_cast<double>(warp_insts_)},
            {"smsp__thread_inst_executed.sum", static_cast<double>(thread_insts_)}};
}

}  // namespace warpsim::counts
