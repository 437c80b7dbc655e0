// Bitonic sort of 2^16 keys: the small stages inside shared memory, the large ones as global passes, then
// checked to be sorted and to be a permutation of the input.
#include <algorithm>
#include <vector>
#include "common.h"

constexpr int SHARED_N = 1024;

// Sorts each SHARED_N-element segment, alternating direction as the full network needs.
__global__ void bitonic_shared(unsigned* keys) {
    __shared__ unsigned s[SHARED_N];
    int base = blockIdx.x * SHARED_N, t = threadIdx.x;
    s[t] = keys[base + t];
    s[t + SHARED_N / 2] = keys[base + t + SHARED_N / 2];
    for (int size = 2; size <= SHARED_N; size <<= 1) {
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            int pos = 2 * t - (t & (stride - 1));
            int global_pos = base + pos;
            bool up = ((global_pos & size) == 0);
            unsigned a = s[pos], b = s[pos + stride];
            if ((a > b) == up) {
                s[pos] = b;
                s[pos + stride] = a;
            }
        }
    }
    __syncthreads();
    keys[base + t] = s[t];
    keys[base + t + SHARED_N / 2] = s[t + SHARED_N / 2];
}

__global__ void bitonic_global_step(unsigned* keys, int n, int size, int stride) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n / 2) return;
    int pos = 2 * t - (t & (stride - 1));
    bool up = ((pos & size) == 0);
    unsigned a = keys[pos], b = keys[pos + stride];
    if ((a > b) == up) {
        keys[pos] = b;
        keys[pos + stride] = a;
    }
}

// Finishes a merge once stride fits in shared memory.
__global__ void bitonic_shared_merge(unsigned* keys, int size) {
    __shared__ unsigned s[SHARED_N];
    int base = blockIdx.x * SHARED_N, t = threadIdx.x;
    s[t] = keys[base + t];
    s[t + SHARED_N / 2] = keys[base + t + SHARED_N / 2];
    for (int stride = SHARED_N / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        int pos = 2 * t - (t & (stride - 1));
        bool up = (((base + pos) & size) == 0);
        unsigned a = s[pos], b = s[pos + stride];
        if ((a > b) == up) {
            s[pos] = b;
            s[pos + stride] = a;
        }
    }
    __syncthreads();
    keys[base + t] = s[t];
    keys[base + t + SHARED_N / 2] = s[t + SHARED_N / 2];
}

int main() {
    const int n = 1 << 16;
    std::vector<unsigned> h(n), got(n);
    unsigned state = 2024;
    for (int i = 0; i < n; ++i) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        h[i] = state % 100000;
    }
    unsigned* keys;
    CHECK(cudaMalloc(&keys, n * sizeof(unsigned)));
    CHECK(cudaMemcpy(keys, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    bitonic_shared<<<n / SHARED_N, SHARED_N / 2>>>(keys);
    CHECK(cudaGetLastError());
    int launches = 1;
    for (int size = 2 * SHARED_N; size <= n; size <<= 1) {
        for (int stride = size / 2; stride >= SHARED_N; stride >>= 1) {
            bitonic_global_step<<<n / 2 / 256, 256>>>(keys, n, size, stride);
            ++launches;
        }
        bitonic_shared_merge<<<n / SHARED_N, SHARED_N / 2>>>(keys, size);
        ++launches;
    }
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), keys, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    bool sorted = std::is_sorted(got.begin(), got.end());
    std::vector<unsigned> want = h;
    std::sort(want.begin(), want.end());
    bool same = want == got;
    printf("bitonic sort of %d keys in %d launches: first %u, last %u, sorted %s, permutation %s\n", n,
           launches, got[0], got[n - 1], sorted ? "yes" : "no", same ? "yes" : "no");
    CHECK(cudaFree(keys));
    return finish(sorted && same);
}
