// tests/hardware/slowpath/measure_slow_path.cu — the launches of tests/sass/specs/slow_*.json on the GPU, for
// Nsight Compute to count (measure.sh): the kernels of tests/sass/cases/slow_path.cu with the specs' inputs.
#include <cstdio>
#include <cstring>
#include <vector>

#include "../../sass/cases/slow_path.cu"

static float from_bits(unsigned u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

int main() {
    const int n = 1000;
    std::vector<float> iota1(n), iota0(n), three(n, 3.0f), sub(n, from_bits(1u)), huge(n, 1e38f);
    for (int i = 0; i < n; ++i) iota1[i] = float(i + 1), iota0[i] = float(i);
    float *a, *b, *q;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    cudaMalloc(&q, n * 4);
    const std::vector<float>* divisors[] = {&three, &sub, &iota0};  // normal, subnormal, by zero
    cudaMemcpy(a, iota1.data(), n * 4, cudaMemcpyHostToDevice);
    for (auto* d : divisors) {
        cudaMemcpy(b, d->data(), n * 4, cudaMemcpyHostToDevice);
        divide<<<4, 256>>>(a, b, q, n);
        cudaDeviceSynchronize();
    }
    reciprocal<<<4, 256>>>(a, q, n);  // normal
    cudaMemcpy(a, huge.data(), n * 4, cudaMemcpyHostToDevice);
    reciprocal<<<4, 256>>>(a, q, n);  // 1e38
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("%s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
