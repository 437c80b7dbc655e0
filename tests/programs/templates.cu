// Templated kernels: one map kernel instantiated for float, double and int with functors, a templated
// block size as a compile-time constant, and a kernel templated on a struct type.
#include <vector>
#include "common.h"

template <class T>
struct Axpb {
    T a, b;
    __device__ __host__ T operator()(T x) const { return a * x + b; }
};

template <class T>
struct Clamp {
    T lo, hi;
    __device__ __host__ T operator()(T x) const { return x < lo ? lo : (x > hi ? hi : x); }
};

template <class T, class F>
__global__ void map(const T* in, T* out, int n, F f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f(in[i]);
}

template <int BLOCK, class T>
__global__ void block_max(const T* in, T* out) {
    __shared__ T s[BLOCK];
    s[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride && s[threadIdx.x + stride] > s[threadIdx.x]) s[threadIdx.x] = s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

struct Particle {
    float x, y, vx, vy;
};

template <class P>
__global__ void step(P* p, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].x += p[i].vx * dt;
        p[i].y += p[i].vy * dt;
    }
}

template <class T, class F>
static int check_map(const char* name, F f, int n) {
    std::vector<T> h(n), got(n);
    for (int i = 0; i < n; ++i) h[i] = (T)(i % 50) - (T)20;
    T *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(T)));
    CHECK(cudaMalloc(&out, n * sizeof(T)));
    CHECK(cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    map<<<(n + 127) / 128, 128>>>(in, out, n, f);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += got[i] != f(h[i]);
    printf("map<%s>: out[0] = %g, %d wrong\n", name, (double)got[0], wrong);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return wrong;
}

int main() {
    int wrong = 0;
    wrong += check_map<float>("float, Axpb", Axpb<float>{1.5f, 0.25f}, 1000);
    wrong += check_map<double>("double, Axpb", Axpb<double>{-2.0, 1.0 / 3.0}, 1000);
    wrong += check_map<int>("int, Clamp", Clamp<int>{-5, 17}, 1000);

    const int blocks = 16;
    std::vector<int> h(blocks * 128), got(blocks);
    for (int i = 0; i < blocks * 128; ++i) h[i] = (i * 7919) % 1009;
    int *in, *out;
    CHECK(cudaMalloc(&in, h.size() * sizeof(int)));
    CHECK(cudaMalloc(&out, blocks * sizeof(int)));
    CHECK(cudaMemcpy(in, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
    block_max<128, int><<<blocks, 128>>>(in, out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong_max = 0;
    for (int b = 0; b < blocks; ++b) {
        int m = h[b * 128];
        for (int j = 1; j < 128; ++j) m = h[b * 128 + j] > m ? h[b * 128 + j] : m;
        wrong_max += got[b] != m;
    }
    printf("block_max<128, int>: block 0 max = %d, %d wrong\n", got[0], wrong_max);

    const int np = 300;
    std::vector<Particle> ps(np);
    for (int i = 0; i < np; ++i) ps[i] = {(float)i, 0.0f, 1.0f, (float)(i % 3)};
    Particle* dp;
    CHECK(cudaMalloc(&dp, np * sizeof(Particle)));
    CHECK(cudaMemcpy(dp, ps.data(), np * sizeof(Particle), cudaMemcpyHostToDevice));
    for (int k = 0; k < 4; ++k) step<<<(np + 63) / 64, 64>>>(dp, np, 0.5f);
    CHECK_LAUNCH();
    std::vector<Particle> back(np);
    CHECK(cudaMemcpy(back.data(), dp, np * sizeof(Particle), cudaMemcpyDeviceToHost));
    int wrong_p = 0;
    for (int i = 0; i < np; ++i) wrong_p += back[i].x != (float)i + 2.0f || back[i].y != 2.0f * (float)(i % 3);
    printf("step<Particle> x4: p[2] = (%g, %g), %d wrong\n", back[2].x, back[2].y, wrong_p);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(dp));
    return finish(wrong == 0 && wrong_max == 0 && wrong_p == 0);
}
