// sim/engine/printf.hpp — device printf (the vprintf call nvcc emits) and guest string reading.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "sim/engine/exec_state.hpp"

namespace warpsim::engine {

// Reads bytes at a generic address as lane `lane` sees it; false when any byte is outside memory.
bool read_guest(Exec& x, uint32_t lane, uint64_t generic_addr, void* out, std::size_t n);
// A NUL-terminated string at a generic address (lane 0's view for local/shared), at most 4096 bytes.
std::string read_guest_string(Exec& x, uint64_t generic_addr, uint32_t lane = 0);

// vprintf(format, packed args): formats per active lane in lane order into the block's printf records.
void exec_vprintf(Exec& x, const DInst& in, uint32_t exec);

// Formats a C format string with arguments packed as the CUDA compiler packs them (each naturally aligned;
// floats promoted to double). Exposed for tests.
std::string format_device_printf(const std::string& format, const uint8_t* args, std::size_t args_size);

// A width or precision above this is not formatted: the conversion is printed as written (no printf of a
// GPU could hold 10^9 padding characters, and glibc would allocate gigabytes for %.999999999f).
inline constexpr uint64_t kMaxPrintfField = 4096;

// The printf FIFO of a launch (cudaLimitPrintfFifoSize): records in output order; once more than `capacity`
// bytes are held, the oldest records are overwritten, as the CUDA Programming Guide describes the buffer
// ("circular ... older output is overwritten"). Records are counted by their formatted text.
class PrintfFifo {
  public:
    explicit PrintfFifo(uint64_t capacity = uint64_t{1} << 20) : capacity_(capacity) {}
    void push(std::string text);
    void append(PrintfFifo&& later);  // `later`'s records follow this one's
    void note_dropped(uint64_t records, uint64_t bytes) {
        dropped_records_ += records;
        dropped_bytes_ += bytes;
    }
    std::string text() const;
    uint64_t dropped_records() const { return dropped_records_; }
    uint64_t dropped_bytes() const { return dropped_bytes_; }

  private:
    void trim();
    uint64_t capacity_;
    uint64_t bytes_ = 0;
    uint64_t dropped_records_ = 0, dropped_bytes_ = 0;
    std::deque<std::string> records_;
};

// Sorts the block's records into output order (warp by warp) and drops the oldest beyond `capacity` bytes,
// counting them in block.printf_dropped_*: keeps a block's printf memory bounded while it runs.
void trim_block_printf(BlockContext& block, uint64_t capacity);

}  // namespace warpsim::engine
