// Texture and surface objects beyond one 2D image: 3D arrays (tex3D, point and trilinear filtering; surf3D),
// layered 1D and 2D arrays (tex1DLayered, tex2DLayered; surf1DLayered, surf2DLayered, layer indices out of
// range), tex2Dgather (which four texels, in which order, per component), and by inline PTX formatted surface
// stores (sust.p: `textures3d formatted`), surface reductions (sured: `textures3d reductions`) and the txq
// and suq queries (only with -DPROBE_QUERIES=1). cudaMemcpy3D copies into and out of the arrays. Every fetch
// is printed as hex bits, so the simulated run must match the GPU's bits; the host checks what the
// Programming Guide defines (point samples, gathers, copies, surface contents) exactly and filtered values to
// within the guide's 8-bit weights.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include "common.h"

// The txq/suq part (textures3d_queries.cuh, every query of both) is left out unless PROBE_QUERIES=1: built
// with it, the module did not load on the H200 (every launch of the program returned cudaErrorNotSupported;
// tests/hardware/programs/README.md).
#ifndef PROBE_QUERIES
#define PROBE_QUERIES 0
#endif

constexpr int W = 5, H = 4, D = 3, NC = 16;

// Positions in texel units: centres, between texels, on and beyond every face; w is the layer index of
// layered fetches (-1 and 7 lie outside the 3 layers).
const float kCoords[NC][4] = {{0.5f, 0.5f, 0.5f, 0},      {1.0f, 1.0f, 1.0f, 1},
                              {1.25f, 2.75f, 1.5f, 2},    {2.6f, 0.3f, 2.2f, 0},
                              {4.5f, 3.5f, 2.5f, 1},      {4.9f, 3.9f, 2.9f, 2},
                              {5.5f, 1.2f, -0.3f, -1},    {-0.7f, 2.2f, 3.4f, 7},
                              {2.999f, 1.001f, 0.75f, 1}, {1.0625f, 2.53125f, 1.2890625f, 0},
                              {3.1f, 0.6f, 1.9f, 2},      {0.3f, 3.3f, 0.1f, 1},
                              {2.2f, 1.7f, 1.1f, 0},      {3.7f, 2.4f, 0.6f, 3},
                              {1.5f, 1.5f, 2.0f, 2},      {4.1f, 0.9f, 1.7f, 1}};

enum Fetch { k3d, k1dLayered, k2dLayered, kGather0, kGather1, kGather2, kGather3 };

__global__ void fetch(cudaTextureObject_t t, const float4* c, float4* out, int n, int kind) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = c[i];
    int layer = (int)p.w;
    switch (kind) {
        case k3d:
            out[i] = tex3D<float4>(t, p.x, p.y, p.z);
            break;
        case k1dLayered:
            out[i] = tex1DLayered<float4>(t, p.x, layer);
            break;
        case k2dLayered:
            out[i] = tex2DLayered<float4>(t, p.x, p.y, layer);
            break;
        case kGather0:
            out[i] = tex2Dgather<float4>(t, p.x, p.y, 0);
            break;
        case kGather1:
            out[i] = tex2Dgather<float4>(t, p.x, p.y, 1);
            break;
        case kGather2:
            out[i] = tex2Dgather<float4>(t, p.x, p.y, 2);
            break;
        case kGather3:
            out[i] = tex2Dgather<float4>(t, p.x, p.y, 3);
            break;
    }
}

__global__ void fetch_uint(cudaTextureObject_t t, const float4* c, uint4* out, int n, int kind) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = c[i];
    if (kind == k3d) out[i] = tex3D<uint4>(t, p.x, p.y, p.z);
    if (kind == kGather2) out[i] = tex2Dgather<uint4>(t, p.x, p.y, 2);
}

float value3(int x, int y, int z) {
    return 100.0f * z + 10.0f * y + x + 0.25f;
}

// Writes value3 to every element of a W x H x D float surface, and 99 one element outside each face with the
// zero boundary (dropped).
__global__ void surf3_write(cudaSurfaceObject_t s) {
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    surf3Dwrite(100.0f * z + 10.0f * y + x + 0.25f, s, x * 4, y, z);
    if (x == 0) surf3Dwrite(99.0f, s, -4, y, z, cudaBoundaryModeZero);
    if (x == 0) surf3Dwrite(99.0f, s, W * 4, y, z, cudaBoundaryModeZero);
    if (y == 0) surf3Dwrite(99.0f, s, x * 4, y, D, cudaBoundaryModeZero);
}

// Reads x = -1 .. W, y = -1 .. H, z = -1 .. D with clamp and zero.
__global__ void surf3_read(cudaSurfaceObject_t s, float* clamp, float* zero) {
    int x = threadIdx.x - 1, y = threadIdx.y - 1, z = threadIdx.z - 1;
    int i = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    clamp[i] = surf3Dread<float>(s, x * 4, y, z, cudaBoundaryModeClamp);
    zero[i] = surf3Dread<float>(s, x * 4, y, z, cudaBoundaryModeZero);
}

