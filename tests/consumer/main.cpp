// The consumer: the seed's vecAdd (n = 1000, 4 blocks of 256) through the installed warpsim package.
// Expected values by hand: c[i] = a[i] + b[i] = 3i; a warp reads 32 floats = 4 sectors from each input,
// 31 full warps and one with 8 lanes (1 sector) make 125 sectors per input, 250 for both. The library's log
// goes to a function of ours (it names the launch: 4 blocks of 256), and the same launch under the checkers
// has no finding (every thread reads and writes its own element, i < n).
#include <cstdio>
#include <span>
#include <string>
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
        std::vector<std::string> logged;
        warpsim::set_log(warpsim::LogLevel::info, [&logged](warpsim::LogLevel, std::string_view message) {
            logged.emplace_back(message);
        });
        warpsim::Result r = warpsim::run(module, launch);
        warpsim::set_log(warpsim::LogLevel::off);
        int launch_lines = 0;
        for (const auto& m : logged)
            launch_lines += m.starts_with("launch vecAdd (") &&
                            m.find("grid (4,1,1) x block (256,1,1)") != std::string::npos;
        if (launch_lines != 1) {
            std::fprintf(stderr, "the log named the launch %d times in %zu messages\n", launch_lines,
                         logged.size());
            return 1;
        }
        const warpsim::CheckReport checked = warpsim::check_launch(module, launch);
        if (!checked.clean()) {
            std::fprintf(stderr, "check found something in vecAdd:\n%s", checked.text.c_str());
            return 1;
        }
        // c written straight into our memory (Arg::write_back): 3i again, and no copy in Result::buffers.
        std::vector<float> c_here(n, -1.0f);
        launch.args[2].write_back = std::as_writable_bytes(std::span<float>(c_here));
        const warpsim::Result direct = warpsim::run(module, launch);
        int wrong_here = 0;
        for (int i = 0; i < n; ++i) wrong_here += c_here[i] != static_cast<float>(3 * i);
        if (!direct.ok() || wrong_here || !direct.buffers.at(2).empty()) {
            std::fprintf(stderr, "write_back: %d wrong, %zu bytes also in Result::buffers\n", wrong_here,
                         direct.buffers.at(2).size());
            return 1;
        }
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
