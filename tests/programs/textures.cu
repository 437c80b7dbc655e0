// Texture and surface objects as image-processing programs use them: tex1Dfetch over a linear buffer, tex2D
// with point and linear filtering in every address mode on float, half, uchar4 (normalized float and element
// type), 8-, 16- and 32-bit integer arrays and a pitched buffer, normalized and unnormalized coordinates (and
// where normalized ones cross a texel boundary), and surf2Dwrite/surf2Dread with clamp and zero boundaries.
// Every fetch is printed as hex bits (the whole .v4 result, the channels a format lacks included) with a
// checksum, so the simulated run must match the GPU's bits; the host checks each present channel against the
// CUDA Programming Guide's formulas (filtering to within its 8-bit weights). `textures trap` writes one
// element past a surface in trap mode and reports the error the next synchronising call returns.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>
#include "common.h"

constexpr int W = 5, H = 4, NC = 16;

// Unnormalized sample positions: texel centres, between texels, on and beyond every edge.
const float kCoords[NC][2] = {{0.5f, 0.5f},    {1.0f, 1.0f},     {1.25f, 2.75f},      {2.6f, 0.3f},
                              {4.5f, 3.5f},    {4.9f, 3.9f},     {5.5f, 1.2f},        {-0.7f, 2.2f},
                              {7.3f, -1.6f},   {2.999f, 1.001f}, {0.0f, 0.0f},        {3.1f, 4.4f},
                              {-3.2f, -0.4f},  {12.7f, 9.1f},    {1.0625f, 2.53125f}, {0.75f, 3.25f}};

template <class T>
__global__ void sample2d(cudaTextureObject_t t, const float2* c, T* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<T>(t, c[i].x, c[i].y);
}

__global__ void fetch1d(cudaTextureObject_t t, float4* out, int first, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float4>(t, first + i);
}

__global__ void fetch1d_scalar(cudaTextureObject_t t, float* out, int first, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, first + i);
}

// Writes value(x, y) to every element, and 99 one element outside each edge with the zero boundary (dropped).
__global__ void surf_write(cudaSurfaceObject_t s, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h) surf2Dwrite(1000.0f * y + x + 0.5f, s, x * 4, y);
    if (x == 0 && y < h) surf2Dwrite(99.0f, s, -4, y, cudaBoundaryModeZero);
    if (x == 0 && y < h) surf2Dwrite(99.0f, s, w * 4, y, cudaBoundaryModeZero);
}

__global__ void surf_write_uchar4(cudaSurfaceObject_t s, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h) surf2Dwrite(make_uchar4(x, y, x + y, 200 + x), s, x * 4, y);
}

// Reads from x = -2 .. w+1, y = -1 .. h: clamp, zero, and (in range) the default trap boundary.
__global__ void surf_read(cudaSurfaceObject_t s, float* clamp, float* zero, float* trap, int w, int h) {
    int x = threadIdx.x - 2, y = threadIdx.y - 1, i = threadIdx.y * blockDim.x + threadIdx.x;
    clamp[i] = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeClamp);
    zero[i] = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeZero);
    trap[i] = x >= 0 && x < w && y >= 0 && y < h ? surf2Dread<float>(s, x * 4, y) : -1.0f;
}

__global__ void surf_read_uchar4(cudaSurfaceObject_t s, uchar4* out, int w, int h) {
    int x = threadIdx.x - 1, y = threadIdx.y - 1, i = threadIdx.y * blockDim.x + threadIdx.x;
    out[i] = surf2Dread<uchar4>(s, x * 4, y, cudaBoundaryModeClamp);
}

__global__ void surf_trap(cudaSurfaceObject_t s, int w) {
    surf2Dwrite(1.0f, s, w * 4, 0);  // one element past the row: trap
}

uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

uint64_t g_total = 1469598103934665603ull;  // FNV-1a over every word printed