// Layered surfaces: element (x, layer) of a 1D array and (x, y, layer) of a 2D one hold value3(x, y, layer).
__global__ void surf_layered_write(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2) {
    int x = threadIdx.x, y = threadIdx.y, l = threadIdx.z;
    if (y == 0) surf1DLayeredwrite(100.0f * l + x + 0.25f, s1, x * 4, l);
    surf2DLayeredwrite(100.0f * l + 10.0f * y + x + 0.25f, s2, x * 4, y, l);
}

// Reads x = -1 .. W, y = -1 .. H at layers first .. first + blockDim.z - 1 with clamp and zero.
__global__ void surf_layered_read(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, float* out, int first) {
    int x = threadIdx.x - 1, y = threadIdx.y - 1, l = first + (int)threadIdx.z;
    int i = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x,
        n = blockDim.x * blockDim.y * blockDim.z;
    out[i] = surf2DLayeredread<float>(s2, x * 4, y, l, cudaBoundaryModeClamp);
    out[n + i] = surf2DLayeredread<float>(s2, x * 4, y, l, cudaBoundaryModeZero);
    if (threadIdx.y == 0) {
        out[2 * n + threadIdx.z * blockDim.x + threadIdx.x] =
            surf1DLayeredread<float>(s1, x * 4, l, cudaBoundaryModeClamp);
        out[3 * n + threadIdx.z * blockDim.x + threadIdx.x] =
            surf1DLayeredread<float>(s1, x * 4, l, cudaBoundaryModeZero);
    }
}

// sust.p (formatted stores): thread i stores the four values v[4i..4i+3] at sample (i % W, i / W) with the
// clamp boundary.
__global__ void store_formatted(cudaSurfaceObject_t s, const unsigned* v, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    asm volatile("sust.p.2d.v4.b32.clamp [%0, {%1, %2}], {%3, %4, %5, %6};" ::"l"(s), "r"(i % W), "r"(i / W),
                 "r"(v[4 * i]), "r"(v[4 * i + 1]), "r"(v[4 * i + 2]), "r"(v[4 * i + 3]));
}

