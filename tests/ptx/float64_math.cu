// Double precision arithmetic, rounding-mode intrinsics and rounding functions.

__device__ __forceinline__ double spread(double v, int i) { return (v - 37.25) * 1.7 + 0.001 * (double)(i & 63); }

extern "C" __global__ void f64_basic(const double* a, const double* b, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = spread(a[i], i), y = spread(b[i], i + 3) + 0.5;
    double* o = out + 8 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = fma(x, y, 1.25);
    o[4] = x / y;
    o[5] = sqrt(fabs(x));
    o[6] = 1.0 / y;
    o[7] = fmin(x, y) + fmax(-x, y) - fabs(y);
}

extern "C" __global__ void f64_rounding_modes(const double* a, const double* b, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = spread(a[i], i) * 1.0000000000001, y = spread(b[i], i) + 0.3;
    double* o = out + 16 * i;
    o[0] = __dadd_rn(x, y);  o[1] = __dadd_rz(x, y);  o[2] = __dadd_ru(x, y);  o[3] = __dadd_rd(x, y);
    o[4] = __dmul_rn(x, y);  o[5] = __dmul_rz(x, y);  o[6] = __dmul_ru(x, y);  o[7] = __dmul_rd(x, y);
    o[8] = __fma_rn(x, y, 0.1);  o[9] = __fma_rz(x, y, 0.1);
    o[10] = __fma_ru(x, y, 0.1); o[11] = __fma_rd(x, y, 0.1);
    o[12] = __ddiv_rn(x, y) + __ddiv_rz(x, y) + __ddiv_ru(x, y) + __ddiv_rd(x, y);
    o[13] = __dsqrt_rn(fabs(x)) - __dsqrt_rz(fabs(y));
    o[14] = __drcp_rn(y) + __drcp_ru(y);
    o[15] = floor(x) + ceil(y) * 2.0 + trunc(x * 0.5) * 4.0 + round(y * 0.25) * 8.0 + rint(x * 3.0);
}

extern "C" __global__ void f64_precision_mix(const float* a, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = a[i] * 0.1f + 0.7f;
    double d = (double)f * 3.141592653589793 + 1e-300 * (double)i;
    out[2 * i + 0] = d * d - (double)(f * f);
    out[2 * i + 1] = (double)((float)d) - d;
}
