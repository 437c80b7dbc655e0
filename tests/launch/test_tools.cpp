// tests/launch/test_tools.cpp — the one search order for the toolkit's programs (launch::find_cuda_program),
// the PATH search under it (find_in_path_list) and the exec helper's failures (launch::replace_process).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "launch/process.hpp"
#include "launch/tools.hpp"

namespace fs = std::filesystem;
using warpsim::launch::cuda_roots;
using warpsim::launch::find_cuda_program;
using warpsim::launch::find_in_path_list;

namespace {

// Sets an environment variable for the scope and puts the old value back.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value) {
            ::setenv(name, value->c_str(), 1);
        } else {
            ::unsetenv(name);
        }
    }
    ~ScopedEnv() {
        if (old_) {
            ::setenv(name_, old_->c_str(), 1);
        } else {
            ::unsetenv(name_);
        }
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    const char* name_;
    std::optional<std::string> old_;
};

fs::path make_program(const fs::path& dir, const std::string& name, bool executable) {
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p) << "#!/bin/sh\n";
    ::chmod(p.c_str(), executable ? 0755 : 0644);
    return p;
}

}  // namespace

TEST_CASE("toolkit programs: PATH first, then $CUDA_HOME, $CUDA_PATH, then the extra folders",
          "[launch][tools]") {
    const fs::path root = fs::temp_directory_path() / ("warpsim_tools_" + std::to_string(::getpid()));
    fs::remove_all(root);
    const std::string prog = "warpsim_fake_tool";
    const fs::path in_path = make_program(root / "p2", prog, true);
    make_program(root / "p1", prog, false);      // not executable: skipped
    fs::create_directories(root / "p0" / prog);  // a folder of that name: skipped
    const fs::path in_home = make_program(root / "home" / "bin", prog, true);
    const fs::path in_cuda_path = make_program(root / "cpath" / "bin", prog, true);
    const fs::path in_extra = make_program(root / "extra", prog, true);
    const std::string dirs =
        (root / "p0").string() + "::" + (root / "p1").string() + ":" + (root / "p2").string();

    {
        ScopedEnv path("PATH", dirs);
        ScopedEnv home("CUDA_HOME", (root / "home").string());
        ScopedEnv cpath("CUDA_PATH", (root / "cpath").string());
        CHECK(find_cuda_program(prog, {root / "extra"}) == in_path.string());
    }
    {
        ScopedEnv path("PATH", (root / "p1").string());
        ScopedEnv home("CUDA_HOME", (root / "home").string());
        ScopedEnv cpath("CUDA_PATH", (root / "cpath").string());
        CHECK(find_cuda_program(prog) == in_home.string());
        const auto roots = cuda_roots();
        REQUIRE(roots.size() == 3);
        CHECK(roots[0] == root / "home");
        CHECK(roots[1] == root / "cpath");
        CHECK(roots[2] == fs::path("/usr/local/cuda"));
    }
    {
        ScopedEnv path("PATH", std::nullopt);
        ScopedEnv home("CUDA_HOME", "");  // set but empty: not a folder to search
        ScopedEnv cpath("CUDA_PATH", (root / "cpath").string());
        CHECK(find_cuda_program(prog) == in_cuda_path.string());
        CHECK(cuda_roots().size() == 2);
    }
    {
        ScopedEnv path("PATH", (root / "p1").string());
        ScopedEnv home("CUDA_HOME", std::nullopt);
        ScopedEnv cpath("CUDA_PATH", std::nullopt);
        CHECK(find_cuda_program(prog, {root / "nowhere", root / "extra"}) == in_extra.string());
        CHECK(find_cuda_program(prog).empty());
        CHECK(find_cuda_program("").empty());
    }
    fs::remove_all(root);
}

TEST_CASE("PATH search: first executable file in list order, empty entries skipped, paths not searched",
          "[launch][tools]") {
    const fs::path root = fs::temp_directory_path() / ("warpsim_path_" + std::to_string(::getpid()));
    fs::remove_all(root);
    const std::string prog = "warpsim_fake_program";
    const fs::path first = make_program(root / "a", prog, true);
    const fs::path second = make_program(root / "b", prog, true);
    make_program(root / "n", prog, false);      // not executable: skipped
    fs::create_directories(root / "d" / prog);  // a folder of that name: skipped
    const std::string a = (root / "a").string(), b = (root / "b").string(), n = (root / "n").string(),
                      d = (root / "d").string();
    CHECK(find_in_path_list(prog, a + ":" + b) == first.string());
    CHECK(find_in_path_list(prog, b + ":" + a) == second.string());
    CHECK(find_in_path_list(prog, ":" + n + "::" + d + ":" + b + ":") == second.string());
    CHECK(find_in_path_list(prog, n + ":" + d).empty());
    CHECK(find_in_path_list(prog, "").empty());
    CHECK(find_in_path_list("", a).empty());
    // A name with a slash is a path: itself when executable, never looked up in the folders.
    CHECK(find_in_path_list(first.string(), b) == first.string());
    CHECK(find_in_path_list((root / "n" / prog).string(), a).empty());
    CHECK(find_in_path_list("a/" + prog, root.string()).empty());
    {
        // find_cuda_program never searches for a path either
        ScopedEnv path("PATH", root.string());
        CHECK(find_cuda_program("a/" + prog).empty());
    }
    fs::remove_all(root);
}

TEST_CASE("replace_process returns the shell's exit codes when the exec fails", "[launch][process]") {
    const fs::path root = fs::temp_directory_path() / ("warpsim_exec_" + std::to_string(::getpid()));
    fs::remove_all(root);
    const fs::path plain = make_program(root, "not_executable", false);
    std::string arg0 = "x";
    char* argv[] = {arg0.data(), nullptr};
    std::string error;
    CHECK(warpsim::launch::replace_process((root / "missing").string(), argv, error) == 127);
    CHECK(error == (root / "missing").string() + ": No such file or directory");
    CHECK(warpsim::launch::replace_process(plain.string(), argv, error) == 126);
    CHECK(error == plain.string() + ": Permission denied");
    CHECK(warpsim::launch::replace_process(root.string(), argv, error) == 126);  // a folder
    fs::remove_all(root);
}