void print_words(const char* name, const uint32_t* w, int n) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < n; ++i)
        for (int b = 0; b < 4; ++b) {
            h = (h ^ ((w[i] >> (8 * b)) & 0xff)) * 1099511628211ull;
            g_total = (g_total ^ ((w[i] >> (8 * b)) & 0xff)) * 1099511628211ull;
        }
    printf("%s: fnv %016llx\n", name, (unsigned long long)h);
    for (int i = 0; i < n; i += 8) {
        printf("  ");
        for (int j = i; j < i + 8 && j < n; ++j) printf(" %08x", w[j]);
        printf("\n");
    }
}

// The host's reference of a fetch: address modes and filtering as the Programming Guide's texture-fetching
// appendix gives them, on the texel values `tex(x, y, channel)` already converted to float.
struct Ref {
    cudaTextureAddressMode mode;
    bool linear, normalized;
    float border[4];
};

// A normalized 8-bit unsigned format holds the border colour as its nearest texel value (saturated).
void quantize_unorm8(float* c) {
    for (int i = 0; i < 4; ++i) c[i] = rintf(fminf(fmaxf(c[i], 0.0f), 1.0f) * 255.0f) / 255.0f;
}

int wrap_index(int i, int n) { return ((i % n) + n) % n; }

// The texel index of integer position i along an axis of n texels, or -1 for the border.
int address(int i, int n, cudaTextureAddressMode m, bool normalized) {
    if (!normalized && (m == cudaAddressModeWrap || m == cudaAddressModeMirror)) m = cudaAddressModeClamp;
    switch (m) {
        case cudaAddressModeWrap: return wrap_index(i, n);
        case cudaAddressModeMirror: {
            int p = wrap_index(i, 2 * n);
            return p < n ? p : 2 * n - 1 - p;
        }
        case cudaAddressModeBorder: return i < 0 || i >= n ? -1 : i;
        default: return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

template <class Texel>
float reference(const Ref& r, Texel texel, float x, float y, int ch) {
    if (r.normalized) { x *= W; y *= H; }
    auto at = [&](int i, int j) {
        int a = address(i, W, r.mode, r.normalized), b = address(j, H, r.mode, r.normalized);
        return a < 0 || b < 0 ? r.border[ch] : texel(a, b, ch);
    };
    if (!r.linear) return at((int)floorf(x), (int)floorf(y));
    float xb = x - 0.5f, yb = y - 0.5f;
    int i = (int)floorf(xb), j = (int)floorf(yb);
    float a = xb - i, b = yb - j;
    return (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) + (1 - a) * b * at(i, j + 1) +
           a * b * at(i + 1, j + 1);
}

struct Context {
    float2* coords_unnorm;
    float2* coords_norm;
    float4* out4;
    bool ok = true;
    int checked = 0;
};

cudaTextureObject_t make_texture(const cudaResourceDesc& res, cudaTextureAddressMode mode, bool linear,
                                 bool normalized, cudaTextureReadMode read, const float* border) {
    cudaTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = mode;
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = read;
    td.normalizedCoords = normalized;
    for (int c = 0; c < 4; ++c) td.borderColor[c] = border ? border[c] : 0.0f;
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
    return t;
}

// Samples one texture at all positions (as float4), prints the bits and checks the present channels.
template <class Texel>
void run_float(Context& cx, const char* name, const cudaResourceDesc& res, int channels,
               cudaTextureAddressMode mode, bool linear, bool normalized, cudaTextureReadMode read,
               const float* border, Texel texel, bool unorm8 = false) {
    cudaTextureObject_t t = make_texture(res, mode, linear, normalized, read, border);
    sample2d<float4><<<1, NC>>>(t, normalized ? cx.coords_norm : cx.coords_unnorm, cx.out4, NC);
    CHECK_LAUNCH();
    float4 got[NC];
    CHECK(cudaMemcpy(got, cx.out4, sizeof(got), cudaMemcpyDeviceToHost));
    CHECK(cudaDestroyTextureObject(t));
    uint32_t words[NC * 4];
    memcpy(words, got, sizeof(got));
    print_words(name, words, NC * 4);
    Ref r{mode, linear, normalized, {0, 0, 0, 0}};
    if (border) memcpy(r.border, border, sizeof(r.border));
    if (unorm8) quantize_unorm8(r.border);
    int wrong = 0;
    for (int i = 0; i < NC; ++i) {
        float x = kCoords[i][0], y = kCoords[i][1];
        if (normalized) { x /= W; y /= H; }
        const float* g = &got[i].x;
        // A point sample on a texel boundary may land on either side once normalized: not checked.
        float fx = x * (normalized ? W : 1), fy = y * (normalized ? H : 1);
        if (!linear && (fabsf(fx - rintf(fx)) < 1e-4f || fabsf(fy - rintf(fy)) < 1e-4f)) continue;
        for (int c = 0; c < channels; ++c) {
            float want = reference(r, texel, x, y, c);
            float tol = linear ? 0.01f * (fabsf(want) + 1.0f) : 0.0f;
            if (!(fabsf(g[c] - want) <= tol)) {
                if (wrong++ < 3) printf("  %s: at (%g, %g) channel %d: %a, expected about %a\n", name, x, y, c,
                                        g[c], want);
            }
            ++cx.checked;
        }
    }
    cx.ok = cx.ok && wrong == 0;
}

cudaResourceDesc array_resource(cudaArray_t a) {
    cudaResourceDesc r;
    memset(&r, 0, sizeof(r));
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    return r;
}

int trap_case() {
    cudaArray_t a;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    CHECK(cudaMallocArray(&a, &fd, W, H, cudaArraySurfaceLoadStore));
    cudaResourceDesc r = array_resource(a);
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    surf_trap<<<1, 1>>>(s, W);
    printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    return e == cudaSuccess ? 1 : 0;
}

int main(int argc, char** argv) {
    if (argc > 1 && strcmp(argv[1], "trap") == 0) return trap_case();
    Context cx;
    float2 hu[NC], hn[NC];
    for (int i = 0; i < NC; ++i) {
        hu[i] = make_float2(kCoords[i][0], kCoords[i][1]);
        hn[i] = make_float2(kCoords[i][0] / W, kCoords[i][1] / H);
    }
    CHECK(cudaMalloc(&cx.coords_unnorm, sizeof(hu)));
    CHECK(cudaMalloc(&cx.coords_norm, sizeof(hn)));
    CHECK(cudaMalloc(&cx.out4, NC * sizeof(float4)));
    CHECK(cudaMemcpy(cx.coords_unnorm, hu, sizeof(hu), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(cx.coords_norm, hn, sizeof(hn), cudaMemcpyHostToDevice));

    // A float image, a uchar4 image, a signed 16-bit and an unsigned 8-bit one, W x H each.
    float hf[H][W];
    uchar4 hc[H][W];
    short hs[H][W];
    unsigned char hb[H][W];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            hf[y][x] = 0.37f * x * x + 1.3f * y - 0.25f * x * y;
            hc[y][x] = make_uchar4(37 * x + 11 * y, 255 - 40 * y, 60 * x, (x * y * 23) & 255);
            hs[y][x] = (short)(9000 * x - 12000 * y + 77 * x * y);
            hb[y][x] = (unsigned char)(17 + 50 * x + 9 * y);
        }
    auto ftexel = [&](int x, int y, int) { return hf[y][x]; };
    auto ctexel = [&](int x, int y, int c) {
        const unsigned char* p = &hc[y][x].x;
        return p[c] / 255.0f;
    };
    auto stexel = [&](int x, int y, int) { return fmaxf(hs[y][x] / 32767.0f, -1.0f); };
    auto btexel = [&](int x, int y, int) { return hb[y][x] / 255.0f; };

    cudaChannelFormatDesc ffmt = cudaCreateChannelDesc<float>(), cfmt = cudaCreateChannelDesc<uchar4>();
    cudaChannelFormatDesc sfmt = cudaCreateChannelDesc<short>(), bfmt = cudaCreateChannelDesc<unsigned char>();
    printf("channel desc float: %d %d %d %d kind %d; uchar4: %d %d %d %d kind %d\n", ffmt.x, ffmt.y, ffmt.z,
           ffmt.w, (int)ffmt.f, cfmt.x, cfmt.y, cfmt.z, cfmt.w, (int)cfmt.f);
    cudaArray_t af, ac, as, ab;
    CHECK(cudaMallocArray(&af, &ffmt, W, H));
    CHECK(cudaMallocArray(&ac, &cfmt, W, H));
    CHECK(cudaMallocArray(&as, &sfmt, W, H));
    CHECK(cudaMallocArray(&ab, &bfmt, W, H));
    CHECK(cudaMemcpy2DToArray(af, 0, 0, hf, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(ac, 0, 0, hc, W * sizeof(uchar4), W * sizeof(uchar4), H,
                              cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(as, 0, 0, hs, W * sizeof(short), W * sizeof(short), H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(ab, 0, 0, hb, W, W, H, cudaMemcpyHostToDevice));
    {
        cudaChannelFormatDesc d;
        cudaExtent e;
        unsigned int flags = 7;
        CHECK(cudaArrayGetInfo(&d, &e, &flags, ac));
        printf("array info: %d %d %d %d kind %d, extent %zu %zu %zu, flags %u\n", d.x, d.y, d.z, d.w, (int)d.f,
               e.width, e.height, e.depth, flags);
    }

    const cudaTextureAddressMode clamp = cudaAddressModeClamp, wrap = cudaAddressModeWrap,
                                 mirror = cudaAddressModeMirror, border = cudaAddressModeBorder;
    const float colour[4] = {0.25f, -2.5f, 0.75f, 1.0f};
    const cudaTextureReadMode elem = cudaReadModeElementType, nf = cudaReadModeNormalizedFloat;
    cudaResourceDesc rf = array_resource(af), rc = array_resource(ac), rs = array_resource(as),
                     rb = array_resource(ab);
    // float: unnormalized coordinates (wrap and mirror need normalized ones: CUDA clamps), then normalized.
    run_float(cx, "float.point.clamp", rf, 1, clamp, false, false, elem, nullptr, ftexel);
    run_float(cx, "float.linear.clamp", rf, 1, clamp, true, false, elem, nullptr, ftexel);
    run_float(cx, "float.linear.border", rf, 1, border, true, false, elem, nullptr, ftexel);
    run_float(cx, "float.linear.border_colour", rf, 1, border, true, false, elem, colour, ftexel);
    run_float(cx, "float.linear.wrap_unnormalized", rf, 1, wrap, true, false, elem, nullptr, ftexel);
    run_float(cx, "float.point.wrap.norm", rf, 1, wrap, false, true, elem, nullptr, ftexel);
    run_float(cx, "float.linear.wrap.norm", rf, 1, wrap, true, true, elem, nullptr, ftexel);
    run_float(cx, "float.point.mirror.norm", rf, 1, mirror, false, true, elem, nullptr, ftexel);
    run_float(cx, "float.linear.mirror.norm", rf, 1, mirror, true, true, elem, nullptr, ftexel);
    run_float(cx, "float.linear.clamp.norm", rf, 1, clamp, true, true, elem, nullptr, ftexel);
    run_float(cx, "float.point.border.norm", rf, 1, border, false, true, elem, nullptr, ftexel);
    // uchar4 read as normalized floats.
    run_float(cx, "uchar4.point.clamp", rc, 4, clamp, false, false, nf, nullptr, ctexel);
    run_float(cx, "uchar4.linear.clamp", rc, 4, clamp, true, false, nf, nullptr, ctexel);
    run_float(cx, "uchar4.linear.wrap.norm", rc, 4, wrap, true, true, nf, nullptr, ctexel);
    run_float(cx, "uchar4.linear.mirror.norm", rc, 4, mirror, true, true, nf, nullptr, ctexel);
    run_float(cx, "uchar4.linear.border_colour", rc, 4, border, true, false, nf, colour, ctexel, true);
    run_float(cx, "short.linear.clamp", rs, 1, clamp, true, false, nf, nullptr, stexel);
    run_float(cx, "short.point.wrap.norm", rs, 1, wrap, false, true, nf, nullptr, stexel);
    run_float(cx, "uchar.linear.mirror.norm", rb, 1, mirror, true, true, nf, nullptr, btexel);

    // More formats: signed 8-bit and unsigned 16-bit (two channels) normalized, half floats, 32-bit integers.
    {
        signed char h8[H][W];
        ushort2 h16[H][W];
        __half hh[H][W];
        int hi[H][W];
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) {
                h8[y][x] = (signed char)(-100 + 45 * x - 30 * y);
                h16[y][x] = make_ushort2(13000 * x + 7 * y, 60000 - 9000 * y + 11 * x);
                hh[y][x] = __float2half(hf[y][x]);
                hi[y][x] = 100000 * x - 70000 * y - 3;
            }
        cudaChannelFormatDesc f8 = cudaCreateChannelDesc<signed char>(), f16 = cudaCreateChannelDesc<ushort2>(),
                              fh = cudaCreateChannelDescHalf(), fi = cudaCreateChannelDesc<int>();
        cudaArray_t a8, a16, ah, ai;
        CHECK(cudaMallocArray(&a8, &f8, W, H));
        CHECK(cudaMallocArray(&a16, &f16, W, H));
        CHECK(cudaMallocArray(&ah, &fh, W, H));
        CHECK(cudaMallocArray(&ai, &fi, W, H));
        CHECK(cudaMemcpy2DToArray(a8, 0, 0, h8, W, W, H, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy2DToArray(a16, 0, 0, h16, W * 4, W * 4, H, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy2DToArray(ah, 0, 0, hh, W * 2, W * 2, H, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy2DToArray(ai, 0, 0, hi, W * 4, W * 4, H, cudaMemcpyHostToDevice));
        auto t8 = [&](int x, int y, int) { return fmaxf(h8[y][x] / 127.0f, -1.0f); };
        auto t16 = [&](int x, int y, int c) { return (c == 0 ? h16[y][x].x : h16[y][x].y) / 65535.0f; };
        auto th = [&](int x, int y, int) { return __half2float(hh[y][x]); };
        run_float(cx, "char.linear.clamp", array_resource(a8), 1, clamp, true, false, nf, nullptr, t8);
        run_float(cx, "ushort2.linear.wrap.norm", array_resource(a16), 2, wrap, true, true, nf, nullptr, t16);
        run_float(cx, "half.linear.clamp", array_resource(ah), 1, clamp, true, false, elem, nullptr, th);
        cudaTextureObject_t t = make_texture(array_resource(ai), clamp, false, false, elem, nullptr);
        int4* out;
        CHECK(cudaMalloc(&out, NC * sizeof(int4)));
        sample2d<int4><<<1, NC>>>(t, cx.coords_unnorm, out, NC);
        CHECK_LAUNCH();
        int4 got[NC];
        CHECK(cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost));
        print_words("int.element.point.clamp", reinterpret_cast<uint32_t*>(got), NC * 4);
        int wrong = 0;
        for (int i = 0; i < NC; ++i) {
            int x = address((int)floorf(kCoords[i][0]), W, clamp, false);
            int y = address((int)floorf(kCoords[i][1]), H, clamp, false);
            wrong += got[i].x != hi[y][x] || got[i].y != 0 || got[i].z != 0 || got[i].w != 0;
        }
        printf("int elements: %d wrong\n", wrong);
        cx.ok = cx.ok && wrong == 0;
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFree(out));
        CHECK(cudaFreeArray(a8));
        CHECK(cudaFreeArray(a16));
        CHECK(cudaFreeArray(ah));
        CHECK(cudaFreeArray(ai));
    }

    // Point sampling with normalized coordinates just above the texel boundaries u = 1/5 and 3/5 (by 0, 1,
    // 2, 4, ... 2^14 ulps): which texel the GPU picks shows how finely it resolves normalized coordinates.
    {
        const int NB = 32;
        float2 hb2[NB];
        for (int i = 0; i < NB; ++i) {
            float u = i < 16 ? 0.2f : 0.6f;
            int steps = (i % 16) == 0 ? 0 : 1 << ((i % 16) - 1);
            for (int s = 0; s < steps; ++s) u = nextafterf(u, 1.0f);
            hb2[i] = make_float2(u, 0.6f);
        }
        float2* db;
        float4* ob;
        CHECK(cudaMalloc(&db, sizeof(hb2)));
        CHECK(cudaMalloc(&ob, NB * sizeof(float4)));
        CHECK(cudaMemcpy(db, hb2, sizeof(hb2), cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_texture(rf, clamp, false, true, elem, nullptr);
        sample2d<float4><<<1, NB>>>(t, db, ob, NB);
        CHECK_LAUNCH();
        float4 got[NB];
        CHECK(cudaMemcpy(got, ob, sizeof(got), cudaMemcpyDeviceToHost));
        uint32_t picked[NB];
        int wrong = 0;
        for (int i = 0; i < NB; ++i) {
            int k = i < 16 ? 1 : 3;  // the texel above the boundary; the one below is k - 1
            picked[i] = got[i].x == hf[2][k] ? k : got[i].x == hf[2][k - 1] ? k - 1 : 99;
            wrong += picked[i] == 99;
        }
        print_words("normalized.point.boundaries (texel x)", picked, NB);
        cx.ok = cx.ok && wrong == 0;
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFree(db));
        CHECK(cudaFree(ob));
    }

    // uchar4 and short read as their elements (integers, point sampling).
    {
        cudaTextureObject_t t = make_texture(rc, clamp, false, false, elem, nullptr);
        uint4* out;
        CHECK(cudaMalloc(&out, NC * sizeof(uint4)));
        sample2d<uint4><<<1, NC>>>(t, cx.coords_unnorm, out, NC);
        CHECK_LAUNCH();
        uint4 got[NC];
        CHECK(cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost));
        print_words("uchar4.element.point.clamp", &got[0].x, NC * 4);
        int wrong = 0;
        for (int i = 0; i < NC; ++i) {
            int x = address((int)floorf(kCoords[i][0]), W, clamp, false);
            int y = address((int)floorf(kCoords[i][1]), H, clamp, false);
            wrong += got[i].x != hc[y][x].x || got[i].y != hc[y][x].y || got[i].z != hc[y][x].z ||
                     got[i].w != hc[y][x].w;
        }
        cx.ok = cx.ok && wrong == 0;
        cudaTextureObject_t ts = make_texture(rs, border, false, true, elem, nullptr);
        sample2d<int4><<<1, NC>>>(ts, cx.coords_norm, reinterpret_cast<int4*>(out), NC);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost));
        print_words("short.element.point.border.norm", &got[0].x, NC * 4);
        for (int i = 0; i < NC; ++i) {
            int x = address((int)floorf(kCoords[i][0] / W * W), W, border, true);
            int y = address((int)floorf(kCoords[i][1] / H * H), H, border, true);
            int want = x < 0 || y < 0 ? 0 : hs[y][x];
            float fx = kCoords[i][0] / W * W, fy = kCoords[i][1] / H * H;
            if (fabsf(fx - rintf(fx)) < 1e-4f || fabsf(fy - rintf(fy)) < 1e-4f) continue;
            wrong += (int)got[i].x != want;
        }
        printf("element fetches: %d wrong\n", wrong);
        cx.ok = cx.ok && wrong == 0;
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaDestroyTextureObject(ts));
        CHECK(cudaFree(out));
    }

    // A pitched float buffer (cudaMallocPitch) sampled with linear filtering.
    {
        float* p;
        size_t pitch;
        CHECK(cudaMallocPitch(&p, &pitch, W * sizeof(float), H));
        CHECK(cudaMemcpy2D(p, pitch, hf, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
        cudaResourceDesc r;
        memset(&r, 0, sizeof(r));
        r.resType = cudaResourceTypePitch2D;
        r.res.pitch2D.devPtr = p;
        r.res.pitch2D.desc = ffmt;
        r.res.pitch2D.width = W;
        r.res.pitch2D.height = H;
        r.res.pitch2D.pitchInBytes = pitch;
        printf("pitch %zu\n", pitch);
        run_float(cx, "pitch2d.float.linear.clamp", r, 1, clamp, true, false, elem, nullptr, ftexel);
        cudaTextureObject_t t = make_texture(r, clamp, true, false, elem, nullptr);
        cudaResourceDesc back;
        CHECK(cudaGetTextureObjectResourceDesc(&back, t));
        printf("resource desc: type %d width %zu height %zu pitch ok %d ptr ok %d\n", (int)back.resType,
               back.res.pitch2D.width, back.res.pitch2D.height, back.res.pitch2D.pitchInBytes == pitch,
               back.res.pitch2D.devPtr == p);
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFree(p));
    }

    // tex1Dfetch over linear memory: in range, and 3 elements beyond either end.
    {
        const int N = 10, F = 16;
        std::vector<float> hl(N);
        std::vector<uchar4> hl4(N);
        for (int i = 0; i < N; ++i) {
            hl[i] = 1.5f * i - 4.0f;
            hl4[i] = make_uchar4(i, 25 * i, 255 - i, 128);
        }
        // Linear textures start at the texture alignment (512 bytes): two slots of one allocation.
        char* block;
        CHECK(cudaMalloc(&block, 4096));
        float* dl = reinterpret_cast<float*>(((uintptr_t)block + 511) & ~(uintptr_t)511);
        uchar4* dl4 = reinterpret_cast<uchar4*>(reinterpret_cast<char*>(dl) + 1024);
        CHECK(cudaMemcpy(dl, hl.data(), N * sizeof(float), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dl4, hl4.data(), N * sizeof(uchar4), cudaMemcpyHostToDevice));
        cudaResourceDesc r;
        memset(&r, 0, sizeof(r));
        r.resType = cudaResourceTypeLinear;
        r.res.linear.devPtr = dl;
        r.res.linear.desc = ffmt;
        r.res.linear.sizeInBytes = N * sizeof(float);
        cudaTextureObject_t t = make_texture(r, clamp, false, false, elem, nullptr);
        r.res.linear.devPtr = dl4;
        r.res.linear.desc = cfmt;
        r.res.linear.sizeInBytes = N * sizeof(uchar4);
        cudaTextureObject_t t4 = make_texture(r, clamp, false, false, nf, nullptr);
        float* o1;
        float4* o4;
        CHECK(cudaMalloc(&o1, F * sizeof(float)));
        CHECK(cudaMalloc(&o4, F * sizeof(float4)));
        fetch1d_scalar<<<1, F>>>(t, o1, -3, F);
        fetch1d<<<1, F>>>(t4, o4, -3, F);
        CHECK_LAUNCH();
        float g1[F];
        float4 g4[F];
        CHECK(cudaMemcpy(g1, o1, sizeof(g1), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(g4, o4, sizeof(g4), cudaMemcpyDeviceToHost));
        uint32_t w1[F];
        memcpy(w1, g1, sizeof(g1));
        print_words("tex1Dfetch.float", w1, F);
        print_words("tex1Dfetch.uchar4.normalized", reinterpret_cast<uint32_t*>(g4), F * 4);
        int wrong = 0;
        for (int i = 0; i < N; ++i) {
            wrong += g1[i + 3] != hl[i];
            wrong += g4[i + 3].y != hl4[i].y / 255.0f;
        }
        printf("tex1Dfetch: %d wrong, first %a, last %a\n", wrong, g1[3], g1[N + 2]);
        cx.ok = cx.ok && wrong == 0;
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaDestroyTextureObject(t4));
        CHECK(cudaFree(block));
        CHECK(cudaFree(o1));
        CHECK(cudaFree(o4));
    }

    // Surfaces: write every element, read back with each boundary mode and with cudaMemcpy2DFromArray.
    {
        cudaArray_t sa, sc;
        CHECK(cudaMallocArray(&sa, &ffmt, W, H, cudaArraySurfaceLoadStore));
        CHECK(cudaMallocArray(&sc, &cfmt, W, H, cudaArraySurfaceLoadStore));
        cudaResourceDesc r = array_resource(sa), rcs = array_resource(sc);
        cudaSurfaceObject_t s, s4;
        CHECK(cudaCreateSurfaceObject(&s, &r));
        CHECK(cudaCreateSurfaceObject(&s4, &rcs));
        surf_write<<<1, dim3(W, H)>>>(s, W, H);
        surf_write_uchar4<<<1, dim3(W, H)>>>(s4, W, H);
        CHECK_LAUNCH();
        const int RW = W + 4, RH = H + 2;
        float *dc, *dz, *dt;
        CHECK(cudaMalloc(&dc, RW * RH * sizeof(float)));
        CHECK(cudaMalloc(&dz, RW * RH * sizeof(float)));
        CHECK(cudaMalloc(&dt, RW * RH * sizeof(float)));
        surf_read<<<1, dim3(RW, RH)>>>(s, dc, dz, dt, W, H);
        uchar4* d4;
        CHECK(cudaMalloc(&d4, (W + 2) * (H + 2) * sizeof(uchar4)));
        surf_read_uchar4<<<1, dim3(W + 2, H + 2)>>>(s4, d4, W, H);
        CHECK_LAUNCH();
        std::vector<float> c(RW * RH), z(RW * RH), t(RW * RH), back(W * H);
        std::vector<uchar4> b4((W + 2) * (H + 2));
        CHECK(cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(z.data(), dz, z.size() * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(t.data(), dt, t.size() * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(b4.data(), d4, b4.size() * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy2DFromArray(back.data(), W * 4, sa, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
        print_words("surf.read.clamp", reinterpret_cast<uint32_t*>(c.data()), RW * RH);
        print_words("surf.read.zero", reinterpret_cast<uint32_t*>(z.data()), RW * RH);
        print_words("surf.read.uchar4.clamp", reinterpret_cast<uint32_t*>(b4.data()), (W + 2) * (H + 2));
        int wrong = 0;
        for (int y = -1; y <= H; ++y)
            for (int x = -2; x < W + 2; ++x) {
                int i = (y + 1) * RW + x + 2;
                int cx_ = x < 0 ? 0 : x >= W ? W - 1 : x, cy = y < 0 ? 0 : y >= H ? H - 1 : y;
                bool in = x >= 0 && x < W && y >= 0 && y < H;
                float v = 1000.0f * cy + cx_ + 0.5f;
                wrong += c[i] != v;
                wrong += z[i] != (in ? v : 0.0f);
                wrong += t[i] != (in ? v : -1.0f);
            }
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) wrong += back[y * W + x] != 1000.0f * y + x + 0.5f;
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) {
                uchar4 g = b4[(y + 1) * (W + 2) + x + 1];
                wrong += g.x != x || g.y != y || g.z != x + y || g.w != 200 + x;
            }
        printf("surfaces: %d wrong\n", wrong);
        cx.ok = cx.ok && wrong == 0;
        CHECK(cudaDestroySurfaceObject(s));
        CHECK(cudaDestroySurfaceObject(s4));
        CHECK(cudaFreeArray(sa));
        CHECK(cudaFreeArray(sc));
        CHECK(cudaFree(dc));
        CHECK(cudaFree(dz));
        CHECK(cudaFree(dt));
        CHECK(cudaFree(d4));
    }

    CHECK(cudaFreeArray(af));
    CHECK(cudaFreeArray(ac));
    CHECK(cudaFreeArray(as));
    CHECK(cudaFreeArray(ab));
    CHECK(cudaFree(cx.coords_unnorm));
    CHECK(cudaFree(cx.coords_norm));
    CHECK(cudaFree(cx.out4));
    printf("checked %d channels; all fetches fnv %016llx\n", cx.checked, (unsigned long long)g_total);
    return finish(cx.ok);
}