// sured on a W x H surface of 32-bit integers: every thread of the block adds, mins, maxes, ands and ors its
// value into the elements of row 0 (byte addressing) and adds into row 1 (sample addressing, sured.p).
__global__ void reduce_surface(cudaSurfaceObject_t s) {
    int t = threadIdx.x;
    asm volatile("sured.b.add.2d.u32.trap [%0, {%1, %2}], %3;" ::"l"(s), "r"(0), "r"(0), "r"(t + 1));
    asm volatile("sured.b.min.2d.s32.trap [%0, {%1, %2}], %3;" ::"l"(s), "r"(4), "r"(0), "r"(50 - 7 * t));
    asm volatile("sured.b.max.2d.u32.trap [%0, {%1, %2}], %3;" ::"l"(s), "r"(8), "r"(0), "r"(3 * t + 1000));
    asm volatile("sured.b.and.2d.b32.trap [%0, {%1, %2}], %3;" ::"l"(s), "r"(12), "r"(0),
                 "r"(~(1u << (t % 32))));
    asm volatile("sured.b.or.2d.b32.trap [%0, {%1, %2}], %3;" ::"l"(s), "r"(16), "r"(0), "r"(1u << (t % 32)));
    asm volatile("sured.p.add.2d.b32.trap [%0, {%1, %2}], %3;" ::"l"(s), "r"(t % W), "r"(1), "r"(1));
    asm volatile("sured.b.add.2d.u32.clamp [%0, {%1, %2}], %3;" ::"l"(s), "r"(4 * W + 8), "r"(2), "r"(2));
    asm volatile("sured.b.add.2d.u32.zero [%0, {%1, %2}], %3;" ::"l"(s), "r"(0), "r"(H), "r"(5));
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

int clampi(int i, int n) {
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

struct Context {
    float4* coords;
    float4* coords_norm;  // x / W, y / H, z / D
    float4* out;
    bool ok = true;
    int checked = 0;
    int wrong = 0;
    void expect(const char* name, int i, int c, float got, float want, float tol) {
        ++checked;
        if (fabsf(got - want) <= tol) return;
        if (wrong++ < 8) printf("  %s: at %d channel %d: %a, expected about %a\n", name, i, c, got, want);
        ok = false;
    }
};

cudaResourceDesc array_resource(cudaArray_t a) {
    cudaResourceDesc r;
    memset(&r, 0, sizeof(r));
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    return r;
}

cudaTextureObject_t make_texture(cudaArray_t a, cudaTextureAddressMode mode, bool linear, bool normalized,
                                 cudaTextureReadMode read, const float* border = nullptr) {
    cudaResourceDesc res = array_resource(a);
    cudaTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = read;
    td.normalizedCoords = normalized;
    for (int c = 0; c < 4; ++c) td.borderColor[c] = border ? border[c] : 0.0f;
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
    return t;
}

// Runs one fetch kind at all positions, prints the bits and returns them.
std::vector<float4> run(Context& cx, const char* name, cudaTextureObject_t t, int kind, bool normalized) {
    fetch<<<1, NC>>>(t, normalized ? cx.coords_norm : cx.coords, cx.out, NC, kind);
    CHECK_LAUNCH();
    std::vector<float4> got(NC);
    CHECK(cudaMemcpy(got.data(), cx.out, NC * sizeof(float4), cudaMemcpyDeviceToHost));
    print_words(name, reinterpret_cast<uint32_t*>(got.data()), NC * 4);
    return got;
}

// Texel values (as the fetch returns them) of a W x H x D volume: a float f(x, y, z), and a uchar4.
float fvol(int x, int y, int z) {
    return 0.37f * x * x + 1.3f * y - 0.25f * x * y + 2.5f * z - 0.5f * x * z;
}
uchar4 cvol(int x, int y, int z) {
    return make_uchar4(37 * x + 11 * y + 5 * z, 255 - 40 * y - 20 * z, 60 * x + 7 * z,
                       (x * y * 23 + 80 * z) & 255);
}
float cchan(uchar4 v, int c) {
    return (c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w) / 255.0f;
}

// The Programming Guide's trilinear filter (clamp) on texel(x, y, z) with 8-bit weights ignored.
template <class Texel>
float trilinear(Texel texel, float x, float y, float z, int w, int h, int d) {
    float xb = x - 0.5f, yb = y - 0.5f, zb = z - 0.5f;
    int i = (int)floorf(xb), j = (int)floorf(yb), k = (int)floorf(zb);
    float a = xb - i, b = yb - j, c = zb - k, sum = 0;
    for (int dz = 0; dz < 2; ++dz)
        for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx)
                sum += (dx ? a : 1 - a) * (dy ? b : 1 - b) * (dz ? c : 1 - c) *
                       texel(clampi(i + dx, w), clampi(j + dy, h), clampi(k + dz, d));
    return sum;
}

bool on_boundary(float v) {
    return fabsf(v - rintf(v)) < 1e-4f;
}

void volumes(Context& cx) {
    std::vector<float> hf(W * H * D);
    std::vector<uchar4> hc(W * H * D);
    for (int z = 0; z < D; ++z)
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) {
                hf[(z * H + y) * W + x] = fvol(x, y, z);
                hc[(z * H + y) * W + x] = cvol(x, y, z);
            }
    cudaChannelFormatDesc ff = cudaCreateChannelDesc<float>(), cf = cudaCreateChannelDesc<uchar4>();
    cudaArray_t af, ac;
    CHECK(cudaMalloc3DArray(&af, &ff, make_cudaExtent(W, H, D)));
    CHECK(cudaMalloc3DArray(&ac, &cf, make_cudaExtent(W, H, D)));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof(p));
    p.srcPtr = make_cudaPitchedPtr(hf.data(), W * sizeof(float), W, H);
    p.dstArray = af;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    p.srcPtr = make_cudaPitchedPtr(hc.data(), W * sizeof(uchar4), W, H);
    p.dstArray = ac;
    CHECK(cudaMemcpy3D(&p));
    {
        cudaChannelFormatDesc d;
        cudaExtent e;
        unsigned int flags = 7;
        CHECK(cudaArrayGetInfo(&d, &e, &flags, ac));
        printf("3d array info: %d %d %d %d kind %d, extent %zu %zu %zu, flags %u\n", d.x, d.y, d.z, d.w,
               (int)d.f, e.width, e.height, e.depth, flags);
    }
    // A 3x2x2 box at (1, 1, 1) of the float volume back through cudaMemcpy3D, into a padded host buffer.
    {
        float box[2][2][4];
        for (auto& a : box)
            for (auto& b : a)
                for (float& v : b) v = -1.0f;
        cudaMemcpy3DParms q;
        memset(&q, 0, sizeof(q));
        q.srcArray = af;
        q.srcPos = make_cudaPos(1, 1, 1);
        q.dstPtr = make_cudaPitchedPtr(box, 4 * sizeof(float), 4, 2);
        q.extent = make_cudaExtent(3, 2, 2);
        q.kind = cudaMemcpyDeviceToHost;
        CHECK(cudaMemcpy3D(&q));
        int wrong = 0;
        for (int z = 0; z < 2; ++z)
            for (int y = 0; y < 2; ++y)
                for (int x = 0; x < 4; ++x)
                    wrong += box[z][y][x] != (x < 3 ? fvol(x + 1, y + 1, z + 1) : -1.0f);
        printf("cudaMemcpy3D from a 3d array: %d wrong\n", wrong);
        cx.ok = cx.ok && wrong == 0;
    }
    const float border[4] = {0.25f, -2.5f, 0.75f, 1.0f};
    auto fat = [&](int x, int y, int z) { return hf[(z * H + y) * W + x]; };
    const cudaTextureReadMode elem = cudaReadModeElementType, nf = cudaReadModeNormalizedFloat;
    {
        cudaTextureObject_t t = make_texture(af, cudaAddressModeClamp, false, false, elem);
        auto got = run(cx, "3d.float.point.clamp", t, k3d, false);
        for (int i = 0; i < NC; ++i) {
            const float* c = kCoords[i];
            if (on_boundary(c[0]) || on_boundary(c[1]) || on_boundary(c[2])) continue;
            cx.expect(
                "3d.float.point.clamp", i, 0, got[i].x,
                fat(clampi((int)floorf(c[0]), W), clampi((int)floorf(c[1]), H), clampi((int)floorf(c[2]), D)),
                0);
        }
        CHECK(cudaDestroyTextureObject(t));
        t = make_texture(af, cudaAddressModeClamp, true, false, elem);
        got = run(cx, "3d.float.linear.clamp", t, k3d, false);
        for (int i = 0; i < NC; ++i) {
            const float want = trilinear(fat, kCoords[i][0], kCoords[i][1], kCoords[i][2], W, H, D);
            cx.expect("3d.float.linear.clamp", i, 0, got[i].x, want, 0.02f * (fabsf(want) + 1));
        }
        CHECK(cudaDestroyTextureObject(t));
        t = make_texture(af, cudaAddressModeBorder, true, false, elem, border);
        run(cx, "3d.float.linear.border_colour", t, k3d, false);
        CHECK(cudaDestroyTextureObject(t));
        t = make_texture(af, cudaAddressModeWrap, true, true, elem);
        run(cx, "3d.float.linear.wrap.norm", t, k3d, true);
        CHECK(cudaDestroyTextureObject(t));
        t = make_texture(af, cudaAddressModeMirror, false, true, elem);
        run(cx, "3d.float.point.mirror.norm", t, k3d, true);
        CHECK(cudaDestroyTextureObject(t));
    }
    {
        cudaTextureObject_t t = make_texture(ac, cudaAddressModeClamp, true, false, nf);
        auto got = run(cx, "3d.uchar4.linear.clamp", t, k3d, false);
        for (int i = 0; i < NC; ++i)
            for (int c = 0; c < 4; ++c) {
                auto texel = [&](int x, int y, int z) { return cchan(hc[(z * H + y) * W + x], c); };
                const float want = trilinear(texel, kCoords[i][0], kCoords[i][1], kCoords[i][2], W, H, D);
                cx.expect("3d.uchar4.linear.clamp", i, c, (&got[i].x)[c], want, 0.02f);
            }
        CHECK(cudaDestroyTextureObject(t));
        t = make_texture(ac, cudaAddressModeBorder, false, false, elem);
        fetch_uint<<<1, NC>>>(t, cx.coords, reinterpret_cast<uint4*>(cx.out), NC, k3d);
        CHECK_LAUNCH();
        std::vector<uint4> gu(NC);
        CHECK(cudaMemcpy(gu.data(), cx.out, NC * sizeof(uint4), cudaMemcpyDeviceToHost));
        print_words("3d.uchar4.element.point.border", &gu[0].x, NC * 4);
        CHECK(cudaDestroyTextureObject(t));
    }
    // Surfaces on a 3D array.
    {
        cudaArray_t sa;
        CHECK(cudaMalloc3DArray(&sa, &ff, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore));
        cudaResourceDesc r = array_resource(sa);
        cudaSurfaceObject_t s;
        CHECK(cudaCreateSurfaceObject(&s, &r));
        surf3_write<<<1, dim3(W, H, D)>>>(s);
        CHECK_LAUNCH();
        const int RW = W + 2, RH = H + 2, RD = D + 2, N = RW * RH * RD;
        float *dc, *dz;
        CHECK(cudaMalloc(&dc, N * sizeof(float)));
        CHECK(cudaMalloc(&dz, N * sizeof(float)));
        surf3_read<<<1, dim3(RW, RH, RD)>>>(s, dc, dz);
        CHECK_LAUNCH();
        std::vector<float> c(N), z(N), back(W * H * D);
        CHECK(cudaMemcpy(c.data(), dc, N * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(z.data(), dz, N * 4, cudaMemcpyDeviceToHost));
        cudaMemcpy3DParms q;
        memset(&q, 0, sizeof(q));
        q.srcArray = sa;
        q.dstPtr = make_cudaPitchedPtr(back.data(), W * 4, W, H);
        q.extent = make_cudaExtent(W, H, D);
        q.kind = cudaMemcpyDeviceToHost;
        CHECK(cudaMemcpy3D(&q));
        print_words("surf3d.read.clamp", reinterpret_cast<uint32_t*>(c.data()), N);
        print_words("surf3d.read.zero", reinterpret_cast<uint32_t*>(z.data()), N);
        int wrong = 0;
        for (int k = -1; k <= D; ++k)
            for (int j = -1; j <= H; ++j)
                for (int i = -1; i <= W; ++i) {
                    const int at = ((k + 1) * RH + j + 1) * RW + i + 1;
                    const bool in = i >= 0 && i < W && j >= 0 && j < H && k >= 0 && k < D;
                    const float v = value3(clampi(i, W), clampi(j, H), clampi(k, D));
                    wrong += c[at] != v;
                    wrong += z[at] != (in ? v : 0.0f);
                }
        for (int k = 0; k < D; ++k)
            for (int j = 0; j < H; ++j)
                for (int i = 0; i < W; ++i) wrong += back[(k * H + j) * W + i] != value3(i, j, k);
        printf("3d surfaces: %d wrong\n", wrong);
        cx.ok = cx.ok && wrong == 0;
        CHECK(cudaDestroySurfaceObject(s));
        CHECK(cudaFreeArray(sa));
        CHECK(cudaFree(dc));
        CHECK(cudaFree(dz));
    }
    CHECK(cudaFreeArray(af));
    CHECK(cudaFreeArray(ac));
}

