// 8- and 16-bit integers in memory: loads with sign/zero extension, narrowing stores, char and
// short arithmetic promoted to int.

extern "C" __global__ void small_int_types(const signed char* s8, const unsigned char* u8, const short* s16,
                                           const unsigned short* u16, signed char* o8, short* o16,
                                           int* o32, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    signed char a = s8[i];
    unsigned char b = u8[i];
    short c = s16[i];
    unsigned short d = u16[i];
    o8[i] = (signed char)(a * 3 + b);                    // wraps
    o16[i] = (short)(c * 7 - d);
    o32[2 * i + 0] = a + b + c + d;                      // sign- and zero-extended sums
    o32[2 * i + 1] = (int)(unsigned char)(a ^ b) << 16 | (unsigned short)(c >> 3);
}

// Byte-granular global accesses: sector counts for 1- and 2-byte elements.
extern "C" __global__ void byte_copy_strided(const unsigned char* in, unsigned char* out, int n, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i * stride] + 1;
}
