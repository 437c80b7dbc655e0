// python/core.cpp — warpsim._core, the Python module's C++ half over the public API (warpsim/warpsim.hpp):
// modules, launches on NumPy arrays (read in place before the kernel, written back in place after it), the
// run's metrics, predicted time and report. python/warpsim/__init__.py builds the Python-side syntax on it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "warpsim/warpsim.hpp"

namespace py = pybind11;

namespace {

// The element type of a NumPy dtype, or an Error naming `what`.
warpsim::Type type_of_dtype(const py::dtype& dt, const std::string& what) {
    const char kind = dt.kind();
    const auto size = static_cast<std::size_t>(dt.itemsize());
    if (kind == 'f' && size == 4) return warpsim::Type::f32;
    if (kind == 'f' && size == 8) return warpsim::Type::f64;
    if (kind == 'f' && size == 2) return warpsim::Type::f16;
    if (kind == 'i' || kind == 'u') {
        const bool s = kind == 'i';
        switch (size) {
            case 1:
                return s ? warpsim::Type::i8 : warpsim::Type::u8;
            case 2:
                return s ? warpsim::Type::i16 : warpsim::Type::u16;
            case 4:
                return s ? warpsim::Type::i32 : warpsim::Type::u32;
            case 8:
                return s ? warpsim::Type::i64 : warpsim::Type::u64;
            default:
                break;
        }
    }
    if (kind == 'b' && size == 1) return warpsim::Type::u8;
    throw warpsim::Error(what + ": NumPy dtype " + std::string(py::str(py::handle(dt))) +
                         " has no warpsim element type (use an integer or float dtype)");
}

// A Python int or float for a scalar parameter, typed from the parameter's PTX type.
warpsim::Arg scalar_for(const py::handle& value, const warpsim::Param& p, const std::string& what) {
    const bool is_bool = py::isinstance<py::bool_>(value);
    const bool is_int = py::isinstance<py::int_>(value) && !is_bool;
    const bool is_float = py::isinstance<py::float_>(value);
    if (!is_int && !is_float)
        throw warpsim::Error(what + ": a " + std::string(py::str(value.get_type().attr("__name__"))) +
                             " cannot be passed to the ." + p.ptx_type + " parameter " + p.name +
                             " (give a NumPy array for a pointer, a number or NumPy scalar otherwise)");
    if (p.is_float) {
        const double v = value.cast<double>();
        if (p.bytes == 4) return warpsim::Arg::scalar<float>(static_cast<float>(v), p.name);
        if (p.bytes == 8) return warpsim::Arg::scalar<double>(v, p.name);
        throw warpsim::Error(what + ": parameter " + p.name + " is ." + p.ptx_type +
                             ": give a NumPy scalar of that type (np.float16)");
    }
    if (is_float)
        throw warpsim::Error(what + ": parameter " + p.name + " is the integer ." + p.ptx_type +
                             ", but a Python float (" + std::string(py::str(value)) +
                             ") was given: give an int");
    const bool is_signed = !p.ptx_type.empty() && p.ptx_type[0] == 's';
    try {
        if (is_signed) {
            const auto v = value.cast<long long>();
            if (p.bytes == 8) return warpsim::Arg::scalar<int64_t>(v, p.name);
            if (p.bytes == 4 && v >= INT32_MIN && v <= INT32_MAX)
                return warpsim::Arg::scalar<int32_t>(static_cast<int32_t>(v), p.name);
            if (p.bytes == 2 && v >= INT16_MIN && v <= INT16_MAX)
                return warpsim::Arg::scalar<int16_t>(static_cast<int16_t>(v), p.name);
            if (p.bytes == 1 && v >= INT8_MIN && v <= INT8_MAX)
                return warpsim::Arg::scalar<int8_t>(static_cast<int8_t>(v), p.name);
        } else {
            const auto v = value.cast<long long>();
            const auto u = static_cast<unsigned long long>(v);
            if (v >= 0 || p.bytes == 8) {
                if (p.bytes == 8)
                    return warpsim::Arg::scalar<uint64_t>(value.cast<unsigned long long>(), p.name);
                if (p.bytes == 4 && u <= UINT32_MAX)
                    return warpsim::Arg::scalar<uint32_t>(uint32_t(u), p.name);
                if (p.bytes == 2 && u <= UINT16_MAX)
                    return warpsim::Arg::scalar<uint16_t>(uint16_t(u), p.name);
                if (p.bytes == 1 && u <= UINT8_MAX) return warpsim::Arg::scalar<uint8_t>(uint8_t(u), p.name);
            }
        }
    } catch (const py::cast_error&) {
    }
    throw warpsim::Error(what + ": " + std::string(py::str(value)) + " does not fit the ." + p.ptx_type +
                         " parameter " + p.name);
}

// A launch with its arguments converted from Python: arrays stay where they are (the run reads them in
// place), and a writable one is also where its buffer is written back (Arg::write_back). The caller keeps the
// arrays alive until the run returns.
warpsim::Launch describe_launch(const warpsim::Module& module, const std::string& kernel,
                                const std::vector<uint32_t>& grid, const std::vector<uint32_t>& block,
                                uint32_t shared_bytes, const py::sequence& args) {
    const std::vector<warpsim::Param> params = module.parameters(kernel);
    const std::string where = kernel;
    if (args.size() != params.size())
        throw warpsim::Error(where + ": " + std::to_string(args.size()) +
                             " arguments given, the kernel has " + std::to_string(params.size()) +
                             " parameters");
    auto dim = [&](const std::vector<uint32_t>& d, const char* what) {
        if (d.empty() || d.size() > 3)
            throw warpsim::Error(where + ": " + what + " is an int or a tuple of 1 to 3 ints");
        return warpsim::Dim3(d[0], d.size() > 1 ? d[1] : 1, d.size() > 2 ? d[2] : 1);
    };
    warpsim::Launch l{kernel, dim(grid, "grid"), dim(block, "block"), shared_bytes, {}};
    for (std::size_t i = 0; i < args.size(); ++i) {
        const py::object a = args[i];
        const warpsim::Param& p = params[i];
        const std::string what = where + ": argument " + std::to_string(i) + " (" + p.name + ")";
        if (py::isinstance<py::array>(a) && py::reinterpret_borrow<py::array>(a).ndim() > 0) {
            auto arr = py::reinterpret_borrow<py::array>(a);
            if (!(arr.flags() & py::array::c_style))
                throw warpsim::Error(what + ": the array is not contiguous (pass np.ascontiguousarray(x))");
            if (p.bytes != 8 || p.is_float)
                throw warpsim::Error(what + ": an array was given for the ." + p.ptx_type +
                                     " parameter, which is no pointer");
            warpsim::Arg arg;
            arg.kind = warpsim::Arg::Kind::buffer;
            arg.type = type_of_dtype(arr.dtype(), what);
            arg.count = static_cast<uint64_t>(arr.size());
            arg.data = {static_cast<const std::byte*>(arr.data()), static_cast<std::size_t>(arr.nbytes())};
            if (arr.writeable()) {
                // Written straight from the simulator's memory into the array after the kernel (one copy).
                arg.write_back = {static_cast<std::byte*>(arr.mutable_data()),
                                  static_cast<std::size_t>(arr.nbytes())};
            }
            l.args.push_back(std::move(arg));
        } else if (py::isinstance<py::array>(a) || py::hasattr(a, "dtype")) {
            // A NumPy scalar (np.int32(5)) or a 0-d array: its own type, which must have the parameter's
            // size.
            py::array arr = py::array::ensure(a);
            if (!arr) throw warpsim::Error(what + ": cannot read it as a NumPy scalar");
            const warpsim::Type t = type_of_dtype(arr.dtype(), what);
            if (static_cast<std::size_t>(arr.itemsize()) != p.bytes)
                throw warpsim::Error(what + ": a " + std::string(py::str(py::handle(arr.dtype()))) + " (" +
                                     std::to_string(arr.itemsize()) + " bytes) for the ." + p.ptx_type +
                                     " parameter of " + std::to_string(p.bytes) + " bytes");
            warpsim::Arg arg;
            arg.kind = warpsim::Arg::Kind::scalar;
            arg.type = t;
            arg.value.resize(p.bytes);
            std::memcpy(arg.value.data(), arr.data(), p.bytes);
            l.args.push_back(std::move(arg));
        } else {
            l.args.push_back(scalar_for(a, p, what));
            // No name: reports and findings then name the argument by the C++ signature where there is
            // one ("args[1] y[1024]"), else by its position, not by the PTX's _Z..._param_1.
            l.args.back().name.clear();
        }
    }
    return l;
}

// One launch: the run, and each array written back in place.
warpsim::Result launch(const warpsim::Module& module, const std::string& kernel,
                       const std::vector<uint32_t>& grid, const std::vector<uint32_t>& block,
                       uint32_t shared_bytes, const py::sequence& args, const std::string& device,
                       uint32_t workers, bool sample, bool reports, const std::string& l2) {
    // The arrays to update carry their memory as Arg::write_back: the run writes them after a kernel that did
    // not fault (not after a sampled one, which produces no buffers).
    warpsim::Launch l = describe_launch(module, kernel, grid, block, shared_bytes, args);
    if (l2 != "warm" && l2 != "cold") {
        const std::string choices =
            "l2 is \"warm\" (what the launch's previous run left) or \"cold\" (flushed)";
        throw warpsim::Error(kernel + ": " + choices + ", not \"" + l2 + "\"");
    }
    l.l2 = l2 == "cold" ? warpsim::L2::cold : warpsim::L2::warm;
    warpsim::RunOptions options;
    options.device = device;
    options.workers = workers;
    options.sample = sample;
    options.reports = reports;
    warpsim::Result r;
    {
        py::gil_scoped_release release;  // the simulation runs on its own threads; other Python threads go on
        r = warpsim::run(module, l, options);
    }
    return r;
}

// `warpsim check` on a launch: nothing is written back (the checkers' run is a diagnosis, not the user's
// run).
warpsim::CheckReport check(const warpsim::Module& module, const std::string& kernel,
                           const std::vector<uint32_t>& grid, const std::vector<uint32_t>& block,
                           uint32_t shared_bytes, const py::sequence& args,
                           const warpsim::CheckOptions& options) {
    const warpsim::Launch l = describe_launch(module, kernel, grid, block, shared_bytes, args);
    py::gil_scoped_release release;
    return warpsim::check_launch(module, l, options);
}

// The log's messages while the Python side collects them (warpsim.set_log with a sink): queued here by
// whichever thread logs, and handed to Python by take_log after each call into the module. The simulator's
// threads never call into Python, so a sink cannot deadlock them against the GIL. At most kMaxQueued are
// kept between two calls; the rest are counted.
struct LogQueue {
    std::mutex mutex;
    std::vector<std::pair<warpsim::LogLevel, std::string>> messages;
    uint64_t dropped = 0;
};
constexpr std::size_t kMaxQueued = 100000;

LogQueue& log_queue() {
    static LogQueue queue;  // the process's, like the log itself
    return queue;
}

const char* level_name(warpsim::LogLevel l) {
    switch (l) {
        case warpsim::LogLevel::debug:
            return "debug";
        case warpsim::LogLevel::info:
            return "info";
        case warpsim::LogLevel::warning:
            return "warning";
        case warpsim::LogLevel::error:
            return "error";
        default:
            return "off";
    }
}

void set_log(const std::string& level, bool collect) {
    using L = warpsim::LogLevel;
    L l = L::off;
    if (level == "debug")
        l = L::debug;
    else if (level == "info")
        l = L::info;
    else if (level == "warning")
        l = L::warning;
    else if (level == "error")
        l = L::error;
    else if (level != "off")
        throw warpsim::Error(
            "warpsim.set_log: the level is \"debug\", \"info\", \"warning\", \"error\" or "
            "\"off\", not \"" +
            level + "\"");
    if (!collect) {
        warpsim::set_log(l);
        return;
    }
    warpsim::set_log(l, [](warpsim::LogLevel at, std::string_view message) {
        LogQueue& q = log_queue();
        std::lock_guard<std::mutex> lock(q.mutex);
        if (q.messages.size() < kMaxQueued)
            q.messages.emplace_back(at, std::string(message));
        else
            ++q.dropped;
    });
}

// The queued messages as (level name, text), oldest first; a last one says how many were dropped.
std::vector<std::pair<std::string, std::string>> take_log() {
    LogQueue& q = log_queue();
    std::lock_guard<std::mutex> lock(q.mutex);
    std::vector<std::pair<std::string, std::string>> out;
    out.reserve(q.messages.size() + 1);
    for (auto& [level, text] : q.messages) out.emplace_back(level_name(level), std::move(text));
    if (q.dropped)
        out.emplace_back("warning", std::to_string(q.dropped) + " log messages dropped (more than " +
                                        std::to_string(kMaxQueued) + " in one call)");
    q.messages.clear();
    q.dropped = 0;
    return out;
}

std::string xyz(const std::array<uint32_t, 3>& v) {
    return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
}

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "warpsim: CUDA kernels on a simulated NVIDIA GPU (the C++ API of warpsim/warpsim.hpp)";
    m.attr("__version__") = std::string(warpsim::version());
    py::register_exception<warpsim::Error>(m, "Error", PyExc_ValueError);

