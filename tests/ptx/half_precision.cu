// Half and bfloat16 arithmetic through cuda_fp16.h / cuda_bf16.h: scalar, paired (half2) and
// comparisons. Buffers hold raw f16 / bf16 elements.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void half_scalar(const __half* a, const __half* b, __half* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = __hmul(a[i], __float2half(0.01f));
    __half y = __hadd(b[i], __float2half(-3.5f));
    __half* o = out + 8 * i;
    o[0] = __hadd(x, y);
    o[1] = __hsub(x, y);
    o[2] = __hmul(x, y);
    o[3] = __hfma(x, y, __float2half(0.25f));
    o[4] = __hneg(x);
    o[5] = __habs(y);
    o[6] = __hmin(x, y);
    o[7] = __hadd_sat(x, y);                          // clamps to [0, 1]
}

extern "C" __global__ void half2_vector(const __half2* a, const __half2* b, __half2* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 x = __hmul2(a[i], __float2half2_rn(0.01f));
    __half2 y = __hsub2(b[i], __floats2half2_rn(2.0f, -1.0f));
    __half2* o = out + 6 * i;
    o[0] = __hadd2(x, y);
    o[1] = __hmul2(x, y);
    o[2] = __hfma2(x, y, __float2half2_rn(1.5f));
    o[3] = __hmax2(x, y);
    o[4] = __lowhigh2highlow(__hneg2(x));
    o[5] = __halves2half2(__low2half(x), __high2half(y));
}

extern "C" __global__ void half_compare(const __half* a, const __half* b, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = a[i], y = __hmul(b[i], __float2half(0.5f));
    __half2 x2 = __halves2half2(x, y), y2 = __halves2half2(y, x);
    unsigned bits = 0;
    bits |= (unsigned)__hlt(x, y) << 0;
    bits |= (unsigned)__hle(x, y) << 1;
    bits |= (unsigned)__heq(x, y) << 2;
    bits |= (unsigned)__hne(x, y) << 3;
    bits |= (unsigned)__hgt(x, y) << 4;
    bits |= (unsigned)__hge(x, y) << 5;
    bits |= (unsigned)__hisnan(__hdiv(__hsub(x, x), __hsub(y, y))) << 6;
    bits |= (unsigned)__hbgt2(x2, y2) << 7;
    out[2 * i + 0] = bits;
    __half2 lt = __hlt2(x2, y2);                      // 1.0 / 0.0 per half
    out[2 * i + 1] = ((unsigned)__half_as_ushort(__high2half(lt)) << 16 | __half_as_ushort(__low2half(lt)))
                     ^ __hle2_mask(x2, y2);
}

extern "C" __global__ void bf16_arith(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = __hmul(a[i], __float2bfloat16(0.01f));
    __nv_bfloat16 y = __hsub(b[i], __float2bfloat16(7.0f));
    __nv_bfloat162 x2 = __halves2bfloat162(x, y), y2 = __halves2bfloat162(y, x);
    __nv_bfloat162 f2 = __hfma2(x2, y2, __float2bfloat162_rn(0.5f));
    __nv_bfloat16* o = out + 6 * i;
    o[0] = __hadd(x, y);
    o[1] = __hmul(x, y);
    o[2] = __hfma(x, y, __float2bfloat16(1.0f));
    o[3] = __hmax(x, y);
    o[4] = __low2bfloat16(f2);
    o[5] = __high2bfloat16(__hmul2(f2, x2));
}
