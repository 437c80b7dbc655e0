// All-pairs n-body: each thread accumulates the softened gravitational acceleration on one body from all
// bodies, read through shared-memory tiles of blockDim.x bodies (position xyz, mass w), then one step.

__device__ float3 body_interaction(float4 bi, float4 bj, float3 ai, float softening2) {
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + softening2;
    float inv = rsqrtf(dist2);
    float s = bj.w * inv * inv * inv;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

__global__ void nbody_tiled(const float4* pos, float4* vel, float4* new_pos, int n, float dt, float softening2) {
    extern __shared__ float4 tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 bi = pos[i];
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    for (int t = 0; t < n; t += blockDim.x) {
        tile[threadIdx.x] = pos[t + threadIdx.x];
        __syncthreads();
#pragma unroll 8
        for (int j = 0; j < blockDim.x; ++j) acc = body_interaction(bi, tile[j], acc, softening2);
        __syncthreads();
    }
    float4 v = vel[i];
    v.x += acc.x * dt;
    v.y += acc.y * dt;
    v.z += acc.z * dt;
    vel[i] = v;
    new_pos[i] = make_float4(bi.x + v.x * dt, bi.y + v.y * dt, bi.z + v.z * dt, bi.w);
}

// The same forces without tiling: every thread reads every body from global memory (L1 hits).
__global__ void nbody_naive(const float4* pos, float4* acc_out, int n, float softening2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 bi = pos[i];
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < n; ++j) acc = body_interaction(bi, pos[j], acc, softening2);
    acc_out[i] = make_float4(acc.x, acc.y, acc.z, 0.0f);
}
