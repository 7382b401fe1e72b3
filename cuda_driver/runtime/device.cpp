// The CUDA devices: their Level Zero properties, as CUDA reports the card, and the zeDevice* entry points.
#include "cuda_driver/runtime/code_loader.hpp"
#include "cuda_driver/runtime/command_queue.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"
#include "cuda_driver/runtime/driver.hpp"
#include "cuda_driver/runtime/image.hpp"
#include "cuda_driver/runtime/joint_module.hpp"
#include "cuda_driver/runtime/stream_feeder.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace zeal::cuda {

Device::Device(const CudaLibrary &cuda, const DeviceFacts &facts, CUdevice device, CUcontext context)
    : cuda_(cuda), facts_(facts), device_(device), context_(context), joint_(std::make_unique<JointModule>(*this)),
      loader_(std::make_unique<CodeLoader>(*this)) {
  if (const char *connections = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS"))
    if (const int set = std::atoi(connections); set >= 1 && set <= 32) work_queues_ = uint32_t(set);
  copy_engines_ = uint32_t(std::max(1, attribute(Attribute::AsyncEngineCount)));
  auto &p = properties_;
  p.type = ZE_DEVICE_TYPE_GPU;
  p.vendorId = 0x10de; // NVIDIA's PCI vendor id
  // CUDA does not tell the PCI product id; the compute capability tells the architecture apart instead.
  p.deviceId = uint32_t(facts.compute_major * 10 + facts.compute_minor);
  p.coreClockRate = uint32_t(facts.clock_khz / 1000);
  p.maxMemAllocSize = facts.memory_bytes;
  p.maxHardwareContexts = 1;
  p.maxCommandQueuePriority = 0;
  // A multiprocessor is a sub-slice of four "EUs" (its four warp schedulers), each running 32-wide warps.
  constexpr uint32_t schedulers = 4;
  p.numSlices = 1;
  p.numSubslicesPerSlice = uint32_t(facts.multiprocessors);
  p.numEUsPerSubslice = schedulers;
  p.physicalEUSimdWidth = uint32_t(facts.warp_size);
  p.numThreadsPerEU = std::max(1u, uint32_t(attribute(Attribute::MaxThreadsPerMultiprocessor)) /
                                       (schedulers * uint32_t(facts.warp_size)));
  p.timerResolution = 1; // nanoseconds
  p.timestampValidBits = 64;
  p.kernelTimestampValidBits = 64;
  unsigned char uuid[16] = {};
  cuda.api().cuDeviceGetUuid(uuid, device);
  std::memcpy(p.uuid.id, uuid, std::min(sizeof uuid, sizeof p.uuid.id));
  std::snprintf(p.name, sizeof p.name, "%s", facts.name.c_str());

  auto &c = compute_;
  c.maxTotalGroupSize = uint32_t(facts.max_threads_per_block);
  c.maxGroupSizeX = uint32_t(attribute(Attribute::MaxBlockDimX));
  c.maxGroupSizeY = uint32_t(attribute(Attribute::MaxBlockDimY));
  c.maxGroupSizeZ = uint32_t(attribute(Attribute::MaxBlockDimZ));
  c.maxGroupCountX = uint32_t(attribute(Attribute::MaxGridDimX));
  c.maxGroupCountY = uint32_t(attribute(Attribute::MaxGridDimY));
  c.maxGroupCountZ = uint32_t(attribute(Attribute::MaxGridDimZ));
  c.maxSharedLocalMemory = uint32_t(std::max(attribute(Attribute::MaxSharedMemoryPerBlockOptin),
                                             attribute(Attribute::MaxSharedMemoryPerBlock)));
  // A warp, and segments of 8 and 16 lanes of one (shuffles with a width): kernels written for Intel GPUs'
  // reqd_sub_group_size(8|16) run as they are; kernels that require none get a whole warp.
  const uint32_t sizes[] = {8, 16, uint32_t(facts.warp_size)};
  c.numSubGroupSizes = uint32_t(std::size(sizes));
  std::copy(std::begin(sizes), std::end(sizes), c.subGroupSizes);

  auto &m = module_;
  m.spirvVersionSupported = ZE_MAKE_VERSION(1, 4);
  m.flags = ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_FP64 | ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  constexpr ze_device_fp_flags_t ieee = ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN |
                                        ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO |
                                        ZE_DEVICE_FP_FLAG_ROUND_TO_INF | ZE_DEVICE_FP_FLAG_FMA;
  m.fp16flags = ieee;
  m.fp32flags = ieee | ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
  m.fp64flags = ieee;
  m.maxArgumentsSize = 4096; // CUDA's kernel parameter space
  m.printfBufferSize = 0;
  std::snprintf(reinterpret_cast<char *>(m.nativeKernelSupported.id), sizeof m.nativeKernelSupported.id, "ptx-sm%u",
                ptx_sm());
}

Device::~Device() = default;

int Device::attribute(Attribute which) const {
  int value = 0;
  api().cuDeviceGetAttribute(&value, int(which), device_);
  return value;
}

void Device::make_current() const {
  thread_local CUcontext current = nullptr;
  if (current == context_) return;
  if (api().cuCtxSetCurrent(context_) == CUDA_SUCCESS) current = context_;
}

namespace {

// One thread stores the device's global nanosecond timer where it is told.
constexpr char stamp_ptx[] = R"(.version 7.0
.target sm_50
.address_size 64
.visible .entry zeal_timestamp(.param .u64 at) {
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [at];
  mov.u64 %rd2, %globaltimer;
  st.global.u64 [%rd1], %rd2;
  ret;
}
)";

} // namespace

