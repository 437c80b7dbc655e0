// 32-bit integer intrinsics: mul.hi, mad, mul24, sad, halving adds, bit manipulation, saturation.

__device__ __forceinline__ unsigned mix(unsigned v) { return v * 2654435761u + 0x9e3779b9u; }

extern "C" __global__ void int_mul_hi_mad(const unsigned* a, const unsigned* b, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = mix(a[i]), y = mix(b[i] ^ 0x5bd1e995u);
    int sx = (int)x, sy = (int)y;
    unsigned* o = out + 8 * i;
    o[0] = __umulhi(x, y);
    o[1] = (unsigned)__mulhi(sx, sy);
    o[2] = x * y + (unsigned)i;                       // mad.lo
    o[3] = (unsigned)__mul24(sx, sy);
    o[4] = __umul24(x, y);
    o[5] = __sad(sx, sy, 5u);
    o[6] = __usad(x, y, 9u);
    o[7] = (unsigned)__hadd(sx, sy) ^ ((unsigned)__rhadd(sx, sy) << 1) ^ __uhadd(x, y) ^ (__urhadd(x, y) >> 3);
}

extern "C" __global__ void int_bit_ops(const unsigned* a, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = mix(a[i]);
    unsigned y = mix(x);
    unsigned s = x & 31;
    unsigned* o = out + 12 * i;
    o[0] = __brev(x);
    o[1] = (unsigned)__clz((int)(x >> (i & 31)));
    o[2] = (unsigned)__popc(x);
    o[3] = (unsigned)__ffs((int)(x & (0xffffffffu << (i & 31))));
    o[4] = __byte_perm(x, y, 0x5410);
    o[5] = __byte_perm(x, y, s * 0x111u);
    o[6] = __funnelshift_l(x, y, s + 7);              // wrap mode: shift mod 32
    o[7] = __funnelshift_r(x, y, s);
    o[8] = __funnelshift_lc(x, y, s + 20);            // clamp mode: shift min 32
    o[9] = __funnelshift_rc(x, y, s + 20);
    o[10] = (x >> (s & 15)) & ((1u << ((y & 15) + 1)) - 1u);           // unsigned bit-field extract
    o[11] = (unsigned)(((int)(x << 8)) >> 20);                          // signed extract: bits 4..15
}

extern "C" __global__ void int_saturating(const int* a, const int* b, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = (int)mix((unsigned)a[i]), y = (int)mix((unsigned)b[i] + 17u);
    int add_sat, sub_sat;
    asm("add.sat.s32 %0, %1, %2;" : "=r"(add_sat) : "r"(x), "r"(y));
    asm("sub.sat.s32 %0, %1, %2;" : "=r"(sub_sat) : "r"(x), "r"(y));
    int* o = out + 8 * i;
    o[0] = add_sat;
    o[1] = sub_sat;
    o[2] = (int)__vaddss2((unsigned)x, (unsigned)y);  // per-halfword signed saturating add
    o[3] = (int)__vaddus4((unsigned)x, (unsigned)y);  // per-byte unsigned saturating add
    o[4] = (int)__vsubss4((unsigned)x, (unsigned)y);
    o[5] = (int)__vabsdiffu4((unsigned)x, (unsigned)y);
    o[6] = (int)__vmaxs2((unsigned)x, (unsigned)y);
    o[7] = (int)(__vcmpeq4((unsigned)x, (unsigned)x ^ 0x00ff00ffu) ^ __vavgu4((unsigned)x, (unsigned)y));
}
