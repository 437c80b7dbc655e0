// launch/buffer_init.cpp — buffer generators: zero, iota, fill, random (splitmix64) and file.
#include "launch/buffer_init.hpp"

#include <cstring>
#include <fstream>

#include "launch/input_file.hpp"
#include "launch/npy.hpp"

namespace warpsim::launch {
namespace {

std::string arg_label(const LaunchSpec& spec, size_t i) {
    return spec.path + ": args[" + std::to_string(i) + "]";
}

void store_le(uint8_t* p, uint64_t v, uint32_t bytes) {
    for (uint32_t b = 0; b < bytes; ++b) p[b] = static_cast<uint8_t>(v >> (8 * b));
}

std::string read_file_into(const std::string& path, std::span<uint8_t> out, const std::string& label) {
    std::string error = read_input_file_into(path, out, "file");
    return error.empty() ? error : label + ": " + error;
}

}  // namespace

uint64_t splitmix64_at(uint64_t seed, uint64_t k) {
    uint64_t x = seed + (k + 1) * 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint64_t generated_component_bits(const ArgSpec& arg, uint64_t k) {
    return generated_bits(arg.type, arg.init, k);
}

uint64_t generated_bits(ElemType t, const BufferInit& init, uint64_t k) {
    switch (init.kind) {
        case BufferInit::Kind::iota: {
            if (init.iota_start == 0 && init.iota_step == 1) return bits_from_uint(t, k);
            if (!elem_is_float(t)) {  // integral START and STEP (the spec reader checks), wrapping
                const auto start = static_cast<uint64_t>(static_cast<int64_t>(init.iota_start));
                const auto step = static_cast<uint64_t>(static_cast<int64_t>(init.iota_step));
                return bits_from_uint(t, start + step * k);
            }
            return bits_from_double(
                t, static_cast<double>(init.iota_start + init.iota_step * static_cast<long double>(k)));
        }
        case BufferInit::Kind::fill:
            return init.fill_bits;
        case BufferInit::Kind::random: {
            uint64_t z = splitmix64_at(init.seed, k);
            if (!elem_is_float(t)) return bits_from_uint(t, z);
            ElemType s = elem_scalar(t);
            // (z >> 40) * 2^-24 and (z >> 11) * 2^-53 are exact; round_to_ieee is exact for f32/f64 here
            // and rounds f16/bf16 from the same value as the f32 would hold.
            if (s == ElemType::f64) return round_to_ieee(false, z >> 11, -53, 11, 52);
            uint64_t f32_sig = z >> 40;
            if (s == ElemType::f32) return round_to_ieee(false, f32_sig, -24, 8, 23);
            if (s == ElemType::f16) return round_to_ieee(false, f32_sig, -24, 5, 10);
            return round_to_ieee(false, f32_sig, -24, 8, 7);
        }
        default:
            return 0;
    }
}

std::string fill_buffer(const LaunchSpec& spec, size_t arg_index, std::span<uint8_t> out) {
    if (arg_index >= spec.args.size()) return spec.path + ": no argument " + std::to_string(arg_index);
    const ArgSpec& arg = spec.args[arg_index];
    const std::string label = arg_label(spec, arg_index);
    if (arg.kind != ArgSpec::Kind::buffer) return label + ": not a buffer";
    if (out.size() != arg.buffer_bytes())
        return label + ": internal: destination has " + std::to_string(out.size()) + " bytes, expected " +
               std::to_string(arg.buffer_bytes());
    return fill_components(arg.type, arg.count * elem_components(arg.type), arg.init, out, label + ".init");
}

std::string fill_components(ElemType t, uint64_t components, const BufferInit& init, std::span<uint8_t> out,
                            const std::string& label) {
    switch (init.kind) {
        case BufferInit::Kind::zero:
            std::memset(out.data(), 0, out.size());
            return {};
        case BufferInit::Kind::file:
            return read_file_into(init.file, out, label);
        case BufferInit::Kind::host:
            if (init.host.size() != out.size())
                return label + ": " + std::to_string(init.host.size()) + " bytes given for a buffer of " +
                       std::to_string(out.size());
            std::memcpy(out.data(), init.host.data(), out.size());
            return {};
        case BufferInit::Kind::npy: {
            NpyHeader h;
            h.descr = init.npy_descr;
            h.data_offset = init.npy_data_offset;
            std::string err = read_npy_data(init.file, h, out);
            return err.empty() ? err : label + ": " + err;
        }
        default:
            break;
    }
    const uint32_t sb = scalar_bytes(t);
    if (init.kind == BufferInit::Kind::fill) {
        for (uint64_t k = 0; k < components; ++k) store_le(out.data() + k * sb, init.fill_bits, sb);
        return {};
    }
    for (uint64_t k = 0; k < components; ++k) store_le(out.data() + k * sb, generated_bits(t, init, k), sb);
    return {};
}

Outcome<std::vector<uint8_t>> make_buffer(const LaunchSpec& spec, size_t arg_index) {
    if (arg_index >= spec.args.size() || spec.args[arg_index].kind != ArgSpec::Kind::buffer)
        return Outcome<std::vector<uint8_t>>::failure(arg_label(spec, arg_index) + ": not a buffer");
    std::vector<uint8_t> bytes(spec.args[arg_index].buffer_bytes());
    std::string err = fill_buffer(spec, arg_index, bytes);
    if (!err.empty()) return Outcome<std::vector<uint8_t>>::failure(err);
    return bytes;
}

}  // namespace warpsim::launch
