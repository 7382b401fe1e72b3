// USM allocations: kinds, alignment, base and interior pointers, freeing what is not ours, advice, residency.
#include "test_support.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace zeal::cpu::test {
namespace {

using Memory = CpuDriver;

TEST_F(Memory, EachKindIsReportedWithItsDevice) {
  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void *host = nullptr, *dev = nullptr, *shared = nullptr;
  ZE_ASSERT_OK(zeMemAllocHost(context, &host_desc, 100, 0, &host));
  ZE_ASSERT_OK(zeMemAllocDevice(context, &device_desc, 100, 0, device, &dev));
  ZE_ASSERT_OK(zeMemAllocShared(context, &device_desc, &host_desc, 100, 0, device, &shared));

  struct Case {
    void *ptr;
    ze_memory_type_t type;
    ze_device_handle_t device;
  } cases[] = {{host, ZE_MEMORY_TYPE_HOST, nullptr}, {dev, ZE_MEMORY_TYPE_DEVICE, device},
               {shared, ZE_MEMORY_TYPE_SHARED, device}};
  for (const Case &c : cases) {
    ze_memory_allocation_properties_t p{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, nullptr, {}, 0, 0};
    ze_device_handle_t owner = nullptr;
    ZE_ASSERT_OK(zeMemGetAllocProperties(context, c.ptr, &p, &owner));
    EXPECT_EQ(c.type, p.type);
    EXPECT_EQ(c.device, owner);
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(c.ptr) % 64) << "default alignment is 64";
    ZE_EXPECT_OK(zeMemFree(context, c.ptr));
  }
}

TEST_F(Memory, AlignmentIsHonoured) {
  ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  for (size_t alignment : {1u, 8u, 64u, 256u, 4096u, 65536u}) {
    void *p = nullptr;
    ZE_ASSERT_OK(zeMemAllocHost(context, &desc, 24, alignment, &p));
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(p) % alignment) << "alignment " << alignment;
    ZE_EXPECT_OK(zeMemFree(context, p));
  }
  // Device memory comes from the context's heap, whose mapping is only page-aligned: alignments are of addresses.
  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  std::vector<void *> kept;
  for (size_t alignment : {1u, 64u, 4096u, 16384u, 65536u, 1u << 21}) {
    for (size_t size : {size_t(1), size_t(5000)}) {
      void *p = nullptr;
      ZE_ASSERT_OK(zeMemAllocDevice(context, &device_desc, size, alignment, device, &p));
      EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(p) % alignment) << "alignment " << alignment << ", size " << size;
      kept.push_back(p); // kept until the end, so that each allocation starts where the last left off
    }
  }
  for (void *p : kept) ZE_EXPECT_OK(zeMemFree(context, p));
}

TEST_F(Memory, InteriorPointersBelongToTheirAllocation) {
  auto *base = static_cast<char *>(shared(1000));
  ze_memory_allocation_properties_t p{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, nullptr, {}, 0, 0};
  ZE_ASSERT_OK(zeMemGetAllocProperties(context, base + 999, &p, nullptr));
  EXPECT_EQ(ZE_MEMORY_TYPE_SHARED, p.type);
  uint64_t id = p.id;
  ZE_ASSERT_OK(zeMemGetAllocProperties(context, base, &p, nullptr));
  EXPECT_EQ(id, p.id);

  void *found = nullptr;
  size_t size = 0;
  ZE_ASSERT_OK(zeMemGetAddressRange(context, base + 500, &found, &size));
  EXPECT_EQ(base, found);
  EXPECT_EQ(1000u, size);
}

TEST_F(Memory, UnknownPointersAreTypeUnknownAndCannotBeFreed) {
  int on_stack = 0;
  ze_memory_allocation_properties_t p{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, nullptr, {}, 0, 0};
  ZE_ASSERT_OK(zeMemGetAllocProperties(context, &on_stack, &p, nullptr));
  EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, p.type);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(context, &on_stack));

  auto *base = static_cast<char *>(shared(64));
  ZE_ASSERT_OK(zeMemGetAllocProperties(context, base + 64, &p, nullptr));
  EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, p.type) << "one past the end is not inside";
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(context, base + 8)) << "only the base frees";
}

