// sim/runtime/api_memory.cpp — device, pinned and mapped memory and the copies between them: cudaMalloc,
// cudaFree, cudaMemcpy (every kind), cudaMemset, cudaHostAlloc/Register, cudaMemGetInfo.
#include "sim/runtime/runtime.hpp"

#include "sim/runtime/graph.hpp"
#include "sim/runtime/streams.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include <fmt/format.h>

using warpsim::runtime::Runtime;

namespace {

uint64_t addr(const void* p) {
    return reinterpret_cast<uint64_t>(p);
}

using warpsim::runtime::kManagedFlag;

// Where a copy's pointer lies: simulated device memory (bytes behind the allocation table) or host memory the
// program can touch (pageable, pinned, mapped and managed ranges are all plain host memory).
uint8_t* device_bytes(Runtime& rt, const void* p, size_t n) {
    return rt.sim().memory().translate(addr(p), n == 0 ? 1 : n);
}
bool is_heap_pointer(Runtime& rt, const void* p) {
    return rt.addresses().in_heap(addr(p));
}

// A copy on the simulated clock: its direction from where the pointers are, pinned when the host side is
// page-locked; a blocking copy (or one from pageable memory) makes the host wait for it.
void clock_copy(Runtime& rt, const void* dst, const void* src, size_t n, cudaStream_t stream, bool blocking) {
    const bool dst_device = rt.addresses().in_heap(addr(dst)), src_device = rt.addresses().in_heap(addr(src));
    using warpsim::timing::CopyKind;
    const CopyKind kind = dst_device ? (src_device ? CopyKind::device_to_device : CopyKind::host_to_device)
                                     : (src_device ? CopyKind::device_to_host : CopyKind::host_to_host);
    const void* host_side = dst_device ? src : dst;
    const bool pinned = (dst_device && src_device) || rt.host().containing(host_side) != nullptr;
    const auto when = rt.clock().copy(Runtime::stream_id(stream), kind, n, pinned);
    static constexpr const char* kNames[] = {"H2D", "D2H", "D2D", "H2H"};
    rt.log().add_copy(
        {kNames[static_cast<int>(kind)], n, pinned, Runtime::stream_id(stream), when.start_us, when.end_us});
    // The runtime API's synchronisation rules (CUDA Runtime API, "API synchronization behavior"): a copy
    // between device memories never makes the host wait; a copy with the host does when the call is the
    // blocking cudaMemcpy or the host memory is pageable; a host-to-host copy is done by the host itself.
    if (kind == CopyKind::device_to_device) return;
    if (blocking || !pinned || kind == CopyKind::host_to_host) rt.clock().host_wait(when.end_us);
}

// --check: a copy whose device source holds bytes nothing wrote (not the host, not a kernel), reported as
// compute-sanitizer's initcheck reports it on the H200 (tests/hardware/h200/sanitizer_partial_init.txt: a
// cudaMemcpy or cudaMemcpyAsync of 8 bytes of which a kernel wrote 4). The copy itself goes ahead.
void check_copy_source(Runtime& rt, const void* src, size_t n) {
    const auto& memory = rt.sim().memory();
    const auto first = memory.first_unwritten(addr(src), n);
    if (!first) return;
    const warpsim::memory::Allocation* a = memory.find(*first);
    std::fprintf(
        stderr,
        "========= WARPSIM CHECK\n"
        "========= initcheck: Host API memory access error at host access to 0x%llx of size %zu bytes\n"
        "=========     Uninitialized access to 0x%llx (%s[%llu]) on access by cudaMemcpy source\n"
        "=========     neither the host nor a kernel has written this byte\n"
        "=========\n"
        "========= ERROR SUMMARY: 1 error (1 initcheck)\n",
        static_cast<unsigned long long>(addr(src)), n, static_cast<unsigned long long>(*first),
        a ? a->label.c_str() : "device memory", static_cast<unsigned long long>(a ? *first - a->base : 0));
}

// One contiguous copy of n bytes; `kind` is what the program said. Returns the runtime's answer.
cudaError_t copy_bytes(Runtime& rt, void* dst, const void* src, size_t n, cudaMemcpyKind kind) {
    if (n == 0) return cudaSuccess;
    if (!dst || !src) return cudaErrorInvalidValue;
    uint8_t* ddev = device_bytes(rt, dst, n);
    const uint8_t* sdev = device_bytes(rt, src, n);
    // Host memory a kernel can also see (pinned/managed) is in the table, but the host may touch it directly.
    const bool dst_device = is_heap_pointer(rt, dst);
    const bool src_device = is_heap_pointer(rt, src);
    switch (kind) {
        case cudaMemcpyHostToHost:
            if (dst_device || src_device) return cudaErrorInvalidValue;
            break;
        case cudaMemcpyHostToDevice:
            if (src_device || !ddev) return cudaErrorInvalidValue;
            break;
        case cudaMemcpyDeviceToHost:
            if (dst_device || !sdev) return cudaErrorInvalidValue;
            break;
        case cudaMemcpyDeviceToDevice:
            if (!ddev || !sdev) return cudaErrorInvalidValue;
            break;
        case cudaMemcpyDefault:
            if ((dst_device && !ddev) || (src_device && !sdev)) return cudaErrorInvalidValue;
            break;
        default:
            return cudaErrorInvalidMemcpyDirection;
    }
    uint8_t* d = dst_device ? ddev : static_cast<uint8_t*>(dst);
    const uint8_t* s = src_device ? sdev : static_cast<const uint8_t*>(src);
    if (src_device && rt.options().check) check_copy_source(rt, src, n);
    std::memmove(d, s, n);
    if (ddev) {
        auto& memory = rt.sim().memory();
        const warpsim::memory::Allocation* from = src_device ? memory.find(addr(src)) : nullptr;
        if (from) {  // device to device: the destination is written where the source was
            const uint64_t lo = addr(src) - from->base, hi = lo + n;
            std::vector<std::pair<uint64_t, uint64_t>> written;
            for (const auto& [b, e] : from->host_written)
                if (b < hi && e > lo) written.emplace_back(std::max(b, lo) - lo, std::min(e, hi) - lo);
            for (const auto& [b, e] : written) memory.mark_host_written(addr(dst) + b, e - b);
        } else {
            memory.mark_host_written(addr(dst), n);
        }
        rt.reuse().wrote(memory, addr(dst), n);
    }
    return cudaSuccess;
}

// A copy the program waits for: printf of finished kernels appears, an earlier fault is reported.
cudaError_t blocking_copy(void* dst, const void* src, size_t n, cudaMemcpyKind kind) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    rt.flush_printf();
    if (cudaError_t e = rt.synchronize()) return Runtime::finish(e);
    const cudaError_t e = copy_bytes(rt, dst, src, n, kind);
    if (e == cudaSuccess && n) clock_copy(rt, dst, src, n, nullptr, true);
    return Runtime::finish(e);
}