void Device::load_timestamp_kernel() const {
  std::call_once(stamp_once_, [this] {
    make_current();
    CUmodule module = nullptr; // kept for the process: the device's own code
    if (checked(api().cuModuleLoadData(&module, stamp_ptx), "cuModuleLoadData") == ZE_RESULT_SUCCESS)
      checked(api().cuModuleGetFunction(&stamp_, module, "zeal_timestamp"), "cuModuleGetFunction");
  });
}

ze_result_t Device::write_timestamp(CUstream stream, uint64_t *at) const {
  load_timestamp_kernel();
  if (stamp_ == nullptr) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  void *params[] = {&at};
  return checked(api().cuLaunchKernel(stamp_, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr), "cuLaunchKernel");
}

void Device::add_feeder(StreamFeeder *feeder) const {
  std::lock_guard lock(feeders_mutex_);
  feeders_.push_back(feeder);
}

void Device::remove_feeder(StreamFeeder *feeder) const {
  std::lock_guard lock(feeders_mutex_);
  feeders_.erase(std::remove(feeders_.begin(), feeders_.end(), feeder), feeders_.end());
}

bool Device::streams_may_stall() const {
  std::lock_guard lock(feeders_mutex_);
  return std::any_of(feeders_.begin(), feeders_.end(), [](StreamFeeder *f) { return f->may_stall(); });
}

