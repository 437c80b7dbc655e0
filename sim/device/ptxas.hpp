// Registers per thread for a kernel: asked of ptxas when the CUDA toolkit is installed, else estimated.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::device {

// What `ptxas -v` reports for one entry function.
struct PtxasUsage {
    std::string function;  // the entry name as ptxas prints it (mangled)
    int registers = 0;
    int barriers = 0;
    long long shared_bytes = 0;  // static .shared ("bytes smem")
    long long spill_stores = 0;
    long long spill_loads = 0;
    long long stack_frame_bytes = 0;  // per thread, in local memory (spills and local arrays)
};

// The ptxas executable (launch::find_cuda_program: PATH, $CUDA_HOME/bin, $CUDA_PATH/bin,
// /usr/local/cuda/bin). nullopt if none.
std::optional<std::string> find_ptxas();

// Runs `ptxas -v -arch=ARCH` on the PTX (through a unique temporary file, no shell) and returns the report
// for `kernel_name` (the mangled name, or the plain name of a C++ kernel such as "transpose" for
// "_Z9transposePfS_"). nullopt when there is no ptxas, ptxas fails or the kernel is not in the output;
// `log`, when given, receives ptxas's output or the reason. PTX whose `.target` is ARCH's
// architecture-specific variant (`sm_90a` for sm_90: wgmma, setmaxnreg) is compiled for that variant, which
// only it accepts. With `cubin_bytes`, ptxas also gets -lineinfo and the cubin it wrote is returned there
// (sim/sass decodes it).
std::optional<PtxasUsage> ptxas_usage(std::string_view ptx_text, std::string_view arch,
                                      std::string_view kernel_name, std::string* log = nullptr,
                                      std::string* cubin_bytes = nullptr);

// The same for every entry ptxas compiled, from one ptxas run.
std::optional<std::vector<PtxasUsage>> ptxas_usage_all(std::string_view ptx_text, std::string_view arch,
                                                       std::string* log = nullptr,
                                                       std::string* cubin_bytes = nullptr);

// The -arch ptxas needs for the PTX: ARCH, or ARCH + "a" when its .target names that architecture-specific
// variant (sm_90a: wgmma, setmaxnreg).
std::string ptxas_target_arch(std::string_view ptx_text, std::string_view arch);

// The registers-per-thread part of ptxas_usage.
std::optional<int> registers_from_ptxas(std::string_view ptx_text, std::string_view arch,
                                        std::string_view kernel_name, std::string* log = nullptr);

// Parses `ptxas -v` output (exposed for tests): one entry per compiled entry function.
std::vector<PtxasUsage> parse_ptxas_verbose(std::string_view output);

// A register estimate without ptxas, and how it was made.
struct RegisterEstimate {
    int registers = 0;
    std::string method;
};

// Estimates registers per thread from the PTX text of one entry: the .maxnreg directive if present,
// else the 32-bit-register equivalent of the kernel's virtual-register declarations (.b64/.f64/.u64/.s64
// count 2, .pred 0, 16-bit and narrower 1) plus 2 for the ABI, rounded up to a multiple of 8 and clamped
// to 16..255. PTX virtual registers are not physical ones: ptxas usually needs far fewer on large kernels,
// so this is an upper-bound-style guess. nullopt if the entry is not in the text.
std::optional<RegisterEstimate> estimate_registers(std::string_view ptx_text, std::string_view kernel_name);

}  // namespace warpsim::device