cudaError_t async_copy(void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (CUstream_st* capturing = warpsim::runtime::capture_target(rt, stream))
        return Runtime::finish(
            warpsim::runtime::capture_add(*capturing, warpsim::runtime::GraphStep::copy(dst, src, n, kind)));
    return Runtime::finish(warpsim::runtime::copy_on_stream(rt, dst, src, n, kind, stream));
}

// The rows of a 2D copy, on the stream's clock as one copy of width x height bytes.
cudaError_t copy_rows(Runtime& rt, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                      size_t height, cudaMemcpyKind kind, cudaStream_t stream, bool blocking) {
    for (size_t row = 0; row < height; ++row) {
        if (cudaError_t e = copy_bytes(rt, static_cast<uint8_t*>(dst) + row * dpitch,
                                       static_cast<const uint8_t*>(src) + row * spitch, width, kind))
            return e;
    }
    if (width * height > 0) clock_copy(rt, dst, src, width * height, stream, blocking);
    return cudaSuccess;
}

cudaError_t copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                    cudaMemcpyKind kind, bool blocking, cudaStream_t stream = nullptr) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = blocking ? rt.synchronize() : rt.sticky()) return Runtime::finish(e);
    if (!blocking && !rt.streams().valid_stream(stream))
        return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (height > 0 && (width > dpitch || width > spitch)) return Runtime::finish(cudaErrorInvalidPitchValue);
    if (CUstream_st* capturing = blocking ? nullptr : warpsim::runtime::capture_target(rt, stream))
        return Runtime::finish(warpsim::runtime::capture_add(
            *capturing, warpsim::runtime::GraphStep::copy2d(dst, dpitch, src, spitch, width, height, kind)));
    return Runtime::finish(copy_rows(rt, dst, dpitch, src, spitch, width, height, kind, stream, blocking));
}

