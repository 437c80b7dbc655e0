// approx_tables.cu — the H200's f32 .approx instructions over whole input ranges: every input of each
// range listed in kTables run through the instruction (inline asm), the results written in input order,
// each value stored as its difference from the previous result (one byte, or 0x80 and four bytes).
// Tables go to PREFIX.0.bin (rcp, rsqrt) and PREFIX.1.bin (ex2, lg2, tanh, then the div pairs).
// Also 2^20 pseudo-random pairs through div.approx.f32 and div.approx.ftz.f32 (results stored raw).
//   nvcc -arch=sm_90 -O2 approx_tables.cu -o approx_tables && ./approx_tables approx_tables
// Each file: "WSAPX01\0", u32 table_count, then per table: char name[32], u32 first_bits, u32 count,
// u64 encoded_bytes, the encoded stream; then (file 1) the div pairs: u32 count, count x (u32 a, u32 b, u32 q, u32 q_ftz).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define UNARY(NAME, OP)                                                                                    \
    __global__ void NAME(uint32_t first, uint32_t count, uint32_t* out) {                                    \
        uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;                                                \
        if (i >= count) return;                                                                            \
        float x = __uint_as_float(first + i), y;                                                           \
        asm(OP " %0, %1;" : "=f"(y) : "f"(x));                                                             \
        out[i] = __float_as_uint(y);                                                                       \
    }
UNARY(k_rcp_ftz, "rcp.approx.ftz.f32")
UNARY(k_rcp, "rcp.approx.f32")
UNARY(k_rsqrt_ftz, "rsqrt.approx.ftz.f32")
UNARY(k_rsqrt, "rsqrt.approx.f32")
UNARY(k_ex2_ftz, "ex2.approx.ftz.f32")
UNARY(k_ex2, "ex2.approx.f32")
UNARY(k_lg2_ftz, "lg2.approx.ftz.f32")
UNARY(k_lg2, "lg2.approx.f32")
UNARY(k_tanh, "tanh.approx.f32")

__global__ void k_div(const uint32_t* a, const uint32_t* b, uint32_t* q, uint32_t* qf, uint32_t count) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]), r, rf;
    asm("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(rf) : "f"(x), "f"(y));
    q[i] = __float_as_uint(r);
    qf[i] = __float_as_uint(rf);
}

typedef void (*Unary)(uint32_t, uint32_t, uint32_t*);
struct Table {
    const char* name;
    Unary fn;
    uint32_t first, last;  // [first, last)
    int file;              // written to PREFIX.0.bin or PREFIX.1.bin
};
// Ranges: one period of the mantissa (or two binades for rsqrt), the subnormal inputs, the inputs whose
// results are subnormal, and the matching negative ranges where the sign matters.
const Table kTables[] = {
    {"rcp.approx.ftz.f32", k_rcp_ftz, 0x3f800000u, 0x40000000u, 0},
    {"rcp.approx.f32", k_rcp, 0x00000000u, 0x00800000u, 0},
    {"rcp.approx.f32", k_rcp, 0x7e800000u, 0x7f800000u, 0},
    {"rsqrt.approx.ftz.f32", k_rsqrt_ftz, 0x3f800000u, 0x40800000u, 0},
    {"rsqrt.approx.f32", k_rsqrt, 0x00000000u, 0x00800000u, 0},
    {"ex2.approx.ftz.f32", k_ex2_ftz, 0x3f000000u, 0x40000000u, 1},
    {"ex2.approx.ftz.f32", k_ex2_ftz, 0xbf000000u, 0xc0000000u, 1},
    {"ex2.approx.f32", k_ex2, 0xc2f00000u, 0xc3200000u, 1},
    {"ex2.approx.ftz.f32", k_ex2_ftz, 0x33000000u, 0x34000000u, 1},
    {"lg2.approx.ftz.f32", k_lg2_ftz, 0x3f000000u, 0x40000000u, 1},
    {"lg2.approx.f32", k_lg2, 0x00000000u, 0x00800000u, 1},
    {"tanh.approx.f32", k_tanh, 0x00000000u, 0x00800000u, 1},
};

uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Operand k of pair i: exponent classes chosen so that subnormal operands, subnormal quotients and
// divisors above 2^126 are common (class = i mod 8).
uint32_t div_operand(uint32_t i, int which) {
    uint64_t h = mix64((uint64_t(which) << 40) | i);
    uint32_t sign = uint32_t(h >> 63) << 31, frac = uint32_t(h) & 0x7fffffu, e;
    uint32_t cls = (i + 3 * which) % 8, r = uint32_t(h >> 32);
    switch (cls) {
        case 0: e = 0; break;                          // subnormal
        case 1: e = 253 + r % 2; break;                // above 2^126
        case 2: e = 1 + r % 8; break;                  // tiny normal
        case 3: e = 255 * (r % 16 == 0); break;        // zero/subnormal or inf/NaN
        default: e = r % 256; break;                   // anything
    }
    return sign | (e << 23) | frac;
}

int main(int argc, char** argv) {
    if (argc < 2) { fprintf(stderr, "usage: approx_tables PREFIX (writes PREFIX.0.bin, PREFIX.1.bin)\n"); return 2; }
    FILE* files[2];
    for (int k = 0; k < 2; ++k) {
        std::string path = std::string(argv[1]) + "." + std::to_string(k) + ".bin";
        files[k] = fopen(path.c_str(), "wb");
        if (!files[k]) { perror(path.c_str()); return 1; }
        uint32_t n = 0;
        for (const Table& t : kTables) n += t.file == k;
        fwrite("WSAPX01\0", 1, 8, files[k]);
        fwrite(&n, 4, 1, files[k]);
    }
    uint32_t* d_out = nullptr;
    cudaMalloc(&d_out, (1u << 26) * 4ull);
    std::vector<uint32_t> host;
    std::vector<uint8_t> enc;
    for (const Table& t : kTables) {
        uint32_t count = t.last - t.first;
        host.resize(count);
        t.fn<<<(count + 255) / 256, 256>>>(t.first, count, d_out);
        if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "kernel failed for %s\n", t.name); return 1; }
        cudaMemcpy(host.data(), d_out, count * 4ull, cudaMemcpyDeviceToHost);
        enc.clear();
        uint32_t prev = 0;
        for (uint32_t v : host) {
            int64_t d = int64_t(v) - int64_t(prev);
            if (d > -128 && d < 128) enc.push_back(uint8_t(int8_t(d)));
            else { enc.push_back(0x80); for (int k = 0; k < 4; ++k) enc.push_back(uint8_t(v >> (8 * k))); }
            prev = v;
        }
        char name[32] = {0};
        strncpy(name, t.name, 31);
        uint64_t bytes = enc.size();
        FILE* f = files[t.file];
        fwrite(name, 1, 32, f);
        fwrite(&t.first, 4, 1, f);
        fwrite(&count, 4, 1, f);
        fwrite(&bytes, 8, 1, f);
        fwrite(enc.data(), 1, enc.size(), f);
        fprintf(stderr, "%-22s %08x..%08x %u values, %llu bytes\n", t.name, t.first, t.last, count, (unsigned long long)bytes);
    }
    const uint32_t pairs = 1u << 20;
    std::vector<uint32_t> a(pairs), b(pairs), q(pairs), qf(pairs);
    for (uint32_t i = 0; i < pairs; ++i) { a[i] = div_operand(i, 0); b[i] = div_operand(i, 1); }
    uint32_t *da, *db, *dq, *dqf;
    cudaMalloc(&da, pairs * 4); cudaMalloc(&db, pairs * 4); cudaMalloc(&dq, pairs * 4); cudaMalloc(&dqf, pairs * 4);
    cudaMemcpy(da, a.data(), pairs * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), pairs * 4, cudaMemcpyHostToDevice);
    k_div<<<pairs / 256, 256>>>(da, db, dq, dqf, pairs);
    cudaMemcpy(q.data(), dq, pairs * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(qf.data(), dqf, pairs * 4, cudaMemcpyDeviceToHost);
    FILE* f = files[1];
    fwrite(&pairs, 4, 1, f);
    for (uint32_t i = 0; i < pairs; ++i) { fwrite(&a[i], 4, 1, f); fwrite(&b[i], 4, 1, f); fwrite(&q[i], 4, 1, f); fwrite(&qf[i], 4, 1, f); }
    fclose(files[0]);
    fclose(files[1]);
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    fprintf(stderr, "device %s, sm_%d%d\n", p.name, p.major, p.minor);
    return 0;
}
