// launch/process.hpp — the one way warpsim starts another program, without a shell: run_process for a tool
// whose output warpsim reads and whose exit it waits for (nvcc, ptxas, ncu), replace_process for the commands
// that hand this process over to another program for good (`warpsim exec`, `warpsim nvcc`).
#pragma once

#include <string>
#include <vector>

namespace warpsim::launch {

// Runs argv[0] (a path) with argv, without a shell; returns the exit status (-1: could not start) and
// everything it wrote to stdout and stderr. A fatal signal to this process kills the child and its process
// group (launch/cleanup.hpp); with `tmpdir`, the child's TMPDIR is that folder.
struct ProcessResult {
    int status = -1;
    std::string output;
};
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& tmpdir = "");

// Replaces this process with the program at `path` (no search: find it with launch/tools.hpp first), run with
// `argv` (null-terminated; argv[0] is the name the program sees) and this process's environment. Replacing,
// not spawning, is what these commands need: the program keeps warpsim's process id, terminal, signals and
// standard streams, and its exit status is the command's own, with nothing left to do after it. Returns only
// when the exec failed: the shell's exit code for that (127: no such file, 126: any other reason) and, in
// `error`, the path and why.
int replace_process(const std::string& path, char* const* argv, std::string& error);

}  // namespace warpsim::launch
