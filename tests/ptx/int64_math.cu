// 64-bit integer arithmetic: mul.lo/hi, shifts, bit counts, min/max/abs, carry chains.

extern "C" __global__ void int64_arith(const unsigned long long* a, const unsigned long long* b,
                                       unsigned long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long x = a[i] * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    unsigned long long y = (b[i] + 3) * 0xbf58476d1ce4e5b9ull;
    long long sx = (long long)x, sy = (long long)y;
    unsigned s = (unsigned)(y & 63);
    unsigned long long* o = out + 12 * i;
    o[0] = x * y + (unsigned long long)i;
    o[1] = __umul64hi(x, y);
    o[2] = (unsigned long long)__mul64hi(sx, sy);
    o[3] = x << s;
    o[4] = x >> s;
    o[5] = (unsigned long long)(sx >> s);
    o[6] = (unsigned long long)__clzll(sx) | ((unsigned long long)__popcll(x) << 8) | ((unsigned long long)__ffsll(sy) << 16);
    o[7] = __brevll(x);
    o[8] = (unsigned long long)(sx < sy ? sx : sy) ^ (x > y ? x : y);
    o[9] = (unsigned long long)llabs(sx - sy);
    o[10] = (x + y) ^ (x - y) ^ (~x & y) ^ (x | y);
    unsigned long long lo, hi;                          // 128-bit add with a carry chain
    asm("{\n\t.reg .u32 a0, a1, b0, b1, r0, r1;\n\t"
        "mov.b64 {a0, a1}, %2;\n\tmov.b64 {b0, b1}, %3;\n\t"
        "add.cc.u32 r0, a0, b0;\n\taddc.u32 r1, a1, b1;\n\t"
        "mov.b64 %0, {r0, r1};\n\tmov.b64 %1, 0;\n\t}"
        : "=l"(lo), "=l"(hi) : "l"(x), "l"(y));
    o[11] = lo ^ hi;
}

extern "C" __global__ void int64_mixed_widths(const int* a, long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = a[i] * 1103515245 + 12345;
    long long w = (long long)v * 3000000019LL;          // widening multiply
    unsigned long long u = (unsigned long long)(unsigned)v * 4000000007ULL;
    out[3 * i + 0] = w;
    out[3 * i + 1] = (long long)(u >> 7);
    out[3 * i + 2] = (long long)(int)(w >> 13) + (long long)(short)v + (long long)(signed char)v;
}