    py::class_<warpsim::Param>(m, "Param")
        .def_readonly("name", &warpsim::Param::name)
        .def_readonly("ptx_type", &warpsim::Param::ptx_type)
        .def_readonly("bytes", &warpsim::Param::bytes)
        .def_readonly("is_float", &warpsim::Param::is_float)
        .def("__repr__",
             [](const warpsim::Param& p) { return "<Param ." + p.ptx_type + " " + p.name + ">"; });

    py::class_<warpsim::Module>(m, "Module")
        .def_static("from_ptx", &warpsim::Module::from_ptx, py::arg("ptx"), py::arg("name") = "module.ptx")
        .def_static(
            "from_cuda",
            [](std::string source, const std::string& name, const std::string& arch,
               const std::string& compiler) {
                using C = warpsim::Module::Compiler;
                C c = C::automatic;
                if (compiler == "nvrtc")
                    c = C::nvrtc;
                else if (compiler == "nvcc")
                    c = C::nvcc;
                else if (compiler != "auto")
                    throw warpsim::Error("compiler must be \"auto\", \"nvrtc\" or \"nvcc\", not \"" +
                                         compiler + "\"");
                py::gil_scoped_release release;
                return warpsim::Module::from_cuda(std::move(source), name, arch, c);
            },
            py::arg("source"), py::arg("name") = "kernel.cu", py::arg("arch") = "sm_90",
            py::arg("compiler") = "auto")
        .def_property_readonly("compiler", &warpsim::Module::compiler)
        .def_static("load", &warpsim::Module::load, py::arg("path"))
        .def_property_readonly("name", &warpsim::Module::name)
        .def_property_readonly("ptx", &warpsim::Module::ptx)
        .def_property_readonly("kernels", &warpsim::Module::kernels)
        .def("parameters", &warpsim::Module::parameters, py::arg("kernel"));

