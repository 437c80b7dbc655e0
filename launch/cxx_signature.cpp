// launch/cxx_signature.cpp — C++ parameter types and names of a kernel, and the argument checks on them.
#include "launch/cxx_signature.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "kernels_ir/names.hpp"

namespace warpsim::launch {
namespace {

std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return std::string(s.substr(b, e - b));
}

// Splits at commas outside (), <>, [] and {}.
std::vector<std::string> split_top_level(std::string_view s) {
    std::vector<std::string> out;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' || c == '<' || c == '[' || c == '{')
            ++depth;
        else if (c == ')' || c == '>' || c == ']' || c == '}')
            --depth;
        else if (c == ',' && depth == 0) {
            out.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    std::string last = trim(s.substr(start));
    if (!last.empty() || !out.empty()) out.push_back(last);
    return out;
}

// Comments and string literals blanked out, keeping offsets.
std::string strip_comments(std::string_view text) {
    std::string s(text);
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            while (i < s.size() && s[i] != '\n') s[i++] = ' ';
        } else if (s[i] == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) s[i++] = ' ';
            if (i + 1 < s.size()) s[i] = s[i + 1] = ' ';
        } else if (s[i] == '"') {
            for (++i; i < s.size() && s[i] != '"'; ++i) {
                if (s[i] == '\\' && i + 1 < s.size()) s[i++] = ' ';
                s[i] = ' ';
            }
        }
    }
    return s;
}

bool is_ident(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The name of one parameter declaration ("const float* __restrict__ a", "float a[]", "int n = 4"): the last
// identifier before any default value or array brackets.
std::string declared_name(std::string decl) {
    if (auto eq = decl.find('='); eq != std::string::npos) decl = trim(decl.substr(0, eq));
    while (!decl.empty() && decl.back() == ']') {
        auto open = decl.rfind('[');
        if (open == std::string::npos) break;
        decl = trim(decl.substr(0, open));
    }
    size_t e = decl.size();
    size_t b = e;
    while (b > 0 && is_ident(decl[b - 1])) --b;
    std::string name = decl.substr(b, e - b);
    // A declaration without a name ("float*", "int") ends in a type word or punctuation.
    static const char* kTypeWords[] = {"int",          "float",    "double", "char", "short",
                                       "long",         "unsigned", "signed", "bool", "const",
                                       "__restrict__", "size_t",   "void"};
    if (name.empty() || b == 0 || std::isdigit(static_cast<unsigned char>(name[0]))) return "";
    for (const char* w : kTypeWords)
        if (name == w) return "";
    return name;
}

struct Scalar {
    enum class Kind { pointer, integer, floating, other } kind = Kind::other;
    uint32_t bytes = 0;
    bool is_unsigned = false;
    std::string pointee;  // pointer: the pointed-to type without const
};

Scalar classify(const std::string& type) {
    Scalar s;
    std::string t = trim(type);
    if (t.empty()) return s;
    if (t.back() == '*' || t.back() == '&' || t.find("* __restrict") != std::string::npos ||
        t.find("*__restrict") != std::string::npos || t.ends_with("* restrict")) {
        s.kind = Scalar::Kind::pointer;
        std::string p = t.substr(0, t.find('*'));
        if (auto c = p.find(" const"); c != std::string::npos) p.erase(c, 6);
        if (p.rfind("const ", 0) == 0) p.erase(0, 6);
        s.pointee = trim(p);
        return s;
    }
    if (t.rfind("const ", 0) == 0) t = trim(t.substr(6));
    if (t.ends_with(" const")) t = trim(t.substr(0, t.size() - 6));
    struct Row {
        const char* name;
        Scalar::Kind kind;
        uint32_t bytes;
        bool is_unsigned;
    };
    static const Row kRows[] = {
        {"bool", Scalar::Kind::integer, 1, true},
        {"char", Scalar::Kind::integer, 1, false},
        {"signed char", Scalar::Kind::integer, 1, false},
        {"unsigned char", Scalar::Kind::integer, 1, true},
        {"short", Scalar::Kind::integer, 2, false},
        {"unsigned short", Scalar::Kind::integer, 2, true},
        {"int", Scalar::Kind::integer, 4, false},
        {"unsigned int", Scalar::Kind::integer, 4, true},
        {"long", Scalar::Kind::integer, 8, false},
        {"unsigned long", Scalar::Kind::integer, 8, true},
        {"long long", Scalar::Kind::integer, 8, false},
        {"unsigned long long", Scalar::Kind::integer, 8, true},
        {"float", Scalar::Kind::floating, 4, false},
        {"double", Scalar::Kind::floating, 8, false},
        {"__half", Scalar::Kind::floating, 2, false},
        {"__nv_bfloat16", Scalar::Kind::floating, 2, false},
    };
    for (const auto& r : kRows)
        if (t == r.name) return {r.kind, r.bytes, r.is_unsigned, ""};
    return s;
}

// The spec type that fits a C++ arithmetic type: int -> i32, unsigned long -> u64, float -> f32, __half ->
// f16.
std::string spec_type_for(const Scalar& s, const std::string& cxx) {
    if (s.kind == Scalar::Kind::floating) {
        if (s.bytes == 2) return cxx.find("bfloat16") != std::string::npos ? "bf16" : "f16";
        return s.bytes == 4 ? "f32" : "f64";
    }
    return std::string(s.is_unsigned ? "u" : "i") + std::to_string(s.bytes * 8);
}

std::string param_label(const CxxParam& p, size_t i) {
    return "parameter " + std::to_string(i) + (p.name.empty() ? "" : " '" + p.name + "'") + " is " + p.type;
}

// The pointer's element type against the buffer's: a warning when they plainly differ.
void check_pointee(const Scalar& ptr, const ArgSpec& a, const std::string& where, const std::string& label,
                   ArgTypeCheck& out) {
    const Scalar pointee = classify(ptr.pointee);
    if (pointee.kind != Scalar::Kind::integer && pointee.kind != Scalar::Kind::floating) return;
    const ElemType s = elem_scalar(a.type);
    const bool is_float = elem_is_float(s);
    if ((pointee.kind == Scalar::Kind::floating) == is_float && pointee.bytes == scalar_bytes(s)) return;
    out.warnings.push_back(where + ": " + label + " but the buffer holds " + std::string(elem_name(a.type)) +
                           " (\"type\": \"" + spec_type_for(pointee, ptr.pointee) + "\" matches it)");
}

}  // namespace

std::string demangle(std::string_view mangled) {
    if (!mangled.starts_with("_Z")) return std::string(mangled);
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> text(
        abi::__cxa_demangle(std::string(mangled).c_str(), nullptr, nullptr, &status), std::free);
    if (status != 0 || !text) return std::string(mangled);
    return text.get();
}

std::optional<std::vector<std::string>> demangled_param_types(std::string_view mangled) {
    const std::string text = demangle(mangled);
    if (text == mangled || text.empty() || text.back() != ')') return std::nullopt;
    int depth = 0;
    size_t open = std::string::npos;
    for (size_t i = text.size(); i-- > 0;) {
        if (text[i] == ')')
            ++depth;
        else if (text[i] == '(' && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open == std::string::npos) return std::nullopt;
    auto types = split_top_level(std::string_view(text).substr(open + 1, text.size() - open - 2));
    if (types.size() == 1 && (types[0].empty() || types[0] == "void")) types.clear();
    return types;
}

std::optional<std::vector<std::string>> cu_param_names(std::string_view cu_text, std::string_view base_name,
                                                       size_t count) {
    if (base_name.empty()) return std::nullopt;
    const std::string s = strip_comments(cu_text);
    for (size_t at = s.find(base_name); at != std::string::npos; at = s.find(base_name, at + 1)) {
        const size_t end = at + base_name.size();
        if ((at > 0 && is_ident(s[at - 1])) || (end < s.size() && is_ident(s[end]))) continue;
        size_t open = end;
        while (open < s.size() && std::isspace(static_cast<unsigned char>(s[open]))) ++open;
        if (open >= s.size() || s[open] != '(') continue;
        // A definition or declaration: __global__ between the previous statement and the name.
        const size_t stmt = s.find_last_of(";{}", at);
        const size_t from = stmt == std::string::npos ? 0 : stmt;
        const std::string_view before = std::string_view(s).substr(from, at - from);
        if (before.find("__global__") == std::string_view::npos) continue;
        int depth = 0;
        size_t close = open;
        for (; close < s.size(); ++close) {
            if (s[close] == '(')
                ++depth;
            else if (s[close] == ')' && --depth == 0)
                break;
        }
        if (close >= s.size()) continue;
        auto decls = split_top_level(std::string_view(s).substr(open + 1, close - open - 1));
        if (decls.size() == 1 && (decls[0].empty() || decls[0] == "void")) decls.clear();
        if (decls.size() != count) continue;
        std::vector<std::string> names;
        names.reserve(decls.size());
        for (const auto& d : decls) names.push_back(declared_name(d));
        return names;
    }
    return std::nullopt;
}

CxxSignature kernel_signature(const ir::Function& kernel, std::string_view cu_text) {
    CxxSignature sig;
    sig.demangled = demangle(kernel.name);
    const size_t n = kernel.params.size();
    auto types = demangled_param_types(kernel.name);
    if (types && types->size() != n) types.reset();  // a kernel whose PTX parameters do not map one to one
    auto names =
        cu_text.empty() ? std::nullopt : cu_param_names(cu_text, ir::demangled_base_name(kernel.name), n);
    if (!types && !names) return sig;
    sig.params.resize(n);
    for (size_t i = 0; i < n; ++i) {
        if (types) sig.params[i].type = (*types)[i];
        if (names) sig.params[i].name = (*names)[i];
    }
    return sig;
}

std::string find_cu_source(const LaunchSpec& spec, const ir::Module& module) {
    namespace fs = std::filesystem;
    if (spec.source_path.ends_with(".cu")) return spec.source_path;
    const fs::path dir = fs::path(spec.source_path).parent_path();
    std::error_code ec;
    for (const auto& f : module.files) {
        if (!f.path.ends_with(".cu") && !f.path.ends_with(".cuh")) continue;
        for (const fs::path& candidate : {fs::path(f.path), dir / f.path, dir / fs::path(f.path).filename()})
            if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal().string();
    }
    return {};
}

ArgTypeCheck check_args_against(const CxxSignature& sig, const LaunchSpec& spec) {
    ArgTypeCheck out;
    const size_t n = std::min(sig.params.size(), spec.args.size());
    for (size_t i = 0; i < n; ++i) {
        const CxxParam& p = sig.params[i];
        if (p.type.empty()) continue;
        const ArgSpec& a = spec.args[i];
        const Scalar s = classify(p.type);
        const std::string where = spec.path + ": args[" + std::to_string(i) + "]";
        const std::string label = param_label(p, i);
        if (s.kind == Scalar::Kind::pointer) {
            // A 64-bit integer value is an address given by hand (a planted bad pointer): the parameter's
            // width.
            const bool address =
                a.kind == ArgSpec::Kind::scalar && !elem_is_float(a.type) && scalar_bytes(a.type) == 8;
            if (a.kind == ArgSpec::Kind::scalar && !address)
                out.errors.push_back(where + ": " + label +
                                     ", a pointer: give a count (a buffer: \"count\" and "
                                     "\"init\"), not a value");
            else if (a.kind == ArgSpec::Kind::buffer)
                check_pointee(s, a, where, label, out);
            continue;
        }
        if (s.kind == Scalar::Kind::other)
            continue;  // a struct or vector by value: "bytes" or a scalar of its size
        const std::string want = spec_type_for(s, p.type);
        if (a.kind == ArgSpec::Kind::buffer) {
            out.errors.push_back(where + ": " + label + ", a value: give \"value\" (\"type\": \"" + want +
                                 "\"), not a count");
            continue;
        }
        if (a.kind != ArgSpec::Kind::scalar) continue;
        const bool is_float = elem_is_float(a.type);
        if ((s.kind == Scalar::Kind::floating) != is_float || scalar_bytes(a.type) != s.bytes)
            out.errors.push_back(where + ": " + label + " (" + std::to_string(s.bytes) + " bytes" +
                                 (s.kind == Scalar::Kind::floating ? ", floating point" : ", an integer") +
                                 ") but the spec gives " + std::string(elem_name(a.type)) +
                                 "; use \"type\": \"" + want + "\"");
    }
    return out;
}

std::vector<std::string> argument_names(const CxxSignature& sig, const LaunchSpec& spec) {
    std::vector<std::string> names(spec.args.size());
    for (size_t i = 0; i < names.size(); ++i) {
        if (!spec.args[i].name.empty())
            names[i] = spec.args[i].name;
        else if (i < sig.params.size())
            names[i] = sig.params[i].name;
    }
    return names;
}

}  // namespace warpsim::launch
