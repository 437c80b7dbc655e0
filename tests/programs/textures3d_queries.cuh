// tests/programs/textures3d_queries.cuh — the txq/suq part of textures3d.cu, built only with
// -DPROBE_QUERIES=1: with it the module did not load on the H200 (cudaErrorNotSupported at the first launch;
// tests/hardware/programs/README.md). Included where textures3d.cu's helpers are defined.

// Every texture query txq has, in its order: width height depth channel_data_type channel_order
// normalized_coords array_size num_mipmap_levels num_samples filter_mode addr_mode_0 addr_mode_1 addr_mode_2.
__global__ void query_texture(cudaTextureObject_t t, unsigned* o) {
    asm volatile("txq.width.b32 %0, [%1];" : "=r"(o[0]) : "l"(t));
    asm volatile("txq.height.b32 %0, [%1];" : "=r"(o[1]) : "l"(t));
    asm volatile("txq.depth.b32 %0, [%1];" : "=r"(o[2]) : "l"(t));
    asm volatile("txq.channel_data_type.b32 %0, [%1];" : "=r"(o[3]) : "l"(t));
    asm volatile("txq.channel_order.b32 %0, [%1];" : "=r"(o[4]) : "l"(t));
    asm volatile("txq.normalized_coords.b32 %0, [%1];" : "=r"(o[5]) : "l"(t));
    asm volatile("txq.array_size.b32 %0, [%1];" : "=r"(o[6]) : "l"(t));
    asm volatile("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(o[7]) : "l"(t));
    asm volatile("txq.num_samples.b32 %0, [%1];" : "=r"(o[8]) : "l"(t));
    asm volatile("txq.filter_mode.b32 %0, [%1];" : "=r"(o[9]) : "l"(t));
    asm volatile("txq.addr_mode_0.b32 %0, [%1];" : "=r"(o[10]) : "l"(t));
    asm volatile("txq.addr_mode_1.b32 %0, [%1];" : "=r"(o[11]) : "l"(t));
    asm volatile("txq.addr_mode_2.b32 %0, [%1];" : "=r"(o[12]) : "l"(t));
}

// suq: width height depth channel_data_type channel_order array_size memory_layout.
__global__ void query_surface(cudaSurfaceObject_t s, unsigned* o) {
    asm volatile("suq.width.b32 %0, [%1];" : "=r"(o[0]) : "l"(s));
    asm volatile("suq.height.b32 %0, [%1];" : "=r"(o[1]) : "l"(s));
    asm volatile("suq.depth.b32 %0, [%1];" : "=r"(o[2]) : "l"(s));
    asm volatile("suq.channel_data_type.b32 %0, [%1];" : "=r"(o[3]) : "l"(s));
    asm volatile("suq.channel_order.b32 %0, [%1];" : "=r"(o[4]) : "l"(s));
    asm volatile("suq.array_size.b32 %0, [%1];" : "=r"(o[5]) : "l"(s));
    asm volatile("suq.memory_layout.b32 %0, [%1];" : "=r"(o[6]) : "l"(s));
}

void queries(Context& cx) {
    unsigned* d;
    CHECK(cudaMalloc(&d, 16 * sizeof(unsigned)));
    auto show = [&](const char* name, int n) {
        unsigned h[16];
        CHECK(cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        printf("%s:", name);
        for (int i = 0; i < n; ++i) printf(" %u", h[i]);
        printf("\n");
        return std::vector<unsigned>(h, h + n);
    };
    auto texture = [&](const char* name, const cudaResourceDesc& r, cudaTextureAddressMode m0,
                       cudaTextureAddressMode m1, bool linear, bool normalized, cudaTextureReadMode read) {
        cudaTextureDesc td;
        memset(&td, 0, sizeof(td));
        td.addressMode[0] = m0;
        td.addressMode[1] = m1;
        td.addressMode[2] = cudaAddressModeBorder;
        td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
        td.readMode = read;
        td.normalizedCoords = normalized;
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
        CHECK(cudaMemset(d, 0xee, 16 * sizeof(unsigned)));
        query_texture<<<1, 1>>>(t, d);
        CHECK_LAUNCH();
        auto v = show(name, 13);
        CHECK(cudaDestroyTextureObject(t));
        return v;
    };
    auto surface = [&](const char* name, cudaArray_t a) {
        cudaResourceDesc r = array_resource(a);
        cudaSurfaceObject_t s;
        CHECK(cudaCreateSurfaceObject(&s, &r));
        CHECK(cudaMemset(d, 0xee, 16 * sizeof(unsigned)));
        query_surface<<<1, 1>>>(s, d);
        CHECK_LAUNCH();
        auto v = show(name, 7);
        CHECK(cudaDestroySurfaceObject(s));
        return v;
    };
    const cudaTextureReadMode elem = cudaReadModeElementType, nf = cudaReadModeNormalizedFloat;
    const auto wrap = cudaAddressModeWrap, clamp = cudaAddressModeClamp, mirror = cudaAddressModeMirror,
               border = cudaAddressModeBorder;
    const unsigned sl = cudaArraySurfaceLoadStore;
    struct Fmt {
        const char* name;
        cudaChannelFormatDesc desc;
    } fmts[] = {
        {"float", cudaCreateChannelDesc<float>()},         {"float2", cudaCreateChannelDesc<float2>()},
        {"float4", cudaCreateChannelDesc<float4>()},       {"half", cudaCreateChannelDescHalf()},
        {"uchar", cudaCreateChannelDesc<unsigned char>()}, {"char2", cudaCreateChannelDesc<char2>()},
        {"uchar4", cudaCreateChannelDesc<uchar4>()},       {"short", cudaCreateChannelDesc<short>()},
        {"ushort4", cudaCreateChannelDesc<ushort4>()},     {"int", cudaCreateChannelDesc<int>()},
        {"uint2", cudaCreateChannelDesc<uint2>()},         {"int4", cudaCreateChannelDesc<int4>()}};
    std::vector<cudaArray_t> arrays;
    char name[96];
    for (const Fmt& f : fmts) {
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &f.desc, W, H, sl));
        arrays.push_back(a);
        snprintf(name, sizeof(name), "txq.2d.%s", f.name);
        texture(name, array_resource(a), clamp, wrap, false, false, elem);
        snprintf(name, sizeof(name), "suq.2d.%s", f.name);
        surface(name, a);
    }
    // Read modes, filter and address modes and normalized coordinates on one uchar4 array.
    texture("txq.2d.uchar4.normalized_float.linear.mirror_border.norm", array_resource(arrays[6]), mirror,
            border, true, true, nf);
    texture("txq.2d.float.linear.wrap_mirror.norm", array_resource(arrays[0]), wrap, mirror, true, true,
            elem);
    cudaChannelFormatDesc ff = cudaCreateChannelDesc<float>();
    cudaArray_t a1, a3, l1, l2;
    CHECK(cudaMallocArray(&a1, &ff, 7, 0, sl));
    CHECK(cudaMalloc3DArray(&a3, &ff, make_cudaExtent(W, H, D), sl));
    CHECK(cudaMalloc3DArray(&l1, &ff, make_cudaExtent(W, 0, 6), cudaArrayLayered | sl));
    CHECK(cudaMalloc3DArray(&l2, &ff, make_cudaExtent(W, H, 6), cudaArrayLayered | sl));
    texture("txq.1d.float", array_resource(a1), clamp, clamp, false, false, elem);
    texture("txq.3d.float", array_resource(a3), clamp, clamp, false, false, elem);
    texture("txq.layered1d.float", array_resource(l1), clamp, clamp, false, false, elem);
    texture("txq.layered2d.float", array_resource(l2), clamp, clamp, false, false, elem);
    surface("suq.1d.float", a1);
    surface("suq.3d.float", a3);
    surface("suq.layered1d.float", l1);
    surface("suq.layered2d.float", l2);
    {
        float* lin;
        CHECK(cudaMalloc(&lin, 1024));
        cudaResourceDesc r;
        memset(&r, 0, sizeof(r));
        r.resType = cudaResourceTypeLinear;
        r.res.linear.devPtr = lin;
        r.res.linear.desc = cudaCreateChannelDesc<float2>();
        r.res.linear.sizeInBytes = 1000;
        texture("txq.linear.float2", r, clamp, clamp, false, false, elem);
        memset(&r, 0, sizeof(r));
        r.resType = cudaResourceTypePitch2D;
        r.res.pitch2D.devPtr = lin;
        r.res.pitch2D.desc = ff;
        r.res.pitch2D.width = 6;
        r.res.pitch2D.height = 2;
        r.res.pitch2D.pitchInBytes = 512;
        texture("txq.pitch2d.float", r, clamp, clamp, true, false, elem);
        CHECK(cudaFree(lin));
    }
    for (cudaArray_t a : arrays) CHECK(cudaFreeArray(a));
    for (cudaArray_t a : {a1, a3, l1, l2}) CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d));
    (void)cx;
}