cudaError_t set_bytes(void* p, int value, size_t n, cudaStream_t stream = nullptr) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (CUstream_st* capturing = warpsim::runtime::capture_target(rt, stream))
        return Runtime::finish(
            warpsim::runtime::capture_add(*capturing, warpsim::runtime::GraphStep::memset(p, value, n)));
    return Runtime::finish(warpsim::runtime::memset_on_stream(rt, p, value, n, stream));
}

// cudaMemset2D(Async): in a capture, one memset node of `height` rows.
cudaError_t set_rows(void* p, size_t pitch, int value, size_t width, size_t height,
                     cudaStream_t stream = nullptr) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (height > 0 && width > pitch) return Runtime::finish(cudaErrorInvalidPitchValue);
    const unsigned byte = static_cast<unsigned>(value) & 0xffu;
    if (CUstream_st* capturing = warpsim::runtime::capture_target(rt, stream)) {
        warpsim::runtime::GraphStep step = warpsim::runtime::GraphStep::memset(p, value, width);
        step.rows = height;
        step.dst_pitch = pitch;
        return Runtime::finish(warpsim::runtime::capture_add(*capturing, std::move(step)));
    }
    return Runtime::finish(
        warpsim::runtime::memset_rows_on_stream(rt, p, pitch, byte, 1, width, height, stream));
}

}  // namespace

namespace warpsim::runtime {

cudaError_t copy_on_stream(Runtime& rt, void* dst, const void* src, size_t n, cudaMemcpyKind kind,
                           cudaStream_t stream) {
    const cudaError_t e = copy_bytes(rt, dst, src, n, kind);
    if (e == cudaSuccess && n) clock_copy(rt, dst, src, n, stream, false);
    return e;
}

cudaError_t copy_2d_on_stream(Runtime& rt, void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
    if (height > 0 && (width > dpitch || width > spitch)) return cudaErrorInvalidPitchValue;
    return copy_rows(rt, dst, dpitch, src, spitch, width, height, kind, stream, false);
}

cudaError_t memset_on_stream(Runtime& rt, void* p, int value, size_t n, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    uint8_t* d = device_bytes(rt, p, n);
    if (!d) return cudaErrorInvalidValue;
    std::memset(d, value, n);
    rt.sim().memory().mark_host_written(addr(p), n);
    rt.reuse().wrote(rt.sim().memory(), addr(p), n);
    const auto when = rt.clock().memset(Runtime::stream_id(stream), n);
    rt.log().add_copy({"memset", n, false, Runtime::stream_id(stream), when.start_us, when.end_us});
    return cudaSuccess;
}

cudaError_t memset_rows_on_stream(Runtime& rt, void* p, size_t pitch, unsigned value, unsigned element_size,
                                  size_t width, size_t height, cudaStream_t stream) {
    const size_t row_bytes = width * element_size;
    if (row_bytes == 0 || height == 0) return cudaSuccess;
    if (element_size == 1 && height == 1)
        return memset_on_stream(rt, p, static_cast<int>(value), width, stream);
    uint8_t element[4];
    std::memcpy(element, &value, sizeof element);  // little-endian: the low element_size bytes of `value`
    for (size_t row = 0; row < height; ++row) {
        uint8_t* start = static_cast<uint8_t*>(p) + row * pitch;
        uint8_t* d = device_bytes(rt, start, row_bytes);
        if (!d) return cudaErrorInvalidValue;
        for (size_t i = 0; i < row_bytes; ++i) d[i] = element[i % element_size];
        rt.sim().memory().mark_host_written(addr(start), row_bytes);
        rt.reuse().wrote(rt.sim().memory(), addr(start), row_bytes);
    }
    const auto when = rt.clock().memset(Runtime::stream_id(stream), row_bytes * height);
    rt.log().add_copy(
        {"memset", row_bytes * height, false, Runtime::stream_id(stream), when.start_us, when.end_us});
    return cudaSuccess;
}

}  // namespace warpsim::runtime

