// Local memory and aggregates: arrays indexed at run time (forced into .local), structs passed to
// kernels by value (.param .align N .b8 name[size]).

extern "C" __global__ void local_array_dynamic(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int table[32];                                     // indexed by data: lives in local memory
    for (int k = 0; k < 32; ++k) table[k] = in[(i + k) % n] * (k + 1);
    int idx = in[i] & 31;
    table[(idx * 5) & 31] += 1000;
    int s = 0;
    for (int k = 0; k < 8; ++k) s += table[(idx + k * 3) & 31];
    out[i] = s;
}

extern "C" __global__ void local_array_sort(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v[16];
    for (int k = 0; k < 16; ++k) v[k] = in[(i * 16 + k * 7) % n];
    for (int a = 1; a < 16; ++a) {                     // insertion sort with data-dependent indices
        float key = v[a];
        int b = a - 1;
        while (b >= 0 && v[b] > key) { v[b + 1] = v[b]; --b; }
        v[b + 1] = key;
    }
    out[2 * i + 0] = v[0] + v[15];
    out[2 * i + 1] = v[i & 15];
}

struct Params {                                        // 24 bytes, 8-byte aligned
    int a;
    int b;
    float scale;
    double offset;
};

struct Pair {                                          // 8 bytes, 4-byte aligned
    int x;
    int y;
};

struct Coeffs {                                        // 20 bytes, 4-byte aligned
    float c[4];
    int count;
};

extern "C" __global__ void struct_by_value(Params p, const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = (float)((in[i] * p.scale + (float)(p.a * i + p.b)) + p.offset);
}

extern "C" __global__ void struct_small_pair(Pair lo_hi, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = min(max(i, lo_hi.x), lo_hi.y);
}

extern "C" __global__ void struct_with_array(const float* in, Coeffs c, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i] * 0.01f, acc = 0.0f;
    for (int k = c.count - 1; k >= 0; --k) acc = acc * x + c.c[k & 3];   // Horner
    out[i] = acc;
}