void layered(Context& cx) {
    // A 1D layered array of W texels x D layers and a 2D layered one of W x H x D: texel values fvol.
    std::vector<float> h1(W * D), h2(W * H * D);
    for (int z = 0; z < D; ++z)
        for (int x = 0; x < W; ++x) {
            h1[z * W + x] = fvol(x, 0, z);
            for (int y = 0; y < H; ++y) h2[(z * H + y) * W + x] = fvol(x, y, z);
        }
    cudaChannelFormatDesc ff = cudaCreateChannelDesc<float>();
    cudaArray_t a1, a2;
    CHECK(cudaMalloc3DArray(&a1, &ff, make_cudaExtent(W, 0, D), cudaArrayLayered));
    CHECK(cudaMalloc3DArray(&a2, &ff, make_cudaExtent(W, H, D), cudaArrayLayered));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof(p));
    p.srcPtr = make_cudaPitchedPtr(h1.data(), W * sizeof(float), W, 1);
    p.dstArray = a1;
    p.extent = make_cudaExtent(W, 1, D);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    p.srcPtr = make_cudaPitchedPtr(h2.data(), W * sizeof(float), W, H);
    p.dstArray = a2;
    p.extent = make_cudaExtent(W, H, D);
    CHECK(cudaMemcpy3D(&p));
    {
        cudaChannelFormatDesc d;
        cudaExtent e1, e2;
        unsigned int f1 = 7, f2 = 7;
        CHECK(cudaArrayGetInfo(&d, &e1, &f1, a1));
        CHECK(cudaArrayGetInfo(&d, &e2, &f2, a2));
        printf("layered array info: 1d extent %zu %zu %zu flags %u; 2d extent %zu %zu %zu flags %u\n",
               e1.width, e1.height, e1.depth, f1, e2.width, e2.height, e2.depth, f2);
    }
    const cudaTextureReadMode elem = cudaReadModeElementType;
    // A layer index outside the array is not checked (the Programming Guide does not say what it reads).
    auto layer_of = [](float w) { return (int)w; };
    for (int linear = 0; linear < 2; ++linear) {
        cudaTextureObject_t t = make_texture(a1, cudaAddressModeClamp, linear, false, elem);
        const char* name = linear ? "layered1d.float.linear.clamp" : "layered1d.float.point.clamp";
        auto got = run(cx, name, t, k1dLayered, false);
        for (int i = 0; i < NC; ++i) {
            const float* c = kCoords[i];
            const int l = layer_of(c[3]);
            if (l < 0 || l >= D) continue;
            auto texel = [&](int x, int, int) { return h1[l * W + x]; };
            if (linear) {
                const float want = trilinear(texel, c[0], 0.5f, 0.5f, W, 1, 1);
                cx.expect(name, i, 0, got[i].x, want, 0.02f * (fabsf(want) + 1));
            } else if (!on_boundary(c[0])) {
                cx.expect(name, i, 0, got[i].x, h1[l * W + clampi((int)floorf(c[0]), W)], 0);
            }
        }
        CHECK(cudaDestroyTextureObject(t));
        t = make_texture(a2, cudaAddressModeClamp, linear, false, elem);
        name = linear ? "layered2d.float.linear.clamp" : "layered2d.float.point.clamp";
        got = run(cx, name, t, k2dLayered, false);
        for (int i = 0; i < NC; ++i) {
            const float* c = kCoords[i];
            const int l = layer_of(c[3]);
            if (l < 0 || l >= D) continue;
            auto texel = [&](int x, int y, int) { return h2[(l * H + y) * W + x]; };
            if (linear) {
                const float want = trilinear(texel, c[0], c[1], 0.5f, W, H, 1);
                cx.expect(name, i, 0, got[i].x, want, 0.02f * (fabsf(want) + 1));
            } else if (!on_boundary(c[0]) && !on_boundary(c[1])) {
                cx.expect(name, i, 0, got[i].x,
                          texel(clampi((int)floorf(c[0]), W), clampi((int)floorf(c[1]), H), 0), 0);
            }
        }
        CHECK(cudaDestroyTextureObject(t));
    }
    {
        cudaTextureObject_t t = make_texture(a2, cudaAddressModeWrap, true, true, elem);
        run(cx, "layered2d.float.linear.wrap.norm", t, k2dLayered, true);
        CHECK(cudaDestroyTextureObject(t));
    }
    // Layered surfaces.
    {
        cudaArray_t s1a, s2a;
        CHECK(cudaMalloc3DArray(&s1a, &ff, make_cudaExtent(W, 0, D),
                                cudaArrayLayered | cudaArraySurfaceLoadStore));
        CHECK(cudaMalloc3DArray(&s2a, &ff, make_cudaExtent(W, H, D),
                                cudaArrayLayered | cudaArraySurfaceLoadStore));
        cudaResourceDesc r1 = array_resource(s1a), r2 = array_resource(s2a);
        cudaSurfaceObject_t s1, s2;
        CHECK(cudaCreateSurfaceObject(&s1, &r1));
        CHECK(cudaCreateSurfaceObject(&s2, &r2));
        surf_layered_write<<<1, dim3(W, H, D)>>>(s1, s2);
        CHECK_LAUNCH();
        const int RW = W + 2, RH = H + 2, RL = D, N = RW * RH * RL;
        float* d;
        CHECK(cudaMalloc(&d, 4 * N * sizeof(float)));
        CHECK(cudaMemset(d, 0xff, 4 * N * sizeof(float)));
        surf_layered_read<<<1, dim3(RW, RH, RL)>>>(s1, s2, d, 0);
        CHECK_LAUNCH();
        std::vector<float> o(4 * N);
        CHECK(cudaMemcpy(o.data(), d, o.size() * 4, cudaMemcpyDeviceToHost));
        print_words("surf.layered2d.read.clamp", reinterpret_cast<uint32_t*>(o.data()), N);
        print_words("surf.layered2d.read.zero", reinterpret_cast<uint32_t*>(o.data()) + N, N);
        print_words("surf.layered1d.read.clamp", reinterpret_cast<uint32_t*>(o.data()) + 2 * N, RW * RL);
        print_words("surf.layered1d.read.zero", reinterpret_cast<uint32_t*>(o.data()) + 3 * N, RW * RL);
        int wrong = 0;
        for (int l = 0; l < D; ++l)
            for (int j = -1; j <= H; ++j)
                for (int i = -1; i <= W; ++i) {
                    const int at = (l * RH + j + 1) * RW + i + 1;
                    const bool in = i >= 0 && i < W && j >= 0 && j < H;
                    const float v = value3(clampi(i, W), clampi(j, H), l);
                    wrong += o[at] != v;
                    wrong += o[N + at] != (in ? v : 0.0f);
                    if (j == -1) {
                        const float v1 = 100.0f * l + clampi(i, W) + 0.25f;
                        wrong += o[2 * N + l * RW + i + 1] != v1;
                        wrong += o[3 * N + l * RW + i + 1] != (i >= 0 && i < W ? v1 : 0.0f);
                    }
                }
        printf("layered surfaces: %d wrong\n", wrong);
        cx.ok = cx.ok && wrong == 0;
        CHECK(cudaDestroySurfaceObject(s1));
        CHECK(cudaDestroySurfaceObject(s2));
        CHECK(cudaFreeArray(s1a));
        CHECK(cudaFreeArray(s2a));
        CHECK(cudaFree(d));
    }
    CHECK(cudaFreeArray(a1));
    CHECK(cudaFreeArray(a2));
}

