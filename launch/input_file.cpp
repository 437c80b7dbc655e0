// launch/input_file.cpp — regular files only, opened without blocking, read up to a limit.
#include "launch/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace warpsim::launch {
namespace {

std::string kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// Opens without blocking (a FIFO with no writer would block open itself) and checks the kind and size.
// Returns the descriptor, or -1 with `error` set.
int open_regular(const std::string& path, uint64_t max_bytes, const std::string& context, uint64_t& size,
                 std::string& error) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        error = path + ": cannot open the " + context + ": " + std::strerror(errno);
        return -1;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        error =
            path + ": the " + context + " is " + kind_of(st.st_mode) + ", not a regular file: give a file";
        ::close(fd);
        return -1;
    }
    size = static_cast<uint64_t>(st.st_size);
    if (size > max_bytes) {
        error = path + ": the " + context + " has " + std::to_string(size) + " bytes, more than the " +
                std::to_string(max_bytes) + " it may have";
        ::close(fd);
        return -1;
    }
    return fd;
}

// Reads up to out_size bytes; returns how many were read or -1 (errno set).
int64_t read_up_to(int fd, char* out, uint64_t out_size) {
    uint64_t done = 0;
    while (done < out_size) {
        ssize_t n = ::read(fd, out + done, out_size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) break;
        done += static_cast<uint64_t>(n);
    }
    return static_cast<int64_t>(done);
}

}  // namespace

bool is_regular_input(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

Outcome<std::string> read_input_file(const std::string& path, uint64_t max_bytes,
                                     const std::string& context) {
    uint64_t size = 0;
    std::string error;
    int fd = open_regular(path, max_bytes, context, size, error);
    if (fd < 0) return Outcome<std::string>::failure(error);
    // One byte more than the size: a file that grew past the limit while being read is still caught.
    std::string text(size + 1 <= max_bytes ? size + 1 : max_bytes + 1, '\0');
    int64_t n = read_up_to(fd, text.data(), text.size());
    int saved = errno;
    ::close(fd);
    if (n < 0)
        return Outcome<std::string>::failure(path + ": reading the " + context +
                                             " failed: " + std::strerror(saved));
    if (static_cast<uint64_t>(n) > max_bytes) {
        return Outcome<std::string>::failure(path + ": the " + context + " grew past the " +
                                             std::to_string(max_bytes) +
                                             " bytes it may have while it was read");
    }
    text.resize(static_cast<std::size_t>(n));
    return text;
}

std::string read_input_file_into(const std::string& path, std::span<uint8_t> out,
                                 const std::string& context) {
    uint64_t size = 0;
    std::string error;
    int fd = open_regular(path, UINT64_MAX, context, size, error);
    if (fd < 0) return error;
    if (size != out.size()) {
        ::close(fd);
        return path + ": the " + context + " has " + std::to_string(size) + " bytes, the buffer " +
               std::to_string(out.size());
    }
    int64_t n = read_up_to(fd, reinterpret_cast<char*>(out.data()), out.size());
    int saved = errno;
    ::close(fd);
    if (n < 0) return path + ": reading the " + context + " failed: " + std::strerror(saved);
    if (static_cast<uint64_t>(n) != out.size())
        return path + ": the " + context + " shrank while it was read";
    return {};
}

}  // namespace warpsim::launch
