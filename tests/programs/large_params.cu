// Kernel parameters passed by value: a struct of 32,000 bytes (CUDA 12.1 and later accept up to 32,764
// bytes of parameters), a small struct, and scalars of every width, read by the kernel.
#include "common.h"

struct Big {
    int values[8000];
};
struct Small {
    char c;
    double d;
    short s;
};

__global__ void sum_big(Big b, int* out) {
    int s = 0;
    for (int k = threadIdx.x; k < 8000; k += blockDim.x) s += b.values[k];
    atomicAdd(out, s);
}

__global__ void scalars(Small sm, char c, short s, int i, long long ll, float f, double d, unsigned char* out) {
    double r = sm.c + sm.d + sm.s + c + s + i + (double)ll + f + d;
    *(double*)out = r;
}

int main() {
    static Big b;
    long long want = 0;
    for (int k = 0; k < 8000; ++k) {
        b.values[k] = k % 100 - 40;
        want += b.values[k];
    }
    printf("sizeof(Big) = %zu bytes\n", sizeof(Big));
    int* out;
    CHECK(cudaMalloc(&out, sizeof(int)));
    CHECK(cudaMemset(out, 0, sizeof(int)));
    sum_big<<<1, 256>>>(b, out);
    CHECK_LAUNCH();
    int got = 0;
    CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    printf("sum of the 8000 ints passed by value: %d (host %lld)\n", got, want);
    unsigned char* r;
    CHECK(cudaMalloc(&r, 8));
    Small sm{'a', 0.5, -3};
    scalars<<<1, 1>>>(sm, 'b', (short)-300, 70000, 1LL << 40, 0.25f, -1.5, r);
    CHECK_LAUNCH();
    double res = 0;
    CHECK(cudaMemcpy(&res, r, 8, cudaMemcpyDeviceToHost));
    double want_r = 'a' + 0.5 - 3 + 'b' - 300 + 70000 + (double)(1LL << 40) + 0.25 - 1.5;
    printf("scalars: %.2f (host %.2f)\n", res, want_r);
    CHECK(cudaFree(out));
    CHECK(cudaFree(r));
    return finish(got == want && res == want_r);
}
