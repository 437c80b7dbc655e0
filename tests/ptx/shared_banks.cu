// Shared-memory bank patterns for the counting rules: 4-byte accesses with strides 1, 2, 32, 33
// and a broadcast, 8-byte (float2) and 16-byte (float4) accesses, each in its own instruction.
// Launch with one or more blocks of 256 threads.

extern "C" __global__ void bank_patterns_32bit(const float* in, float* out, int stride) {
    __shared__ float s[256 * 33];
    int t = threadIdx.x;
    for (int k = t; k < 256 * 33; k += blockDim.x) s[k] = (float)(k % 101);
    __syncthreads();
    int lane = t & 31, warp = t >> 5;
    float r = 0.0f;
    r += s[warp * 32 + lane];                            // stride 1: conflict-free
    r += s[(warp * 64 + lane * 2) % 8448];               // stride 2: 2-way
    r += s[(lane * 32 + warp) % 8448];                   // stride 32: 32-way
    r += s[(lane * 33 + warp) % 8448];                   // stride 33: conflict-free
    r += s[warp];                                        // broadcast: one word
    r += s[(lane * stride) % 8448];                      // run-time stride
    r += s[(lane / 4) * 32];                             // 8 distinct words in bank 0: 8-way
    out[blockIdx.x * blockDim.x + t] = r + in[blockIdx.x * blockDim.x + t];
}

extern "C" __global__ void bank_patterns_wide(const float* in, float* out) {
    __shared__ __align__(16) float s[4096];
    int t = threadIdx.x;
    for (int k = t; k < 4096; k += blockDim.x) s[k] = (float)(k % 97);
    __syncthreads();
    int lane = t & 31;
    const float2* s2 = reinterpret_cast<const float2*>(s);
    const float4* s4 = reinterpret_cast<const float4*>(s);
    float2 a = s2[lane];                                 // 8 bytes, contiguous: 2 passes
    float2 b = s2[lane * 16];                            // 8 bytes, stride 128 B: conflicts
    float4 c = s4[lane];                                 // 16 bytes, contiguous: 4 passes
    float4 d = s4[(lane * 8) % 1024];                    // 16 bytes, stride 128 B: conflicts
    float r = a.x + a.y + b.x + b.y + c.x + c.y + c.z + c.w + d.x + d.y + d.z + d.w;
    out[blockIdx.x * blockDim.x + t] = r + in[blockIdx.x * blockDim.x + t];
}
