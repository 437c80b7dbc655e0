// The consumer: the seed's vecAdd (n = 1000, 4 blocks of 256) through the installed warpsim package.
// Expected values by hand: c[i] = a[i] + b[i] = 3i; a warp reads 32 floats = 4 sectors from each input,
// 31 full warps and one with 8 lanes (1 sector) make 125 sectors per input, 250 for both.
#include <cstdio>
#include <vector>

#include <warpsim/warpsim.hpp>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: consumer VECTOR_ADD.ptx\n");
        return 2;
    }
    int unused_on_purpose = 0;  // a warning, not an error, unless the package forced -Werror on us
    const int n = 1000;
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i);
        b[i] = static_cast<float>(2 * i);
    }
    try {
        warpsim::Module module = warpsim::Module::load(argv[1]);
        warpsim::Launch launch{
            "vecAdd",
            4,
            256,
            0,
            {warpsim::Arg::buffer(a), warpsim::Arg::buffer(b), warpsim::Arg::zeros(warpsim::Type::f32, n),
             warpsim::Arg::scalar<int32_t>(n)}};
        warpsim::Result r = warpsim::run(module, launch);
        if (!r.ok()) {
            std::fprintf(stderr, "launch failed: %s %s\n", r.error.c_str(), r.error_message.c_str());
            return 1;
        }
        std::vector<float> c = r.buffer<float>(2);
        int wrong = 0;
        for (int i = 0; i < n; ++i) wrong += c[i] != static_cast<float>(3 * i);
        const double sectors = r.metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
        std::printf("warpsim %s: c[999] = %g, %d wrong, %g load sectors, predicted %.3f us\n",
                    std::string(warpsim::version()).c_str(), c[999], wrong, sectors,
                    r.predicted ? r.predicted->time_us : -1.0);
        if (wrong || sectors != 250 || !r.predicted || !(r.predicted->time_us > 0)) return 1;
    } catch (const warpsim::Error& e) {
        std::fprintf(stderr, "warpsim: %s\n", e.what());
        return 1;
    }
    return 0;
}