CUstream Device::bridge_stream() const {
  std::call_once(bridge_once_, [this] {
    make_current();
    checked(api().cuStreamCreate(&bridge_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  });
  return bridge_;
}

bool Device::lost() const {
  make_current();
  return to_ze_result(api().cuStreamQuery(nullptr)) == ZE_RESULT_ERROR_DEVICE_LOST;
}

unsigned Device::ptx_sm() const { return std::min(80u, unsigned(facts_.compute_major * 10 + facts_.compute_minor)); }

namespace {

Device *checked_device(ze_device_handle_t handle) { return handle == nullptr ? nullptr : Device::from(handle); }

ze_result_t device_get(ze_driver_handle_t driver, uint32_t *count, ze_device_handle_t *out) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return list_out(Driver::from(driver)->devices(), count, out);
}

ze_result_t device_get_sub_devices(ze_device_handle_t device, uint32_t *count, ze_device_handle_t *) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *count = 0;
  return ZE_RESULT_SUCCESS;
}

// zeDeviceGet*Properties of one struct: null checks, then the device's own copy under the caller's header.
template <auto Of, class T>
ze_result_t properties_of(ze_device_handle_t device, T *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  copy_keeping_header(out, (checked_device(device)->*Of)());
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_properties(ze_device_handle_t device, ze_device_properties_t *out) {
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // The 1.2 structure gives the timer's resolution as cycles per second, the older one as nanoseconds per cycle.
  const bool cycles_per_second = out->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2;
  ze_result_t r = properties_of<&Device::properties>(device, out);
  if (r == ZE_RESULT_SUCCESS && cycles_per_second) out->timerResolution = 1'000'000'000;
  return r;
}
ze_result_t device_get_compute_properties(ze_device_handle_t device, ze_device_compute_properties_t *out) {
  return properties_of<&Device::compute_properties>(device, out);
}
ze_result_t device_get_module_properties(ze_device_handle_t device, ze_device_module_properties_t *out) {
  return properties_of<&Device::module_properties>(device, out);
}

// The two queue groups of command_queue.hpp: every queue is a CUDA stream of its own.
ze_result_t device_get_command_queue_group_properties(ze_device_handle_t device, uint32_t *count,
                                                      ze_command_queue_group_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::array<ze_command_queue_group_properties_t, queue_group_count> groups{};
  for (uint32_t ordinal = 0; ordinal < queue_group_count; ++ordinal) {
    ze_command_queue_group_properties_t &group = groups[ordinal];
    group.flags = ordinal == compute_group
                      ? ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY |
                            ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS
                      : ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
    group.maxMemoryFillPatternSize = 128;
    group.numQueues = queues_in_group(*Device::from(device), ordinal);
  }
  return ze::list_properties(std::span<const ze_command_queue_group_properties_t>(groups), count, out);
}

ze_result_t device_get_memory_properties(ze_device_handle_t handle, uint32_t *count,
                                         ze_device_memory_properties_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const DeviceFacts &f = checked_device(handle)->facts();
  ze_device_memory_properties_t memory{};
  memory.maxClockRate = uint32_t(f.memory_clock_khz / 1000);
  memory.maxBusWidth = uint32_t(f.memory_bus_bits);
  memory.totalSize = f.memory_bytes;
  std::snprintf(memory.name, sizeof memory.name, "HBM");
  return ze::list_properties(memory, count, out);
}

ze_result_t device_get_memory_access_properties(ze_device_handle_t handle, ze_device_memory_access_properties_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Device *device = checked_device(handle);
  constexpr ze_memory_access_cap_flags_t rw = ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC;
  ze_device_memory_access_properties_t access{};
  access.hostAllocCapabilities = rw;
  access.deviceAllocCapabilities = rw;
  access.sharedSingleDeviceAllocCapabilities = rw;
  if (device->attribute(Attribute::ConcurrentManagedAccess) != 0) {
    access.sharedSingleDeviceAllocCapabilities |= ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT;
  }
  copy_keeping_header(out, access);
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_cache_properties(ze_device_handle_t handle, uint32_t *count, ze_device_cache_properties_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  ze_device_cache_properties_t cache{};
  cache.cacheSize = size_t(checked_device(handle)->attribute(Attribute::L2CacheSize));
  return ze::list_properties(cache, count, out);
}

ze_result_t device_get_image_properties(ze_device_handle_t handle, ze_device_image_properties_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  copy_keeping_header(out, ze::device_image_properties(Images::limits)); // the largest images zeImageCreate makes
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_external_memory_properties(ze_device_handle_t handle,
                                                  ze_device_external_memory_properties_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  copy_keeping_header(out, ze_device_external_memory_properties_t{});
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_can_access_peer(ze_device_handle_t device, ze_device_handle_t peer, ze_bool_t *value) {
  if (device == nullptr || peer == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (value == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *value = device == peer; // peer access between cards is not set up yet
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_p2p_properties(ze_device_handle_t device, ze_device_handle_t peer,
                                      ze_device_p2p_properties_t *out) {
  if (device == nullptr || peer == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  ze_device_p2p_properties_t p2p{};
  if (device == peer) p2p.flags = ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS | ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS;
  copy_keeping_header(out, p2p);
  return ZE_RESULT_SUCCESS;
}

// The host's and the device's clocks read as close together as a round trip allows: the device's by a stamp
// kernel into pinned memory, the host's (CLOCK_MONOTONIC, nanoseconds) half-way through.
ze_result_t device_get_global_timestamps(ze_device_handle_t handle, uint64_t *host, uint64_t *device_time) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (host == nullptr || device_time == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const Device &device = *checked_device(handle);
  device.make_current();
  const DriverApi &api = device.api();
  void *word = nullptr;
  if (ze_result_t r = checked(api.cuMemHostAlloc(&word, 8, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                              "cuMemHostAlloc");
      r != ZE_RESULT_SUCCESS)
    return r;
  auto now = [] {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return uint64_t(t.tv_sec) * 1'000'000'000u + uint64_t(t.tv_nsec);
  };
  const uint64_t before = now();
  ze_result_t r = device.write_timestamp(nullptr, static_cast<uint64_t *>(word));
  if (r == ZE_RESULT_SUCCESS) r = checked(api.cuCtxSynchronize(), "cuCtxSynchronize");
  const uint64_t after = now();
  *host = before + (after - before) / 2;
  *device_time = *static_cast<uint64_t *>(word);
  api.cuMemFreeHost(word);
  return r;
}

ze_result_t device_get_status(ze_device_handle_t device) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return checked_device(device)->lost() ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_device_dditable_t &t) {
  t.pfnGet = guarded<device_get>;
  t.pfnGetSubDevices = guarded<device_get_sub_devices>;
  t.pfnGetProperties = guarded<device_get_properties>;
  t.pfnGetComputeProperties = guarded<device_get_compute_properties>;
  t.pfnGetModuleProperties = guarded<device_get_module_properties>;
  t.pfnGetCommandQueueGroupProperties = guarded<device_get_command_queue_group_properties>;
  t.pfnGetMemoryProperties = guarded<device_get_memory_properties>;
  t.pfnGetMemoryAccessProperties = guarded<device_get_memory_access_properties>;
  t.pfnGetCacheProperties = guarded<device_get_cache_properties>;
  t.pfnGetImageProperties = guarded<device_get_image_properties>;
  t.pfnGetExternalMemoryProperties = guarded<device_get_external_memory_properties>;
  t.pfnCanAccessPeer = guarded<device_can_access_peer>;
  t.pfnGetP2PProperties = guarded<device_get_p2p_properties>;
  t.pfnGetStatus = guarded<device_get_status>;
  t.pfnGetGlobalTimestamps = guarded<device_get_global_timestamps>;
}

} // namespace zeal::cuda