// Allocations are whole pages, as a GPU driver's are: a kernel writing past the size it asked for (as
// level-zero-tests' launch and event tests do) writes into the allocation's own block, not the host's heap.
TEST_F(Memory, AKernelWritingALittlePastItsAllocationStaysInItsOwnBlock) {
  for (size_t asked : {size_t{1}, size_t{64}, size_t{1000}, size_t{4096}, size_t{4097}}) {
    auto *p = static_cast<int *>(shared(asked));
    ASSERT_NE(nullptr, p);
    const size_t block = (asked + 4095) / 4096 * 4096;
    EXPECT_GE(malloc_usable_size(p), block) << asked;
    void *base = nullptr;
    size_t size = 0;
    ZE_ASSERT_OK(zeMemGetAddressRange(context, p, &base, &size));
    EXPECT_EQ(asked, size) << "lookups see the size asked for";
  }
  auto *small = static_cast<int *>(shared(64));
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("vector_add.spv"), module));
  ze_kernel_handle_t fill = kernel(module, "fill_value");
  int value = 77;
  ZE_ASSERT_OK(zeKernelSetArgumentValue(fill, 0, sizeof(small), &small));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(fill, 1, sizeof(value), &value));
  ZE_ASSERT_OK(zeKernelSetGroupSize(fill, 64, 1, 1));
  ZE_ASSERT_OK(launch_and_wait(fill, {1024 / 64, 1, 1})); // 4 KiB into 64 bytes
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(77, small[i]) << i;
}

// Shared memory this process has resident (device allocations live in a memory file), in KiB.
long resident_shared_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("RssShmem:", 0) == 0) return std::stol(line.substr(9));
  return -1;
}

// A large freed device allocation gives its pages back at once; small ones are kept for reuse until 64 MiB of
// them pile up, then all go back. Device allocations that reuse a kept range still start at their own base.
TEST_F(Memory, FreedDeviceMemoryGoesBackToTheSystem) {
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  const long before = resident_shared_kib();
  ASSERT_GE(before, 0);
  void *big = nullptr;
  ZE_ASSERT_OK(zeMemAllocDevice(context, &desc, 32 << 20, 0, device, &big));
  std::memset(big, 1, 32 << 20);
  EXPECT_GE(resident_shared_kib() - before, 30 << 10);
  ZE_ASSERT_OK(zeMemFree(context, big));
  EXPECT_LT(resident_shared_kib() - before, 2 << 10);

  std::vector<void *> small(160); // 80 MiB
  for (void *&p : small) {
    ZE_ASSERT_OK(zeMemAllocDevice(context, &desc, 512 << 10, 0, device, &p));
    std::memset(p, 2, 512 << 10);
  }
  EXPECT_GE(resident_shared_kib() - before, 78 << 10);
  for (void *p : small) ZE_ASSERT_OK(zeMemFree(context, p));
  EXPECT_LT(resident_shared_kib() - before, 40 << 10) << "64 MiB of small frees trim the heap";
}

// Every allocation starts as zeros, also when it reuses memory of a freed one (small device frees keep their
// pages, small host and shared allocations come from the heap), and large ones keep their alignment.
TEST_F(Memory, EveryAllocationStartsAsZerosEvenWhenItReusesFreedMemory) {
  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  auto allocate = [&](int kind, size_t size, size_t alignment) {
    void *p = nullptr;
    ze_result_t r = kind == 0   ? zeMemAllocDevice(context, &device_desc, size, alignment, device, &p)
                    : kind == 1 ? zeMemAllocHost(context, &host_desc, size, alignment, &p)
                                : zeMemAllocShared(context, &device_desc, &host_desc, size, alignment, device, &p);
    EXPECT_EQ(ZE_RESULT_SUCCESS, r);
    return p;
  };
  for (int kind = 0; kind < 3; ++kind)
    for (size_t size : {size_t(256), size_t(64) << 10, size_t(3) << 20}) {
      SCOPED_TRACE(::testing::Message() << "kind " << kind << ", " << size << " bytes");
      void *first = allocate(kind, size, 0);
      ASSERT_NE(nullptr, first);
      std::memset(first, 0x5a, size);
      ZE_ASSERT_OK(zeMemFree(context, first));
      void *second = allocate(kind, size, 0);
      ASSERT_NE(nullptr, second);
      const auto *bytes = static_cast<const unsigned char *>(second);
      EXPECT_EQ(size, size_t(std::count(bytes, bytes + size, 0)));
      ZE_ASSERT_OK(zeMemFree(context, second));
      void *aligned = allocate(kind, size, size_t(1) << 16);
      EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(aligned) % (size_t(1) << 16));
      ZE_ASSERT_OK(zeMemFree(context, aligned));
    }
}

TEST_F(Memory, ZeroSizeAndBadAlignmentAreRefused) {
  ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void *p = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeMemAllocHost(context, &desc, 0, 0, &p));
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, zeMemAllocHost(context, &desc, 16, 3, &p));
}