    py::class_<warpsim::Predicted>(m, "Predicted")
        .def_readonly("cycles", &warpsim::Predicted::cycles)
        .def_readonly("time_us", &warpsim::Predicted::time_us)
        .def_readonly("dram_gbps", &warpsim::Predicted::dram_gbps)
        .def_readonly("gflops", &warpsim::Predicted::gflops)
        .def_readonly("bound", &warpsim::Predicted::bound)
        .def_readonly("l2", &warpsim::Predicted::l2)
        .def_readonly("clock_mhz", &warpsim::Predicted::clock_mhz)
        .def_readonly("clock", &warpsim::Predicted::clock)
        .def_readonly("parameters", &warpsim::Predicted::parameters)
        .def_readonly("parameters_origin", &warpsim::Predicted::parameters_origin)
        .def_readonly("expected_error", &warpsim::Predicted::expected_error)
        .def("__repr__", [](const warpsim::Predicted& p) {
            return "<Predicted " + std::to_string(p.time_us) + " us, " + p.bound + "-bound>";
        });

    py::class_<warpsim::Result>(m, "Result")
        .def_readonly("backend", &warpsim::Result::backend)
        .def_readonly("device", &warpsim::Result::device)
        .def_readonly("error", &warpsim::Result::error)
        .def_readonly("error_message", &warpsim::Result::error_message)
        .def_readonly("metrics", &warpsim::Result::metrics)
        .def_readonly("predicted", &warpsim::Result::predicted)
        .def_readonly("printf_output", &warpsim::Result::printf_output)
        .def_readonly("json", &warpsim::Result::json)
        .def_readonly("warnings", &warpsim::Result::warnings)
        .def_property_readonly("ok", &warpsim::Result::ok)
        .def_property_readonly("has_reports", [](const warpsim::Result& r) { return r.reports != nullptr; })
        .def("text_report", &warpsim::Result::text_report)
        .def("html_report", &warpsim::Result::html_report);

