// Single precision: IEEE add/mul/fma/div/sqrt, explicit rounding-mode intrinsics, rounding
// functions, and special values (NaN, infinities, signed zero, denormals).

__device__ __forceinline__ float spread(float v, int i) { return (v - 37.25f) * 1.7f + 0.001f * (float)(i & 63); }

extern "C" __global__ void f32_basic(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = spread(a[i], i), y = spread(b[i], i + 5) + 0.5f;
    float* o = out + 8 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = fmaf(x, y, 1.25f);
    o[4] = x / y;
    o[5] = sqrtf(fabsf(x));
    o[6] = 1.0f / y;
    o[7] = fminf(x, y) + fmaxf(-x, y) - fabsf(y);
}

extern "C" __global__ void f32_rounding_modes(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = spread(a[i], i) * 1.0000001f, y = spread(b[i], i) + 0.3f;
    float* o = out + 16 * i;
    o[0] = __fadd_rn(x, y);  o[1] = __fadd_rz(x, y);  o[2] = __fadd_ru(x, y);  o[3] = __fadd_rd(x, y);
    o[4] = __fmul_rn(x, y);  o[5] = __fmul_rz(x, y);  o[6] = __fmul_ru(x, y);  o[7] = __fmul_rd(x, y);
    o[8] = __fmaf_rn(x, y, 0.1f);  o[9] = __fmaf_rz(x, y, 0.1f);
    o[10] = __fmaf_ru(x, y, 0.1f); o[11] = __fmaf_rd(x, y, 0.1f);
    o[12] = __fdiv_rn(x, y) + __fdiv_rz(x, y);
    o[13] = __fsqrt_rn(fabsf(x)) - __fsqrt_ru(fabsf(y));
    o[14] = __frcp_rn(y) + __frcp_rz(y);
    o[15] = __fdividef(x, y) + rsqrtf(fabsf(y) + 1.0f);
}

extern "C" __global__ void f32_round_functions(const float* a, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = spread(a[i], i) * 0.37f;
    float* o = out + 8 * i;
    o[0] = floorf(x);
    o[1] = ceilf(x);
    o[2] = truncf(x);
    o[3] = roundf(x);
    o[4] = rintf(x);
    o[5] = copysignf(1.5f, x);
    o[6] = ldexpf(x, (i & 15) - 8);
    o[7] = fmodf(x, 1.75f);
}

extern "C" __global__ void f32_special_values(const float* a, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float z = a[i] * 0.0f;                            // +0 or -0, opaque to the compiler
    float inf = 1.0f / z;
    float nan = z / z;
    float tiny = 1.0e-38f * (a[i] + 1.0f);            // subnormal after the multiply below
    unsigned* o = out + 8 * i;
    o[0] = __float_as_uint(inf - inf);
    o[1] = __float_as_uint(sqrtf(-1.0f - fabsf(a[i])));
    o[2] = __float_as_uint(fminf(nan, a[i])) ^ __float_as_uint(fmaxf(a[i], nan));
    o[3] = __float_as_uint(tiny * 0.001f);            // no .ftz: the subnormal survives
    o[4] = __float_as_uint(-z);
    o[5] = __float_as_uint(inf * z);
    o[6] = (unsigned)isnan(nan) | ((unsigned)isinf(inf) << 1) | ((unsigned)signbit(-z - 1.0f) << 2);
    o[7] = __float_as_uint(__saturatef(a[i] - 3.5f)) ^ __float_as_uint(__saturatef(nan));
}
