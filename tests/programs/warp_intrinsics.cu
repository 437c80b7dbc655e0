// Warp-level primitives: __shfl_sync (broadcast), __shfl_xor_sync (butterfly sum), __shfl_up_sync (warp
// scan), __ballot_sync and __popc, __any_sync / __all_sync, __match_any_sync, in partial and full warps.
#include <vector>
#include "common.h"

__global__ void warp_ops(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = i < n ? in[i] : 0;
    int first = __shfl_sync(0xffffffffu, v, 0);
    int sum = v;
    for (int m = 16; m > 0; m >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, m);
    int scan = v;
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(0xffffffffu, scan, d);
        if (lane >= d) scan += up;
    }
    unsigned odd = __ballot_sync(0xffffffffu, v & 1);
    int any_big = __any_sync(0xffffffffu, v > 90);
    int all_pos = __all_sync(0xffffffffu, v >= 0);
    unsigned same = __match_any_sync(0xffffffffu, v % 4);
    if (i < n) {
        out[6 * i + 0] = first;
        out[6 * i + 1] = sum;
        out[6 * i + 2] = scan;
        out[6 * i + 3] = __popc(odd);
        out[6 * i + 4] = any_big * 2 + all_pos;
        out[6 * i + 5] = __popc(same);
    }
}

int main() {
    const int n = 1000;  // 31 full warps and a partial one (8 lanes)
    std::vector<int> h(n), got(6 * n);
    for (int i = 0; i < n; ++i) h[i] = (i * 37) % 97;
    int *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, 6 * n * sizeof(int)));
    CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    warp_ops<<<(n + 127) / 128, 128>>>(in, out, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), out, 6 * n * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int w = 0; w * 32 < n; ++w) {
        int base = w * 32;
        auto val = [&](int lane) { return base + lane < n ? h[base + lane] : 0; };
        int sum = 0, odd = 0, any_big = 0, all_pos = 1;
        for (int l = 0; l < 32; ++l) {
            sum += val(l);
            odd += val(l) & 1;
            any_big |= val(l) > 90;
            all_pos &= val(l) >= 0;
        }
        int scan = 0;
        for (int l = 0; l < 32 && base + l < n; ++l) {
            scan += val(l);
            int same = 0;
            for (int k = 0; k < 32; ++k) same += val(k) % 4 == val(l) % 4;
            const int* o = &got[6 * (base + l)];
            wrong += o[0] != val(0);
            wrong += o[1] != sum;
            wrong += o[2] != scan;
            wrong += o[3] != odd;
            wrong += o[4] != any_big * 2 + all_pos;
            wrong += o[5] != same;
        }
    }
    printf("warp primitives over %d lanes: lane 999 sum %d scan %d ballot %d, %d wrong\n", n, got[6 * 999 + 1],
           got[6 * 999 + 2], got[6 * 999 + 3], wrong);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return finish(wrong == 0);
}
