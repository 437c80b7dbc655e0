// Inline PTX: lop3, prmt (all modes), bfe/bfi, shf (wrap and clamp), dp4a/dp2a, bfind, brx.idx
// jump tables, testp, vector packing with mov.b64.

extern "C" __global__ void asm_logic_permute(const unsigned* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = in[i] * 2654435761u, b = a ^ 0xdeadbeefu, c = (a >> 7) | (b << 25);
    unsigned r[10];
    asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(c));   // majority
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r[1]) : "r"(a), "r"(b), "r"(c));   // a ^ b ^ c
    asm("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(r[2]) : "r"(a), "r"(b));
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(c));         // run-time selector
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(c));
    asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r[5]) : "r"(a), "r"(b), "r"(c));
    asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r[6]) : "r"(a), "r"(b), "r"(c));
    asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r[7]) : "r"(a), "r"(b), "r"(c));
    asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r[8]) : "r"(a), "r"(b), "r"(c));
    asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r[9]) : "r"(a), "r"(b), "r"(c));
    for (int k = 0; k < 10; ++k) out[10 * i + k] = r[k];
}

extern "C" __global__ void asm_bitfield_shift(const unsigned* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = in[i] * 2246822519u + 1u, b = a * 3266489917u;
    unsigned pos = a & 31, len = (b >> 8) & 31;
    unsigned r[10];
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r[0]) : "r"(a), "r"(pos), "r"(len));
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r[1]) : "r"(a), "r"(pos), "r"(len));
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r[2]) : "r"(a), "r"(b), "r"(pos), "r"(len));
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(pos + 40));
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(pos + 20));
    asm("bfind.u32 %0, %1;" : "=r"(r[5]) : "r"(a >> pos));
    asm("bfind.shiftamt.s32 %0, %1;" : "=r"(r[6]) : "r"((int)b));
    asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r[7]) : "r"(a), "r"(b), "r"(pos));
    r[8] = (unsigned)__dp4a((int)a, (int)b, 5);
    r[9] = (unsigned)__dp2a_lo((int)a, (int)b, 7) ^ __dp2a_hi(a, b, 11u);
    for (int k = 0; k < 10; ++k) out[10 * i + k] = r[k];
}

// A jump table: brx.idx over a .branchtargets list.
extern "C" __global__ void asm_brx_idx(const unsigned* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned sel = in[i] % 4, v = in[i], r;
    asm volatile("{\n\t"
                 ".reg .u32 t;\n\t"
                 "ts: .branchtargets L_case0, L_case1, L_case2, L_case3;\n\t"
                 "brx.idx %1, ts;\n"
                 "L_case0:\n\tmul.lo.u32 t, %2, 3;\n\tbra.uni L_done;\n"
                 "L_case1:\n\txor.b32 t, %2, 0x55;\n\tbra.uni L_done;\n"
                 "L_case2:\n\tshl.b32 t, %2, 4;\n\tbra.uni L_done;\n"
                 "L_case3:\n\tnot.b32 t, %2;\n"
                 "L_done:\n\tmov.u32 %0, t;\n\t}"
                 : "=r"(r) : "r"(sel), "r"(v));
    out[i] = r;
}

extern "C" __global__ void asm_float_tests(const float* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = (in[i] - 8.0f) / (float)(i % 5);          // inf and NaN appear
    unsigned fin, nan, sub, r0, r1;
    asm("{\n\t.reg .pred p;\n\ttestp.finite.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(fin) : "f"(x));
    asm("{\n\t.reg .pred p;\n\ttestp.notanumber.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(nan) : "f"(x));
    asm("{\n\t.reg .pred p;\n\ttestp.subnormal.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(sub) : "f"(x * 1e-40f));
    unsigned long long packed;
    asm("mov.b64 %0, {%1, %2};" : "=l"(packed) : "r"(__float_as_uint(x)), "r"((unsigned)i));
    asm("mov.b64 {%0, %1}, %2;" : "=r"(r0), "=r"(r1) : "l"(packed ^ 0xffff0000ffffull));
    float cs;
    asm("copysign.f32 %0, %1, %2;" : "=f"(cs) : "f"(-1.0f), "f"(x));
    out[5 * i + 0] = fin | nan << 1 | sub << 2;
    out[5 * i + 1] = r0;
    out[5 * i + 2] = r1;
    out[5 * i + 3] = __float_as_uint(cs);
    out[5 * i + 4] = __float_as_uint(fminf(x, 3.0f));
}
