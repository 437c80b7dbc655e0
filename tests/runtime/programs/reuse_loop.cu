// Repeated launches: a timing-style loop of identical launches (their results are reused), a memset before
// each launch (the earlier result is replayed onto the cleared buffer), and an in-place kernel whose launches
// all differ in effect (x += 1 must run every time). Prints PASS when every result is right.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void vadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void bump(int* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1;
}

__global__ void hello(int round) {
    if (threadIdx.x == 0) printf("hello from round %d\n", round);
}

int main() {
    const int n = 1 << 16;
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; ++i) { a[i] = (float)i; b[i] = 2.0f * (float)i; }
    float *da, *db, *dc;
    cudaMalloc(&da, n * sizeof(float));
    cudaMalloc(&db, n * sizeof(float));
    cudaMalloc(&dc, n * sizeof(float));
    cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    long wrong = 0;
    for (int r = 0; r < 20; ++r) vadd<<<n / 256, 256>>>(da, db, dc, n);
    for (int r = 0; r < 5; ++r) {
        cudaMemset(dc, 0, n * sizeof(float));
        vadd<<<n / 256, 256>>>(da, db, dc, n);
        cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
    }
    // A changed input must be seen: the next launch is simulated again.
    a[5] = 1000.0f;
    cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    vadd<<<n / 256, 256>>>(da, db, dc, n);
    cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
    wrong += c[5] != 1010.0f;

    int* dx;
    cudaMalloc(&dx, n * sizeof(int));
    cudaMemset(dx, 0, n * sizeof(int));
    for (int r = 0; r < 7; ++r) bump<<<n / 256, 256>>>(dx, n);
    std::vector<int> x(n);
    cudaMemcpy(x.data(), dx, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) wrong += x[i] != 7;
    for (int r = 0; r < 2; ++r) hello<<<1, 32>>>(7);
    cudaDeviceSynchronize();
    printf("wrong: %ld\n%s\n", wrong, wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