    m.def("launch", &launch, py::arg("module"), py::arg("kernel"), py::arg("grid"), py::arg("block"),
          py::arg("shared_bytes"), py::arg("args"), py::arg("device"), py::arg("workers"),
          py::arg("sample") = false, py::arg("reports") = false, py::arg("l2") = "warm",
          "Runs one launch; arrays are read before and written back after it, in place.");

    py::class_<warpsim::CheckOptions>(m, "CheckOptions")
        .def(py::init<>())
        .def_readwrite("tools", &warpsim::CheckOptions::tools)
        .def_readwrite("device", &warpsim::CheckOptions::device)
        .def_readwrite("race_global", &warpsim::CheckOptions::race_global)
        .def_readwrite("schedules", &warpsim::CheckOptions::schedules);

    py::class_<warpsim::FindingParty>(m, "FindingParty")
        .def_readonly("what", &warpsim::FindingParty::what)
        .def_readonly("location", &warpsim::FindingParty::location)
        .def_readonly("where", &warpsim::FindingParty::where)
        .def_readonly("line", &warpsim::FindingParty::line)
        .def_readonly("ptx_line", &warpsim::FindingParty::ptx_line)
        .def_readonly("function", &warpsim::FindingParty::function)
        .def_property_readonly("thread",
                               [](const warpsim::FindingParty& p) {
                                   return py::make_tuple(p.thread[0], p.thread[1], p.thread[2]);
                               })
        .def_property_readonly(
            "block",
            [](const warpsim::FindingParty& p) { return py::make_tuple(p.block[0], p.block[1], p.block[2]); })
        .def("__repr__", [](const warpsim::FindingParty& p) {
            return "<FindingParty " + p.what + " at " + p.location + " by thread " + xyz(p.thread) +
                   " of block " + xyz(p.block) + ">";
        });

