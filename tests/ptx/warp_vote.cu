// Warp votes and match/reduce: all/any/ballot/activemask (also under divergence and in partial
// warps), __match_any_sync/__match_all_sync, and the sm_80 __reduce_*_sync.

extern "C" __global__ void vote_ops(const int* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    unsigned* o = out + 6 * i;
    int all_pos = __all_sync(0xffffffffu, v >= 0);
    int any_big = __any_sync(0xffffffffu, (v % 97) == 5);
    unsigned ballot = __ballot_sync(0xffffffffu, (v * 7) % 3 == 0);
    unsigned in_branch = 0, active = 0;
    if ((threadIdx.x % 3) == 0) {                      // divergent: a subset of the warp
        active = __activemask();
        in_branch = __ballot_sync(active, v & 1);
    }
    if (i < n) {
        o[0] = (unsigned)all_pos;
        o[1] = (unsigned)any_big;
        o[2] = ballot;
        o[3] = (unsigned)__popc(ballot);
        o[4] = in_branch;
        o[5] = active;
    }
}

// Works with any block size, including partial warps (e.g. 100 threads: the last warp has 4 lanes).
extern "C" __global__ void vote_partial_warp(const int* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned mask = __activemask();
    int v = (i < n) ? in[i] : 0;
    unsigned b = __ballot_sync(mask, v & 1);
    int all = __all_sync(mask, v >= 0);
    int sum = v;
    for (int off = 16; off > 0; off >>= 1) {
        int t = __shfl_down_sync(mask, sum, off);
        if ((threadIdx.x & 31) + off < 32 && (mask >> ((threadIdx.x & 31) + off)) & 1) sum += t;
    }
    if (i < n) {
        out[3 * i + 0] = mask;
        out[3 * i + 1] = b ^ (unsigned)all;
        out[3 * i + 2] = (threadIdx.x & 31) == 0 ? (unsigned)sum : 0u;
    }
}

extern "C" __global__ void match_ops(const int* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] % 5 : 0;
    long long w = (long long)(v & 1) << 40;
    int pred = 0;
    unsigned any = __match_any_sync(0xffffffffu, v);
    unsigned any64 = __match_any_sync(0xffffffffu, w);
    unsigned all = __match_all_sync(0xffffffffu, (threadIdx.x & 31) < 32 - (int)(blockIdx.x & 1) ? 7 : v, &pred);
    if (i < n) {
        out[3 * i + 0] = any;
        out[3 * i + 1] = any64;
        out[3 * i + 2] = all ^ (unsigned)pred;
    }
}

extern "C" __global__ void redux_ops(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] * 13 - 200 : 0;
    unsigned u = (unsigned)v;
    int* o = out + 6 * i;
    int r0 = (int)__reduce_add_sync(0xffffffffu, u);
    int r1 = __reduce_min_sync(0xffffffffu, v);
    int r2 = __reduce_max_sync(0xffffffffu, v);
    int r3 = (int)__reduce_and_sync(0xffffffffu, u | 0x100u);
    int r4 = (int)__reduce_or_sync(0xffffffffu, u & 0xf0f0u);
    int r5 = (int)(__reduce_xor_sync(0xffffffffu, u) ^ __reduce_max_sync(0xffffffffu, u));
    if (i < n) { o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = r4; o[5] = r5; }
}