void gathers(Context& cx) {
    std::vector<float> hf(W * H);
    std::vector<uchar4> hc(W * H);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            hf[y * W + x] = fvol(x, y, 0);
            hc[y * W + x] = cvol(x, y, 1);
        }
    cudaChannelFormatDesc ff = cudaCreateChannelDesc<float>(), cf = cudaCreateChannelDesc<uchar4>();
    cudaArray_t af, ac;
    CHECK(cudaMallocArray(&af, &ff, W, H, cudaArrayTextureGather));
    CHECK(cudaMallocArray(&ac, &cf, W, H, cudaArrayTextureGather));
    CHECK(cudaMemcpy2DToArray(af, 0, 0, hf.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(ac, 0, 0, hc.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    const cudaTextureReadMode elem = cudaReadModeElementType, nf = cudaReadModeNormalizedFloat;
    // The Programming Guide: tex2Dgather returns the component of the four texels of the bilinear footprint
    // of (x - 0.5, y - 0.5): (i, j+1), (i+1, j+1), (i+1, j), (i, j).
    auto expect_gather = [&](const char* name, const std::vector<float4>& got, auto texel, int comp,
                             bool border) {
        for (int n = 0; n < NC; ++n) {
            const float xb = kCoords[n][0] - 0.5f, yb = kCoords[n][1] - 0.5f;
            if (on_boundary(xb) || on_boundary(yb)) continue;
            const int i = (int)floorf(xb), j = (int)floorf(yb);
            const int xs[4] = {i, i + 1, i + 1, i}, ys[4] = {j + 1, j + 1, j, j};
            for (int k = 0; k < 4; ++k) {
                const bool out = xs[k] < 0 || xs[k] >= W || ys[k] < 0 || ys[k] >= H;
                const float want = border && out ? 0.0f : texel(clampi(xs[k], W), clampi(ys[k], H), comp);
                cx.expect(name, n, k, (&got[n].x)[k], want, 0);
            }
        }
    };
    auto ft = [&](int x, int y, int) { return hf[y * W + x]; };
    auto ct = [&](int x, int y, int c) { return cchan(hc[y * W + x], c); };
    {
        cudaTextureObject_t t = make_texture(af, cudaAddressModeClamp, false, false, elem);
        expect_gather("gather.float.clamp", run(cx, "gather.float.clamp", t, kGather0, false), ft, 0, false);
        CHECK(cudaDestroyTextureObject(t));
        t = make_texture(af, cudaAddressModeBorder, true, false, elem);  // the filter mode plays no part
        expect_gather("gather.float.border.linear", run(cx, "gather.float.border.linear", t, kGather0, false),
                      ft, 0, true);
        CHECK(cudaDestroyTextureObject(t));
        t = make_texture(af, cudaAddressModeWrap, false, true, elem);
        run(cx, "gather.float.wrap.norm", t, kGather0, true);
        CHECK(cudaDestroyTextureObject(t));
    }
    {
        cudaTextureObject_t t = make_texture(ac, cudaAddressModeClamp, false, false, nf);
        const char* names[4] = {"gather.uchar4.clamp.comp0", "gather.uchar4.clamp.comp1",
                                "gather.uchar4.clamp.comp2", "gather.uchar4.clamp.comp3"};
        for (int c = 0; c < 4; ++c)
            expect_gather(names[c], run(cx, names[c], t, kGather0 + c, false), ct, c, false);
        CHECK(cudaDestroyTextureObject(t));
        t = make_texture(ac, cudaAddressModeClamp, false, false, elem);
        fetch_uint<<<1, NC>>>(t, cx.coords, reinterpret_cast<uint4*>(cx.out), NC, kGather2);
        CHECK_LAUNCH();
        std::vector<uint4> gu(NC);
        CHECK(cudaMemcpy(gu.data(), cx.out, NC * sizeof(uint4), cudaMemcpyDeviceToHost));
        print_words("gather.uchar4.element.comp2", &gu[0].x, NC * 4);
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(af));
    CHECK(cudaFreeArray(ac));
}

#if PROBE_QUERIES
#include "textures3d_queries.cuh"
#endif

// sust.p into float, half, uchar4, char2, short, ushort4, int, uint2 surfaces; every 32-bit value pattern
// below stored as (R, G, B, A) and the surface read back as bytes.
void formatted(Context& cx) {
    const float fv[] = {0.0f,      0.5f,     1.0f,     -1.0f,    0.25f,     0.999f,    1.5f,
                        -0.3f,     0.00196f, 0.00197f, 65504.0f, 1e-5f,     3.14159f,  -2.0f,
                        100000.0f, 0.1f,     NAN,      INFINITY, -INFINITY, 0.5019608f};
    const unsigned iv[] = {0,           1,     127,   128,         255,         256,         32767,
                           32768,       65535, 65536, 0x7fffffff,  0x80000000u, 0xffffffffu, 0xffffff80u,
                           0xffff8000u, 300,   70000, 0xfffffffeu, 5,           0x12345678u};
    const int NV = 20, NS = W * H;  // samples, four values each
    unsigned hv[4 * NS];
    struct Fmt {
        const char* name;
        cudaChannelFormatDesc desc;
        bool floats;
    } fmts[] = {{"float4", cudaCreateChannelDesc<float4>(), true},
                {"half4", cudaCreateChannelDescHalf4(), true},
                {"uchar4", cudaCreateChannelDesc<uchar4>(), false},
                {"char2", cudaCreateChannelDesc<char2>(), false},
                {"short", cudaCreateChannelDesc<short>(), false},
                {"ushort4", cudaCreateChannelDesc<ushort4>(), false},
                {"int", cudaCreateChannelDesc<int>(), false},
                {"uint2", cudaCreateChannelDesc<uint2>(), false}};
    unsigned* dv;
    CHECK(cudaMalloc(&dv, sizeof(hv)));
    char name[64];
    for (const Fmt& f : fmts) {
        for (int k = 0; k < 4 * NS; ++k) {
            const int v = (k * 7) % NV;
            hv[k] = f.floats ? bits(fv[v]) : iv[v];
        }
        CHECK(cudaMemcpy(dv, hv, sizeof(hv), cudaMemcpyHostToDevice));
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &f.desc, W, H, cudaArraySurfaceLoadStore));
        const int bytes = (f.desc.x + f.desc.y + f.desc.z + f.desc.w) / 8;
        std::vector<uint8_t> fill(W * H * bytes, 0xa5);
        CHECK(cudaMemcpy2DToArray(a, 0, 0, fill.data(), W * bytes, W * bytes, H, cudaMemcpyHostToDevice));
        cudaResourceDesc r = array_resource(a);
        cudaSurfaceObject_t s;
        CHECK(cudaCreateSurfaceObject(&s, &r));
        store_formatted<<<1, NS>>>(s, dv, NS);
        CHECK_LAUNCH();
        std::vector<uint32_t> back((W * H * bytes + 3) / 4, 0);
        CHECK(cudaMemcpy2DFromArray(back.data(), W * bytes, a, 0, 0, W * bytes, H, cudaMemcpyDeviceToHost));
        snprintf(name, sizeof(name), "sust.p.%s", f.name);
        print_words(name, back.data(), (int)back.size());
        CHECK(cudaDestroySurfaceObject(s));
        CHECK(cudaFreeArray(a));
    }
    CHECK(cudaFree(dv));
    (void)cx;
}