// Device allocations count against the memory the device reports, across contexts: what would go past it is
// OUT_OF_DEVICE_MEMORY; freeing (or destroying the context) gives it back. Larger than the largest allocation is
// UNSUPPORTED_SIZE, as the spec says. Device memory is address space until touched, so this costs nothing.
TEST_F(Memory, DeviceAllocationsPastTheDevicesMemoryAreOutOfDeviceMemory) {
  uint32_t count = 1;
  ze_device_memory_properties_t memory{};
  memory.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetMemoryProperties(device, &count, &memory));
  ze_device_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetProperties(device, &properties));
  const uint64_t half = memory.totalSize / 2;
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  void *too_big = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
            zeMemAllocDevice(context, &desc, properties.maxMemAllocSize + 1, 0, device, &too_big));

  ze_context_handle_t other = nullptr;
  ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ZE_ASSERT_OK(zeContextCreate(driver, &context_desc, &other));
  void *first = nullptr, *second = nullptr, *more = nullptr;
  ZE_ASSERT_OK(zeMemAllocDevice(context, &desc, half, 0, device, &first));
  ZE_ASSERT_OK(zeMemAllocDevice(other, &desc, memory.totalSize - half, 0, device, &second));
  EXPECT_EQ(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, zeMemAllocDevice(context, &desc, 4096, 0, device, &more))
      << "the device's memory is all in use, in two contexts";
  EXPECT_EQ(more, nullptr);
  ZE_EXPECT_OK(zeMemFree(context, first));
  ZE_ASSERT_OK(zeMemAllocDevice(context, &desc, 4096, 0, device, &more)) << "freed memory is the device's again";
  ZE_EXPECT_OK(zeMemFree(context, more));
  ZE_EXPECT_OK(zeContextDestroy(other)); // with `second` still allocated
  ZE_ASSERT_OK(zeMemAllocDevice(context, &desc, memory.totalSize - 4096, 0, device, &first))
      << "a destroyed context's allocations are the device's again";
  ZE_EXPECT_OK(zeMemFree(context, first));
}

// The virtual memory page size is answered for any size, and never 0, which a caller divides by.
// ZE_extension_memory_free_policies: the driver lists it with both policies, and a free with either waits for the
// commands submitted before it (here a fill held back by an event on an immediate list), so that the fill never
// writes into freed memory.
TEST_F(Memory, AFreeWithAPolicyWaitsForTheCommandsSubmittedBeforeIt) {
  uint32_t count = 0;
  ZE_ASSERT_OK(zeDriverGetExtensionProperties(driver, &count, nullptr));
  std::vector<ze_driver_extension_properties_t> extensions(count);
  ZE_ASSERT_OK(zeDriverGetExtensionProperties(driver, &count, extensions.data()));
  EXPECT_TRUE(std::any_of(extensions.begin(), extensions.end(), [](const ze_driver_extension_properties_t &e) {
    return std::string(e.name) == ZE_MEMORY_FREE_POLICIES_EXT_NAME && e.version == ZE_MEMORY_FREE_POLICIES_EXT_VERSION_1_0;
  }));
  ze_driver_memory_free_ext_properties_t policies{ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES, nullptr, 0};
  ze_driver_properties_t properties{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES, &policies, {}, 0};
  ZE_ASSERT_OK(zeDriverGetProperties(driver, &properties));
  EXPECT_EQ(uint32_t(ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE | ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE),
            uint32_t(policies.freePolicies));

  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  for (ze_driver_memory_free_policy_ext_flags_t policy :
       {ze_driver_memory_free_policy_ext_flags_t(ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE),
        ze_driver_memory_free_policy_ext_flags_t(ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE)}) {
    SCOPED_TRACE(::testing::Message() << "policy " << policy);
    void *memory = nullptr;
    ZE_ASSERT_OK(zeMemAllocDevice(context, &device_desc, 1 << 20, 0, device, &memory));
    ze_command_list_handle_t list = immediate_list();
    ze_event_handle_t gate = event(), filled = event();
    const uint8_t pattern = 0x5a;
    ZE_ASSERT_OK(zeCommandListAppendWaitOnEvents(list, 1, &gate));
    ZE_ASSERT_OK(zeCommandListAppendMemoryFill(list, memory, &pattern, 1, 1 << 20, filled, 0, nullptr));
    std::atomic<bool> returned = false;
    ze_result_t freed = ZE_RESULT_ERROR_UNKNOWN;
    std::thread freer([&] {
      ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr, policy};
      freed = zeMemFreeExt(context, &desc, memory);
      returned = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(returned) << "the free waits for the fill submitted before it";
    // Meanwhile the context stays usable: a new list is made and runs a command of its own.
    ze_command_list_handle_t another = immediate_list();
    ze_event_handle_t ran = event();
    auto *value = shared_array<int>(1);
    const int seven = 7;
    ZE_ASSERT_OK(zeCommandListAppendMemoryFill(another, value, &seven, sizeof(seven), sizeof(seven), ran, 0, nullptr));
    ZE_EXPECT_OK(zeEventHostSynchronize(ran, UINT64_MAX));
    EXPECT_EQ(7, *value);
    ZE_EXPECT_OK(zeEventHostSignal(gate));
    freer.join();
    ZE_EXPECT_OK(freed);
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(filled)) << "the fill ran before the memory was freed";
    ze_memory_allocation_properties_t p{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, nullptr, {}, 0, 0};
    ZE_EXPECT_OK(zeMemGetAllocProperties(context, memory, &p, nullptr));
    EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, p.type) << "freed";
  }
}

