// A 1D seven-point stencil with halos staged in shared memory, and a 2D five-point Jacobi sweep repeated
// ten times between two buffers; both compared exactly with the host (integer-valued data).
#include <vector>
#include "common.h"

constexpr int R = 3, BLOCK = 256;

__global__ void stencil_1d(const int* in, int* out, int n) {
    __shared__ int s[BLOCK + 2 * R];
    int g = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x + R;
    s[l] = g < n ? in[g] : 0;
    if (threadIdx.x < R) {
        s[l - R] = g - R >= 0 && g - R < n ? in[g - R] : 0;
        s[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
    }
    __syncthreads();
    if (g < n) {
        int v = 0;
        for (int k = -R; k <= R; ++k) v += s[l + k];
        out[g] = v;
    }
}

__global__ void jacobi(const float* a, float* b, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x <= 0 || y <= 0 || x >= w - 1 || y >= h - 1) return;
    b[y * w + x] = 0.25f * (a[y * w + x - 1] + a[y * w + x + 1] + a[(y - 1) * w + x] + a[(y + 1) * w + x]);
}

int main() {
    const int n = 10000;
    std::vector<int> h(n), got(n);
    for (int i = 0; i < n; ++i) h[i] = i % 11 - 5;
    int *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    stencil_1d<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
        int v = 0;
        for (int k = -R; k <= R; ++k) v += i + k >= 0 && i + k < n ? h[i + k] : 0;
        wrong += got[i] != v;
    }
    printf("1D stencil radius %d over %d: out[0] = %d, out[5000] = %d, %d wrong\n", R, n, got[0], got[5000], wrong);

    const int w = 96, hh = 64, sweeps = 10;
    std::vector<float> a(w * hh, 0.0f);
    for (int x = 0; x < w; ++x) a[x] = 64.0f;  // hot top edge
    std::vector<float> ref = a, tmp = a;
    for (int s = 0; s < sweeps; ++s) {
        for (int y = 1; y < hh - 1; ++y)
            for (int x = 1; x < w - 1; ++x)
                tmp[y * w + x] = 0.25f * (ref[y * w + x - 1] + ref[y * w + x + 1] + ref[(y - 1) * w + x] +
                                          ref[(y + 1) * w + x]);
        ref.swap(tmp);
    }
    float *da, *db;
    CHECK(cudaMalloc(&da, w * hh * sizeof(float)));
    CHECK(cudaMalloc(&db, w * hh * sizeof(float)));
    CHECK(cudaMemcpy(da, a.data(), w * hh * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, a.data(), w * hh * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(32, 8), grid(w / 32, hh / 8);
    for (int s = 0; s < sweeps; ++s) {
        jacobi<<<grid, block>>>(da, db, w, hh);
        float* t = da;
        da = db;
        db = t;
    }
    CHECK_LAUNCH();
    std::vector<float> res(w * hh);
    CHECK(cudaMemcpy(res.data(), da, w * hh * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong2d = 0;
    for (int i = 0; i < w * hh; ++i) wrong2d += res[i] != ref[i];
    printf("Jacobi %dx%d, %d sweeps: centre %.6f, %d wrong\n", w, hh, sweeps, res[(hh / 2) * w + w / 2], wrong2d);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    return finish(wrong == 0 && wrong2d == 0);
}
