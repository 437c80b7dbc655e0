// Control flow: dense and sparse switches, loops whose lanes exit at different iterations,
// nested loops with break/continue, early returns, and divergence nested inside divergence.

extern "C" __global__ void switch_dense(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i], v = i;
    switch (x & 15) {
        case 0: v = v * 3 + 1; break;
        case 1: v = v ^ 0x55; break;
        case 2: v = v << 3; break;
        case 3: v = v - 17; break;
        case 4: v = __popc(v); break;
        case 5: v = (int)__brev((unsigned)v); break;
        case 6: v = v * v; break;
        case 7: v = v / 7; break;
        case 8: v = __clz(v); break;
        case 9: v = v % 13; break;
        case 10: v = v + v + 1; break;
        case 11: v = ~v; break;
        case 12:                                        // fall through
        case 13: v = -v; break;
        default: v = 0;
    }
    out[i] = v;
}

extern "C" __global__ void switch_sparse(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int r;
    switch (in[i] * 37 % 1000) {
        case 1: r = 10; break;
        case 37: r = 20; break;
        case 74: r = 30; break;
        case 500: r = 40; break;
        case 999: r = 50; break;
        default: r = in[i] & 7;
    }
    out[i] = r;
}

// Collatz steps: every lane leaves the loop at its own iteration.
extern "C" __global__ void loop_divergent_exit(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long x = (unsigned long long)in[i] + 1;
    int steps = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        ++steps;
        if (steps >= 500) break;                        // second exit
    }
    out[i] = steps;
}

extern "C" __global__ void nested_loops(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int acc = 0, limit = in[i] % 13;
    for (int a = 0; a < limit; ++a) {
        if (a % 3 == 1) continue;
        for (int b = a; b < 2 * limit; ++b) {
            if ((a * b) % 7 == 6) break;
            acc += a ^ b;
        }
        if (acc > 400) goto done;
    }
    acc = -acc;
done:
    out[i] = acc;
}

extern "C" __global__ void early_return_nested(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    out[i] = -1;
    if (v % 5 == 0) return;                              // some lanes leave early
    int r = 0;
    if (v & 1) {
        if (v & 2) r = v * 3;
        else { for (int k = 0; k < (v & 7); ++k) r += k; }
    } else {
        r = (v & 4) ? v / 2 : v + 100;
        if (r > 50) return;
    }
    out[i] = r;
}
