// launch/input_file.hpp — reading a user's input file (spec, source, device preset, `file:` data): regular
// files only, and no more than a limit, so that a FIFO, a device such as /dev/zero or a folder is refused
// with a message instead of blocking or filling memory.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "launch/outcome.hpp"

namespace warpsim::launch {

inline constexpr uint64_t kMaxSourceBytes = uint64_t{1}
                                            << 30;  // a .ptx (the largest nvcc output seen: ~100 MB)
inline constexpr uint64_t kMaxSpecBytes = uint64_t{64} << 20;  // a launch spec or a device preset

// The whole file. `what` names the input ("launch spec"); errors read "PATH: cannot open the launch spec:
// REASON", "PATH: the launch spec is a FIFO (named pipe), not a regular file: give a file", or that it has
// more than `max_bytes`.
Outcome<std::string> read_input_file(const std::string& path, uint64_t max_bytes, const std::string& what);

// Exactly out.size() bytes of a regular file of that size; "" on success, else the message.
std::string read_input_file_into(const std::string& path, std::span<uint8_t> out, const std::string& what);

// Whether the path names a regular file (following symbolic links).
bool is_regular_input(const std::string& path);

}  // namespace warpsim::launch
