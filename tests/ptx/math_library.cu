// CUDA math library calls (precise and fast intrinsic versions). The precise functions expand to
// long instruction sequences; large sinf/cosf arguments take the slow path through local memory.

extern "C" __global__ void math_f32_precise(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i] * 0.01f + 0.001f;                 // 0.001 .. positive
    float big = in[i] * 1.0e4f + 12345.0f;
    float* o = out + 14 * i;
    o[0] = expf(x);
    o[1] = logf(x);
    o[2] = sinf(x);
    o[3] = cosf(x);
    o[4] = powf(x, 1.7f);
    o[5] = sqrtf(x);
    o[6] = tanhf(x - 1.0f);
    o[7] = exp2f(x * 3.0f);
    o[8] = log2f(x) + log10f(x);
    o[9] = atan2f(x - 0.5f, 0.75f);
    o[10] = erff(x - 1.0f);
    o[11] = cbrtf(x - 2.0f);
    o[12] = sinf(big);                                // Payne-Hanek reduction
    o[13] = cosf(big);
}

extern "C" __global__ void math_f32_fast(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i] * 0.01f + 0.001f;
    float* o = out + 10 * i;
    o[0] = __sinf(x);
    o[1] = __cosf(x);
    o[2] = __expf(x);
    o[3] = __logf(x);
    o[4] = __powf(x, 1.7f);
    o[5] = __tanf(x * 0.5f);
    o[6] = __exp10f(x * 0.1f);
    o[7] = __log2f(x) + __log10f(x);
    o[8] = __fdividef(1.0f, x);
    o[9] = rsqrtf(x) + __frsqrt_rn(x);
}

extern "C" __global__ void math_f64_precise(const double* in, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = in[i] * 0.01 + 0.001;
    double* o = out + 8 * i;
    o[0] = exp(x);
    o[1] = log(x);
    o[2] = sin(x);
    o[3] = cos(x);
    o[4] = pow(x, 1.7);
    o[5] = tanh(x - 1.0);
    o[6] = rsqrt(x);
    o[7] = atan(x) + expm1(x * 0.1) + log1p(x);
}
