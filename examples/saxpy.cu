// y = a * x + y, with 4-byte and with 16-byte (float4) accesses, as in the memory-hierarchy seed.

__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// One LDG.E.128 per lane: requires x to be 16-byte aligned and n divisible by 4 (n4 = n / 4).
__global__ void scale_float4(const float* x, float* y, float a, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        const float4* x4 = reinterpret_cast<const float4*>(x);
        float4 v = x4[i];
        v.x *= a; v.y *= a; v.z *= a; v.w *= a;
        reinterpret_cast<float4*>(y)[i] = v;
    }
}