    py::class_<warpsim::Finding>(m, "Finding")
        .def_readonly("tool", &warpsim::Finding::tool)
        .def_readonly("kind", &warpsim::Finding::kind)
        .def_readonly("title", &warpsim::Finding::title)
        .def_readonly("parties", &warpsim::Finding::parties)
        .def_readonly("address", &warpsim::Finding::address)
        .def_readonly("space", &warpsim::Finding::space)
        .def_readonly("variable", &warpsim::Finding::variable)
        .def_readonly("notes", &warpsim::Finding::notes)
        .def_readonly("fix", &warpsim::Finding::fix)
        .def_readonly("count", &warpsim::Finding::count);

    py::class_<warpsim::CheckReport>(m, "CheckReport")
        .def_readonly("kernel", &warpsim::CheckReport::kernel)
        .def_readonly("findings", &warpsim::CheckReport::findings)
        .def_readonly("notes", &warpsim::CheckReport::notes)
        .def_readonly("incomplete", &warpsim::CheckReport::incomplete)
        .def_readonly("text", &warpsim::CheckReport::text)
        .def_readonly("json", &warpsim::CheckReport::json);

    m.def(
        "set_log", &set_log, py::arg("level"), py::arg("collect"),
        "The log's level; collect=True queues the messages for take_log instead of writing them to stderr.");
    m.def("take_log", &take_log, "The messages queued since the last call, as (level, text), oldest first.");

    m.def("check", &check, py::arg("module"), py::arg("kernel"), py::arg("grid"), py::arg("block"),
          py::arg("shared_bytes"), py::arg("args"), py::arg("options"),
          "Runs one launch with the checkers; the arrays are read, not written.");
}
