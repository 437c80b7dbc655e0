// launch/npy.hpp — NumPy .npy files (format 1.0, 2.0 and 3.0): reading a header and its data, writing a
// buffer, and matching an array's dtype and shape against a launch-spec argument.
//
// A buffer of component type T maps to the dtype of T (f32 <f4, i32 <i4, u8 |u1 ...); bf16, which NumPy has
// no dtype for, is written as its 16-bit patterns (<u2) and read from <u2 or |V2. A vector type is an array
// of shape (count, components) on writing; on reading any C-order shape with count * components elements
// fits.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "launch/elem_type.hpp"
#include "launch/outcome.hpp"

namespace warpsim::launch {

struct NpyHeader {
    std::string descr;  // as written: "<f4", "|u1", ">i8"
    bool fortran_order = false;
    std::vector<uint64_t> shape;  // () is a single element
    uint64_t data_offset = 0;     // where the data begin in the file
    uint64_t file_bytes = 0;      // size of the whole file (0 when parsed from memory)

    uint64_t elements() const;
    std::string shape_text() const;  // "(1000,)", "(32, 4)"
};

// The component type a dtype string holds ("<f4" -> f32, "|V2" -> bf16), or nullopt for dtypes warpsim has no
// element type for (bool, complex, strings, structured). Byte order is ignored here.
std::optional<ElemType> npy_elem_type(const std::string& descr);
// The dtype written for a component type: "<f4"; bf16 -> "<u2".
std::string npy_descr(ElemType t);
// NumPy's name of a dtype for messages: "<f4" -> "float32"; unknown ones come back as given.
std::string npy_dtype_name(const std::string& descr);

// Parses the header at the start of `bytes` (the whole file or at least its header). `name` labels errors.
Outcome<NpyHeader> parse_npy_header(std::span<const uint8_t> bytes, const std::string& name);
// Reads the header of a file and checks that the data that follow it are complete.
Outcome<NpyHeader> read_npy_header(const std::string& path);

// Whether an array fits an argument of `count` elements of `type` (its dtype is the type's, its element count
// and order fit); "" when it does, else what differs and what to do ("... holds float64; save it with
// a.astype(np.float32)"). `same_dtype` false accepts any dtype npy_elem_type knows (expected values).
std::string npy_fit_error(const NpyHeader& h, ElemType type, uint64_t count, bool same_dtype);

// The file's data as little-endian components of the dtype's own type (big-endian files are swapped),
// exactly out.size() bytes (the caller sizes it from the header).
std::string read_npy_data(const std::string& path, const NpyHeader& h, std::span<uint8_t> out);

// A complete .npy file (format 1.0, header padded to 64 bytes) holding `count` elements of `type`.
std::vector<uint8_t> npy_file_bytes(ElemType type, uint64_t count, std::span<const uint8_t> data);
// Writes npy_file_bytes to `path`; returns "" or the reason it failed.
std::string write_npy(const std::string& path, ElemType type, uint64_t count, std::span<const uint8_t> data);

}  // namespace warpsim::launch
