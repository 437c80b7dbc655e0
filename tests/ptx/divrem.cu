// Division and remainder: signed and unsigned, 32 and 64 bits, by variables and by constants.

extern "C" __global__ void divrem_s32(const int* a, const int* b, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i] * 7919 - 500000;
    int d = (b[i] % 97) - 48;
    if (d == 0) d = 1;
    out[4 * i + 0] = x / d;
    out[4 * i + 1] = x % d;
    out[4 * i + 2] = x / 7 + x % 10;                  // constants: mul.hi sequences
    out[4 * i + 3] = x / -3 + (x % 1024);
}

extern "C" __global__ void divrem_u32(const unsigned* a, const unsigned* b, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i] * 2654435761u;
    unsigned d = (b[i] * 40503u >> 7) | 1u;
    out[4 * i + 0] = x / d;
    out[4 * i + 1] = x % d;
    out[4 * i + 2] = x / 1000u + x % 3u;
    out[4 * i + 3] = x / 64u + x % 16u;
}

extern "C" __global__ void divrem_s64(const long long* a, const long long* b, long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i] * 6364136223846793005LL - (1LL << 40);
    long long d = b[i] * 1000003LL - 123456789LL;
    if (d == 0) d = 1;
    out[3 * i + 0] = x / d;
    out[3 * i + 1] = x % d;
    out[3 * i + 2] = x / 10 - x % 7;
}

extern "C" __global__ void divrem_u64(const unsigned long long* a, const unsigned long long* b,
                                      unsigned long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long x = a[i] * 0x9e3779b97f4a7c15ull;
    unsigned long long d = ((b[i] + 1) * 0xff51afd7ed558ccdull) >> (b[i] & 31);
    if (d == 0) d = 3;
    out[3 * i + 0] = x / d;
    out[3 * i + 1] = x % d;
    out[3 * i + 2] = x / 1000000007ull + x % 255ull;
}
