// Warp shuffles: idx/up/down/xor with full width and with sub-warp widths, on 32-bit, 64-bit and
// float values; a shuffle reduction; shuffles under a partial mask.

extern "C" __global__ void shfl_modes(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] * 3 + 1 : -1;
    int lane = threadIdx.x & 31;
    int* o = out + 4 * i;
    int a = __shfl_sync(0xffffffffu, v, (lane * 7) & 31);   // idx
    int b = __shfl_up_sync(0xffffffffu, v, 3);              // lanes 0..2 keep their own value
    int c = __shfl_down_sync(0xffffffffu, v, 5);            // lanes 27..31 keep their own value
    int d = __shfl_xor_sync(0xffffffffu, v, 0x11);
    if (i < n) { o[0] = a; o[1] = b; o[2] = c; o[3] = d; }
}

extern "C" __global__ void shfl_widths(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int* o = out + 8 * i;
    int r0 = __shfl_sync(0xffffffffu, v, 3, 8);             // lane 3 of each group of 8
    int r1 = __shfl_up_sync(0xffffffffu, v, 2, 16);
    int r2 = __shfl_down_sync(0xffffffffu, v, 1, 4);
    int r3 = __shfl_xor_sync(0xffffffffu, v, 5, 16);
    int r4 = __shfl_sync(0xffffffffu, v, threadIdx.x + 1, 16);   // source wraps inside the 16-lane group
    int r5 = __shfl_down_sync(0xffffffffu, v, 9, 8);        // delta beyond the width: own value
    int r6 = __shfl_up_sync(0xffffffffu, v, 1, 2);
    int r7 = __shfl_xor_sync(0xffffffffu, v, 31, 32);
    if (i < n) { o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = r4; o[5] = r5; o[6] = r6; o[7] = r7; }
}

extern "C" __global__ void shfl_types(const float* inf, const double* ind, float* outf, double* outd,
                                      long long* outl, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float f = (i < n) ? inf[i] : 0.0f;
    double d = (i < n) ? ind[i] : 0.0;
    long long l = ((long long)i << 33) | (unsigned)i;
    float rf = __shfl_xor_sync(0xffffffffu, f, 1);
    double rd = __shfl_down_sync(0xffffffffu, d, 2);        // two 32-bit shuffles
    long long rl = __shfl_sync(0xffffffffu, l, 31 - (threadIdx.x & 31));
    if (i < n) { outf[i] = rf; outd[i] = rd; outl[i] = rl; }
}

extern "C" __global__ void shfl_reduce_scan(const int* in, int* sums, int* scans, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int lane = threadIdx.x & 31;
    int s = v;
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);   // butterfly
    int scan = v;
    for (int off = 1; off < 32; off <<= 1) {                        // inclusive Hillis-Steele scan
        int t = __shfl_up_sync(0xffffffffu, scan, off);
        if (lane >= off) scan += t;
    }
    if (i < n) { scans[i] = scan; if (lane == 0) sums[i / 32] = s; }
}

// Lanes 0..15 of each warp shuffle among themselves under mask 0x0000ffff.
extern "C" __global__ void shfl_partial_mask(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = (i < n) ? in[i] : 0;
    int r = -7;
    if (lane < 16) r = __shfl_sync(0x0000ffffu, v, 15 - lane, 16);
    if (i < n) out[i] = r;
}