void reductions(Context& cx) {
    cudaChannelFormatDesc fi = cudaCreateChannelDesc<int>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &fi, W, H, cudaArraySurfaceLoadStore));
    int init[H][W];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) init[y][x] = 10 * y + x;
    init[0][3] = -1;  // and-ed with every ~(1 << t)
    CHECK(cudaMemcpy2DToArray(a, 0, 0, init, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaResourceDesc r = array_resource(a);
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    const int T = 64;
    reduce_surface<<<1, T>>>(s);
    CHECK_LAUNCH();
    int back[H][W];
    CHECK(cudaMemcpy2DFromArray(back, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    print_words("sured", reinterpret_cast<uint32_t*>(back), W * H);
    int want[H][W];
    memcpy(want, init, sizeof(want));
    unsigned andv = (unsigned)init[0][3], orv = (unsigned)init[0][4];
    for (int t = 0; t < T; ++t) {
        want[0][0] += t + 1;
        want[0][1] = want[0][1] < 50 - 7 * t ? want[0][1] : 50 - 7 * t;
        want[0][2] = (unsigned)want[0][2] > (unsigned)(3 * t + 1000) ? want[0][2] : 3 * t + 1000;
        andv &= ~(1u << (t % 32));
        orv |= 1u << (t % 32);
        want[1][t % W] += 1;
        want[2][W - 1] += 2;  // clamped to the last element of row 2
    }
    want[0][3] = (int)andv;
    want[0][4] = (int)orv;
    int wrong = 0;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) wrong += back[y][x] != want[y][x];
    printf("sured: %d wrong\n", wrong);
    cx.ok = cx.ok && wrong == 0;
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
}

// Last, as it may fault: layered surface reads at layer -1 and at one past the last layer, clamp and zero
// boundary (the boundary modes speak of coordinates; what a layer index out of range reads is measured).
void layers_beyond() {
    cudaChannelFormatDesc ff = cudaCreateChannelDesc<float>();
    cudaArray_t s1a, s2a;
    CHECK(
        cudaMalloc3DArray(&s1a, &ff, make_cudaExtent(W, 0, D), cudaArrayLayered | cudaArraySurfaceLoadStore));
    CHECK(
        cudaMalloc3DArray(&s2a, &ff, make_cudaExtent(W, H, D), cudaArrayLayered | cudaArraySurfaceLoadStore));
    cudaResourceDesc r1 = array_resource(s1a), r2 = array_resource(s2a);
    cudaSurfaceObject_t s1, s2;
    CHECK(cudaCreateSurfaceObject(&s1, &r1));
    CHECK(cudaCreateSurfaceObject(&s2, &r2));
    surf_layered_write<<<1, dim3(W, H, D)>>>(s1, s2);
    CHECK_LAUNCH();
    const int RW = W + 2, RH = H + 2, N = RW * RH;
    float* d;
    CHECK(cudaMalloc(&d, 4 * N * sizeof(float)));
    for (int first : {D, -1}) {
        CHECK(cudaMemset(d, 0xff, 4 * N * sizeof(float)));
        surf_layered_read<<<1, dim3(RW, RH, 1)>>>(s1, s2, d, first);
        printf("layer %d: launch %s, ", first, cudaGetErrorName(cudaGetLastError()));
        cudaError_t e = cudaDeviceSynchronize();
        printf("synchronize %s\n", cudaGetErrorName(e));
        if (e != cudaSuccess) return;
        std::vector<uint32_t> o(4 * N);
        CHECK(cudaMemcpy(o.data(), d, o.size() * 4, cudaMemcpyDeviceToHost));
        char name[64];
        snprintf(name, sizeof(name), "surf.layered2d.layer%d.clamp", first);
        print_words(name, o.data(), N);
        snprintf(name, sizeof(name), "surf.layered2d.layer%d.zero", first);
        print_words(name, o.data() + N, N);
        snprintf(name, sizeof(name), "surf.layered1d.layer%d.clamp_zero", first);
        std::vector<uint32_t> one(o.begin() + 2 * N, o.begin() + 2 * N + RW);
        one.insert(one.end(), o.begin() + 3 * N, o.begin() + 3 * N + RW);
        print_words(name, one.data(), 2 * RW);
    }
    CHECK(cudaDestroySurfaceObject(s1));
    CHECK(cudaDestroySurfaceObject(s2));
    CHECK(cudaFreeArray(s1a));
    CHECK(cudaFreeArray(s2a));
    CHECK(cudaFree(d));
}

int main(int argc, char** argv) {
    const std::string part = argc > 1 ? argv[1] : "";
    Context cx;
    float4 hc[NC], hn[NC];
    for (int i = 0; i < NC; ++i) {
        hc[i] = make_float4(kCoords[i][0], kCoords[i][1], kCoords[i][2], kCoords[i][3]);
        hn[i] = make_float4(kCoords[i][0] / W, kCoords[i][1] / H, kCoords[i][2] / D, kCoords[i][3]);
    }
    CHECK(cudaMalloc(&cx.coords, sizeof(hc)));
    CHECK(cudaMalloc(&cx.coords_norm, sizeof(hn)));
    CHECK(cudaMalloc(&cx.out, NC * sizeof(float4)));
    CHECK(cudaMemcpy(cx.coords, hc, sizeof(hc), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(cx.coords_norm, hn, sizeof(hn), cudaMemcpyHostToDevice));
    volumes(cx);
    layered(cx);
    gathers(cx);
#if PROBE_QUERIES
    queries(cx);
#endif
    // `textures3d formatted` adds the sust.p part, `textures3d reductions` the sured part.
    if (part == "formatted") formatted(cx);
    if (part == "reductions") reductions(cx);
    CHECK(cudaFree(cx.coords));
    CHECK(cudaFree(cx.coords_norm));
    CHECK(cudaFree(cx.out));
    printf("checked %d values, %d wrong; all fetches fnv %016llx\n", cx.checked, cx.wrong,
           (unsigned long long)g_total);
    layers_beyond();
    return finish(cx.ok);
}