TEST_F(Memory, AFreeWithoutAPolicyIsAPlainFreeAndBadArgumentsAreRefused) {
  ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void *memory = nullptr;
  ZE_ASSERT_OK(zeMemAllocHost(context, &host_desc, 64, 0, &memory));
  ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr, 0x4};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeMemFreeExt(context, &desc, memory)) << "a flag no policy has";
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemFreeExt(context, nullptr, memory));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeMemFreeExt(nullptr, &desc, memory));
  desc.freePolicy = 0;
  int on_stack = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFreeExt(context, &desc, &on_stack)) << "not an allocation";
  desc.freePolicy = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFreeExt(context, &desc, static_cast<char *>(memory) + 8))
      << "inside an allocation, not its start";
  desc.freePolicy = 0;
  ZE_EXPECT_OK(zeMemFreeExt(context, &desc, memory));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFreeExt(context, &desc, memory)) << "freed already";
}

TEST_F(Memory, TheVirtualMemoryPageSizeIsTheHostsPage) {
  size_t page = 0;
  ZE_ASSERT_OK(zeVirtualMemQueryPageSize(context, device, 1 << 20, &page));
  EXPECT_EQ(static_cast<size_t>(sysconf(_SC_PAGESIZE)), page);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeVirtualMemQueryPageSize(context, device, 4096, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeVirtualMemQueryPageSize(context, nullptr, 4096, &page));
}

TEST_F(Memory, EveryAdviceOnASharedAllocationIsAcceptedAndUnknownAdviceRefused) {
  void *p = shared(4096);
  ze_command_list_handle_t list = immediate_list();
  for (int advice = ZE_MEMORY_ADVICE_SET_READ_MOSTLY; advice <= ZE_MEMORY_ADVICE_BIAS_UNCACHED; ++advice)
    ZE_EXPECT_OK(zeCommandListAppendMemAdvise(list, device, p, 4096, static_cast<ze_memory_advice_t>(advice)))
        << advice;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
            zeCommandListAppendMemAdvise(list, device, p, 4096,
                                         static_cast<ze_memory_advice_t>(ZE_MEMORY_ADVICE_BIAS_UNCACHED + 1)));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
            zeCommandListAppendMemAdvise(list, device, nullptr, 4096, ZE_MEMORY_ADVICE_SET_READ_MOSTLY));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
            zeCommandListAppendMemAdvise(list, nullptr, p, 4096, ZE_MEMORY_ADVICE_SET_READ_MOSTLY));
}

TEST_F(Memory, RangesOfTheContextsAllocationsAreResidentAndEvictable) {
  auto *base = static_cast<char *>(shared(1000));
  for (auto *call : {zeContextMakeMemoryResident, zeContextEvictMemory}) {
    ZE_EXPECT_OK(call(context, device, base, 1000));
    ZE_EXPECT_OK(call(context, device, base + 100, 900)) << "an interior range up to the end";
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, call(context, device, base + 100, 901)) << "one byte past the end";
    int on_stack = 0;
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, call(context, device, &on_stack, sizeof(on_stack)));
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, call(context, device, nullptr, 1));
  }
}

TEST_F(Memory, AnAllocationOfAnotherContextIsNotResidentThroughThisOne) {
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t other = nullptr;
  ZE_ASSERT_OK(zeContextCreate(driver, &desc, &other));
  ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void *theirs = nullptr;
  ZE_ASSERT_OK(zeMemAllocHost(other, &host_desc, 64, 0, &theirs));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeContextMakeMemoryResident(context, device, theirs, 64));
  ZE_EXPECT_OK(zeContextMakeMemoryResident(other, device, theirs, 64));
  ZE_EXPECT_OK(zeMemFree(other, theirs));
  ZE_EXPECT_OK(zeContextDestroy(other));
}

TEST_F(Memory, ASystemBarrierSucceedsAndNeedsBothHandles) {
  ZE_EXPECT_OK(zeContextSystemBarrier(context, device));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeContextSystemBarrier(context, nullptr));
}

} // namespace
} // namespace zeal::cpu::test