namespace {

// Host memory both the program and its kernels use in place (pinned, mapped, managed).
cudaError_t alloc_shared(void** out, size_t size, unsigned flags, const char* what) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!out) return Runtime::finish(cudaErrorInvalidValue);
    *out = nullptr;
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (size == 0) return cudaSuccess;
    void* p = rt.addresses().map_shared(size);
    if (!p ||
        !rt.sim().memory().map_host(addr(p), size, static_cast<uint8_t*>(p),
                                    fmt::format("{} #{}", what, rt.sim().memory().allocation_count() + 1))) {
        if (p) rt.addresses().unmap_shared(p);
        return Runtime::finish(cudaErrorMemoryAllocation);
    }
    rt.host().add(p, size, flags, true);
    *out = p;
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaMalloc(void** devPtr, size_t size) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!devPtr) return Runtime::finish(cudaErrorInvalidValue);
    *devPtr = nullptr;
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (cudaError_t e = warpsim::runtime::refuse_unsafe_call(rt)) return Runtime::finish(e);
    if (size == 0) return cudaSuccess;
    const uint64_t total = static_cast<uint64_t>(rt.preset().memory.bytes);
    if (total && size > total - std::min<uint64_t>(total, rt.sim().memory().device_bytes_in_use()))
        return Runtime::finish(cudaErrorMemoryAllocation);
    uint64_t a = 0;
    try {
        a = rt.sim().memory().malloc(size, fmt::format("cudaMalloc #{}", rt.next_allocation_serial()));
    } catch (const std::bad_alloc&) {  // the host cannot hold the simulated allocation
        a = 0;
    }
    if (!a) return Runtime::finish(cudaErrorMemoryAllocation);
    *devPtr = reinterpret_cast<void*>(a);
    return cudaSuccess;
}

cudaError_t cudaFree(void* devPtr) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = rt.synchronize()) return Runtime::finish(e);  // cudaFree waits for the device
    if (!devPtr) return cudaSuccess;
    if (rt.host().exact(devPtr)) {  // managed memory is freed with cudaFree
        rt.sim().memory().unmap_host(addr(devPtr));
        rt.addresses().unmap_shared(devPtr);
        rt.host().remove(devPtr);
        return cudaSuccess;
    }
    return Runtime::finish(rt.sim().free(addr(devPtr)) ? cudaSuccess : cudaErrorInvalidValue);
}

