// Vector loads and stores (ld/st .v2/.v4) for float2, float4, int2, int4, uint4, double2.

extern "C" __global__ void vector_loads(const float2* f2, const float4* f4, const int2* i2, const int4* i4,
                                        const uint4* u4, const double2* d2, float4* out_f, int4* out_i,
                                        double2* out_d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float2 a = f2[i];
    float4 b = f4[i];
    int2 c = i2[i];
    int4 d = i4[i];
    uint4 e = u4[i];
    double2 g = d2[i];
    out_f[i] = make_float4(a.x + b.w, a.y * b.z, b.y - a.x, b.x);
    out_i[i] = make_int4(c.x + d.w, c.y ^ d.z, (int)(e.x + e.y), (int)(e.z * e.w) + d.x - d.y);
    out_d[i] = make_double2(g.x * 2.0 + g.y, g.y - (double)a.x);
}

// 8- and 16-byte accesses with a stride: sector counts grow with the access size.
extern "C" __global__ void vector_strided(const float4* in, float4* out, int n, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(size_t)i * stride];
}
