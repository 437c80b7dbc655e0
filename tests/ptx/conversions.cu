// Conversions: float <-> integers of every width with each rounding mode, half and bfloat16,
// double <-> float, saturation, reinterpretation, sign and zero extension.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ __forceinline__ float wide_value(float v, int i) {
    // Spans small fractions, negative values and values beyond int16/int32 range.
    float scale = (i % 4 == 0) ? 1.0f : (i % 4 == 1) ? 137.5f : (i % 4 == 2) ? 40000.0f : 3.0e9f;
    return (v - 20.3f) * scale;
}

extern "C" __global__ void cvt_f32_to_int(const float* in, int* out32, long long* out64, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = wide_value(in[i], i);
    int* o = out32 + 8 * i;
    o[0] = __float2int_rn(x);
    o[1] = __float2int_rz(x);
    o[2] = __float2int_ru(x);
    o[3] = __float2int_rd(x);
    o[4] = (int)__float2uint_rz(x);
    o[5] = (int)__float2uint_rn(fabsf(x));
    o[6] = (int)(short)__float2int_rz(x * 0.001f);    // narrowed after conversion
    o[7] = (int)(signed char)__float2int_rz(x * 0.01f);
    out64[2 * i + 0] = __float2ll_rn(x) + __float2ll_rd(x * 0.5f);
    out64[2 * i + 1] = (long long)(__float2ull_rz(fabsf(x)) ^ __float2ull_ru(fabsf(x) * 0.25f));
}

extern "C" __global__ void cvt_int_to_float(const int* in, float* outf, double* outd, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i] * 1664525 + 1013904223;             // uses all 32 bits
    unsigned u = (unsigned)v;
    long long w = (long long)v * 4294967311LL;
    float* o = outf + 8 * i;
    o[0] = __int2float_rn(v);
    o[1] = __int2float_rz(v);
    o[2] = __uint2float_ru(u);
    o[3] = __uint2float_rd(u);
    o[4] = __ll2float_rn(w);
    o[5] = __ull2float_rz((unsigned long long)w);
    o[6] = (float)(short)v + (float)(unsigned char)v;
    o[7] = (float)u;
    outd[2 * i + 0] = __ll2double_rn(w) + (double)u;
    outd[2 * i + 1] = (double)v * 0.5;
}

extern "C" __global__ void cvt_half_bf16(const float* in, unsigned short* out16, float* outf, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = (in[i] - 20.3f) * ((i & 1) ? 1.001f : 3100.7f);   // some beyond the half range
    __half h_rn = __float2half_rn(x);
    __half h_rz = __float2half_rz(x);
    __nv_bfloat16 b_rn = __float2bfloat16_rn(x);
    __nv_bfloat16 b_rz = __float2bfloat16_rz(x);
    unsigned short* o = out16 + 6 * i;
    o[0] = __half_as_ushort(h_rn);
    o[1] = __half_as_ushort(h_rz);
    o[2] = __bfloat16_as_ushort(b_rn);
    o[3] = __bfloat16_as_ushort(b_rz);
    o[4] = __half_as_ushort(__float2half_ru(x)) ^ __half_as_ushort(__float2half_rd(x));
    o[5] = __half_as_ushort(__int2half_rn(i - 300)) ^ __bfloat16_as_ushort(__int2bfloat16_rn(i * 7));
    outf[3 * i + 0] = __half2float(h_rn);
    outf[3 * i + 1] = __bfloat162float(b_rn);
    outf[3 * i + 2] = (float)__half2int_rz(h_rz) + __low2float(__floats2half2_rn(x, -x));
}

extern "C" __global__ void cvt_double_float(const double* in, float* outf, double* outd, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double d = (in[i] + 0.1) * 1.0000000001 * ((i & 1) ? 1.0e-40 : 3.3);
    float* o = outf + 5 * i;
    o[0] = __double2float_rn(d);
    o[1] = __double2float_rz(d);
    o[2] = __double2float_ru(d);
    o[3] = __double2float_rd(d);
    o[4] = (float)__double2int_rz(d * 1000.0) + (float)__double2ll_rn(d);
    outd[2 * i + 0] = (double)o[0];
    outd[2 * i + 1] = __hiloint2double(__double2hiint(d), __double2loint(d) ^ 1);
}

extern "C" __global__ void cvt_saturate_reinterpret(const float* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = (in[i] - 20.0f) * 0.07f;
    unsigned* o = out + 6 * i;
    o[0] = __float_as_uint(__saturatef(x));
    unsigned short u8;                                // cvt.rni.sat.u8.f32 into a 16-bit register
    asm("cvt.rni.sat.u8.f32 %0, %1;" : "=h"(u8) : "f"(x * 100.0f));
    o[1] = u8;
    int s8;
    asm("cvt.rzi.sat.s8.f32 %0, %1;" : "=r"(s8) : "f"(x * 100.0f));
    o[2] = (unsigned)s8;
    o[3] = __float_as_uint(__int_as_float((int)(0x3f800000u + (unsigned)i)));
    o[4] = (unsigned)(int)(signed char)(i * 37) ^ ((unsigned)(unsigned short)(i * 4099) << 8);
    o[5] = __float_as_uint((float)(long long)x) ^ __float_as_uint(__uint_as_float(0x7f800000u) * 0.0f);
}