namespace {

// Work on the legacy stream while a blocking stream captures (warpsim::runtime::refuse_implicit_sync).
cudaError_t implicit_sync_refused(cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_stream(stream)) return cudaSuccess;  // the call itself answers
    return Runtime::finish(warpsim::runtime::refuse_implicit_sync(rt, stream));
}

}  // namespace

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
    if (cudaError_t e = implicit_sync_refused(nullptr)) return e;
    return blocking_copy(dst, src, count, kind);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
    if (cudaError_t e = implicit_sync_refused(stream)) return e;
    return async_copy(dst, src, count, kind, stream);
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind) {
    if (cudaError_t e = implicit_sync_refused(nullptr)) return e;
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, true);
}

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                              size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
    if (cudaError_t e = implicit_sync_refused(stream)) return e;
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, false, stream);
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
    if (cudaError_t e = implicit_sync_refused(nullptr)) return e;
    return set_bytes(devPtr, value, count);
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
    if (cudaError_t e = implicit_sync_refused(stream)) return e;
    return set_bytes(devPtr, value, count, stream);
}

cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
    if (cudaError_t e = implicit_sync_refused(nullptr)) return e;
    return set_rows(devPtr, pitch, value, width, height);
}

cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
    if (!pitch) return Runtime::finish(cudaErrorInvalidValue);
    // The texture pitch alignment of compute capability 9.0 devices (cudaDeviceProp::texturePitchAlignment).
    constexpr size_t kPitchAlign = 512;
    *pitch = (width + kPitchAlign - 1) / kPitchAlign * kPitchAlign;
    return cudaMalloc(devPtr, *pitch * height);
}

cudaError_t cudaMallocHost(void** ptr, size_t size) {
    return alloc_shared(ptr, size, cudaHostAllocDefault, "pinned");
}

cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
    return alloc_shared(pHost, size, flags, "pinned");
}

cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
    return alloc_shared(devPtr, size, flags | kManagedFlag, "managed");
}

cudaError_t cudaFreeHost(void* ptr) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = rt.synchronize()) return Runtime::finish(e);  // cudaFreeHost waits for the device
    if (!ptr) return cudaSuccess;
    const auto* r = rt.host().exact(ptr);
    if (!r || !r->owned) return Runtime::finish(cudaErrorInvalidValue);
    rt.sim().memory().unmap_host(addr(ptr));
    rt.addresses().unmap_shared(ptr);
    rt.host().remove(ptr);
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (!ptr || size == 0) return Runtime::finish(cudaErrorInvalidValue);
    if (rt.host().overlaps(ptr, size)) return Runtime::finish(cudaErrorHostMemoryAlreadyRegistered);
    if (!rt.sim().memory().map_host(addr(ptr), size, static_cast<uint8_t*>(ptr),
                                    fmt::format("registered host memory at {}", ptr))) {
        std::fprintf(stderr,
                     "warpsim: cudaHostRegister(%p, %zu): the range overlaps memory the simulated device "
                     "already uses or its address windows\n",
                     ptr, size);
        return Runtime::finish(cudaErrorInvalidValue);
    }
    rt.host().add(ptr, size, flags, false);
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    const auto* r = rt.host().exact(ptr);
    if (!r || r->owned) return Runtime::finish(cudaErrorHostMemoryNotRegistered);
    rt.sim().memory().unmap_host(addr(ptr));
    rt.host().remove(ptr);
    return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pDevice || flags != 0) return Runtime::finish(cudaErrorInvalidValue);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    // Unified addressing: the device sees registered and pinned host memory at the host's address.
    if (!rt.host().containing(pHost)) return Runtime::finish(cudaErrorInvalidValue);
    *pDevice = pHost;
    return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    const auto* r = rt.host().containing(pHost);
    if (!pFlags || !r) return Runtime::finish(cudaErrorInvalidValue);
    *pFlags = r->flags & ~kManagedFlag;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!free || !total) return Runtime::finish(cudaErrorInvalidValue);
    *total = static_cast<size_t>(rt.preset().memory.bytes);
    const uint64_t used = rt.sim().memory().device_bytes_in_use();
    *free = used < *total ? *total - static_cast<size_t>(used) : 0;
    return cudaSuccess;
}

