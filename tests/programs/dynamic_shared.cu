// Dynamic shared memory: the seed's reverse_blocks with extern __shared__ sized at launch, then a block that
// opts into 100 KB with cudaFuncSetAttribute, and the static + dynamic total read back from the attributes.
#include <vector>
#include "common.h"

__global__ void reverse_blocks(const float* in, float* out, int n) {
    extern __shared__ float s[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    out[i] = s[blockDim.x - 1 - t];
}

// Each block stages `per_block` floats (more than 48 KB) and writes them back rotated by one.
__global__ void rotate_big(const float* in, float* out, int per_block) {
    extern __shared__ float s[];
    const float* src = in + (size_t)blockIdx.x * per_block;
    for (int k = threadIdx.x; k < per_block; k += blockDim.x) s[k] = src[k];
    __syncthreads();
    float* dst = out + (size_t)blockIdx.x * per_block;
    for (int k = threadIdx.x; k < per_block; k += blockDim.x) dst[k] = s[(k + 1) % per_block];
}

int main() {
    const int n = 4096;
    std::vector<float> h(n), got(n);
    for (int i = 0; i < n; ++i) h[i] = (float)i;
    float *in, *out;
    CHECK(cudaMalloc(&in, 4 * 25600 * sizeof(float)));
    CHECK(cudaMalloc(&out, 4 * 25600 * sizeof(float)));
    CHECK(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    reverse_blocks<<<n / 256, 256, 256 * sizeof(float)>>>(in, out, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += got[i] != h[(i / 256) * 256 + 255 - i % 256];
    printf("reverse_blocks: out[0] = %g, out[256] = %g, %d wrong\n", got[0], got[256], wrong);

    const int per_block = 25600;  // 100 KB of floats
    const size_t bytes = per_block * sizeof(float);
    std::vector<float> big(4 * per_block), back(4 * per_block);
    for (int i = 0; i < 4 * per_block; ++i) big[i] = (float)(i % 9973);
    CHECK(cudaMemcpy(in, big.data(), big.size() * sizeof(float), cudaMemcpyHostToDevice));
    rotate_big<<<4, 512, bytes>>>(in, out, per_block);
    cudaError_t before = cudaGetLastError();
    printf("100 KB of dynamic shared memory without opting in: %s\n", cudaGetErrorName(before));
    CHECK(cudaFuncSetAttribute(rotate_big, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, rotate_big));
    printf("rotate_big: maxDynamicSharedSizeBytes = %d\n", attr.maxDynamicSharedSizeBytes);
    rotate_big<<<4, 512, bytes>>>(in, out, per_block);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(back.data(), out, back.size() * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong_big = 0;
    for (int b = 0; b < 4; ++b)
        for (int k = 0; k < per_block; ++k)
            wrong_big += back[b * per_block + k] != big[b * per_block + (k + 1) % per_block];
    printf("rotate_big with 100 KB opted in: %d wrong\n", wrong_big);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return finish(wrong == 0 && before != cudaSuccess && attr.maxDynamicSharedSizeBytes == (int)bytes &&
                  wrong_big == 0);
}
