// Comparisons and selects: signed/unsigned integer compares, ordered/unordered float compares,
// min/max/abs, predicate logic and branch-free selects.

extern "C" __global__ void cmp_select_int(const int* a, const int* b, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i] * 2654435 - 1000000, y = b[i] * 40503 - 300000;
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    int* o = out + 8 * i;
    o[0] = x < y ? x : y;
    o[1] = max(x, y);
    o[2] = (int)min(ux, uy);
    o[3] = (int)max(ux, uy);
    o[4] = abs(x) - abs(y);
    o[5] = (x < y) + 2 * (ux < uy) + 4 * (x == y) + 8 * (x >= 0) + 16 * (uy > 1000u);
    o[6] = ((x & 1) && (y & 2)) || (x > y) ? x ^ y : x + y;
    o[7] = (x > 0) != (y > 0) ? -1 : 1;
}

extern "C" __global__ void cmp_select_float(const float* a, const float* b, int* out, float* outf, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i] - 10.0f, y = b[i] * 0.5f - 8.0f;
    if (i % 7 == 3) y = __int_as_float(0x7fc00000);   // NaN: unordered comparisons
    int bits = 0;
    bits |= (x < y) << 0;
    bits |= (x <= y) << 1;
    bits |= (x == y) << 2;
    bits |= (x != y) << 3;                            // true for NaN (unordered)
    bits |= !(x >= y) << 4;                           // setp.ltu
    bits |= (int)isnan(y) << 5;
    bits |= (int)isfinite(x) << 6;
    bits |= (int)signbit(x) << 7;
    out[i] = bits;
    outf[2 * i + 0] = x > y ? x : y;                  // selp with NaN
    outf[2 * i + 1] = fmaxf(x, y) - fminf(x, y);      // NaN-suppressing max/min
}