// Stream-ordered allocation: the work of a stream is done in issue order, so it is plain allocation here; on
// a capturing stream, an allocation or free node (graph_memory.cpp).
cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t stream) {
    {
        Runtime& rt = Runtime::get();
        auto guard = rt.lock();
        if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
        if (auto e = warpsim::runtime::capture_malloc(rt, devPtr, size, stream)) return Runtime::finish(*e);
    }
    return cudaMalloc(devPtr, size);
}
cudaError_t cudaMallocAsync_ptsz(void** devPtr, size_t size, cudaStream_t stream) {
    return cudaMallocAsync(devPtr, size, stream == nullptr ? cudaStreamPerThread : stream);
}
cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t stream) {
    {
        Runtime& rt = Runtime::get();
        auto guard = rt.lock();
        if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
        if (auto e = warpsim::runtime::capture_free(rt, devPtr, stream)) return Runtime::finish(*e);
    }
    return cudaFree(devPtr);
}
cudaError_t cudaFreeAsync_ptsz(void* devPtr, cudaStream_t stream) {
    return cudaFreeAsync(devPtr, stream == nullptr ? cudaStreamPerThread : stream);
}

// What a pointer is: device memory, pinned or registered host memory, managed memory, or plain host memory.
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!attributes) return Runtime::finish(cudaErrorInvalidValue);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    *attributes = {};
    attributes->device = 0;
    void* p = const_cast<void*>(ptr);
    uint64_t base = 0;
    if (rt.addresses().in_heap(addr(ptr)) && device_bytes(rt, ptr, 1)) {
        attributes->type = cudaMemoryTypeDevice;
        attributes->devicePointer = p;
    } else if (const auto* r = rt.host().containing(ptr, &base)) {
        const bool managed = r->owned && (r->flags & kManagedFlag) != 0;
        attributes->type = managed ? cudaMemoryTypeManaged : cudaMemoryTypeHost;
        attributes->devicePointer = p;
        attributes->hostPointer = p;
    } else {
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->device = -2;  // cudaInvalidDeviceId
        attributes->hostPointer = p;
    }
    return cudaSuccess;
}

// The per-thread-default-stream spellings (nvcc --default-stream per-thread): the blocking calls do what the
// legacy ones do (every stream's work is done in issue order here, and the per-thread default stream is on
// the legacy stream's clock: Runtime::stream_id) but are not legacy-stream work (refuse_implicit_sync); the
// stream-ordered ones take stream 0 as the per-thread stream, which a capture may record (api_capture.cpp).
cudaError_t cudaMemcpy_ptds(void* dst, const void* src, size_t n, cudaMemcpyKind kind) {
    return blocking_copy(dst, src, n, kind);
}
cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t s) {
    return cudaMemcpyAsync(dst, src, n, kind, s == nullptr ? cudaStreamPerThread : s);
}
cudaError_t cudaMemcpy2D_ptds(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                              size_t height, cudaMemcpyKind kind) {
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, true);
}
cudaError_t cudaMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                   size_t height, cudaMemcpyKind kind, cudaStream_t s) {
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind,
                             s == nullptr ? cudaStreamPerThread : s);
}
cudaError_t cudaMemset_ptds(void* p, int value, size_t n) {
    return set_bytes(p, value, n);
}
cudaError_t cudaMemsetAsync_ptsz(void* p, int value, size_t n, cudaStream_t s) {
    return cudaMemsetAsync(p, value, n, s == nullptr ? cudaStreamPerThread : s);
}
cudaError_t cudaMemset2D_ptds(void* p, size_t pitch, int value, size_t width, size_t height) {
    return set_rows(p, pitch, value, width, height);
}
cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream) {
    if (cudaError_t e = implicit_sync_refused(stream)) return e;
    return set_rows(devPtr, pitch, value, width, height, stream);
}
cudaError_t cudaMemset2DAsync_ptsz(void* p, size_t pitch, int value, size_t width, size_t height,
                                   cudaStream_t s) {
    return set_rows(p, pitch, value, width, height, s == nullptr ? cudaStreamPerThread : s);
}

}  // extern "C"
