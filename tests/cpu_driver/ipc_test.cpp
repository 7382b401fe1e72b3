// IPC: device allocations and event pools handed to another context of this process and to another process
// (tests/cpu_driver/ipc_peer.cpp, over a Unix socket, as an application would), and every refusal with its code.
#include "fd_passing.hpp"
#include "test_support.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>

extern char **environ;

namespace zeal::cpu::test {
namespace {

class Ipc : public CpuDriver {
protected:
  void *device_memory(size_t size) {
    ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
    void *p = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(context, &desc, size, 0, device, &p));
    if (p != nullptr) allocations.push_back(p);
    return p;
  }
  // Through a synchronous immediate list: the copy has run when the append returns.
  void copy(void *to, const void *from, size_t size) {
    if (sync_list == nullptr) {
      ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                   ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
      ZE_EXPECT_OK(zeCommandListCreateImmediate(context, device, &desc, &sync_list));
      lists.push_back(sync_list);
    }
    ZE_EXPECT_OK(zeCommandListAppendMemoryCopy(sync_list, to, from, size, nullptr, 0, nullptr));
  }
  ze_event_pool_handle_t ipc_pool(uint32_t count) {
    ze_event_pool_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                              ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, count};
    ze_event_pool_handle_t p = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(context, &desc, 1, &device, &p));
    return p;
  }
  ze_command_list_handle_t sync_list = nullptr;

  static int fd_of(const ze_ipc_mem_handle_t &h) {
    int fd;
    std::memcpy(&fd, h.data, sizeof fd);
    return fd;
  }
};

std::vector<uint8_t> pattern(size_t size) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = uint8_t(i * 7 + 3);
  return bytes;
}

TEST_F(Ipc, TheDriverSaysItSharesMemoryAndEventPools) {
  ze_driver_ipc_properties_t properties{ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, nullptr, 0};
  ZE_ASSERT_OK(zeDriverGetIpcProperties(driver, &properties));
  EXPECT_EQ(ZE_IPC_PROPERTY_FLAG_MEMORY | ZE_IPC_PROPERTY_FLAG_EVENT_POOL, properties.flags);
}

// Opened in another context of the same process, the handle shows the same bytes, both ways.
TEST_F(Ipc, AnOpenedHandleIsTheSameMemoryInAnotherContext) {
  const size_t size = 10000; // not a whole number of pages
  auto *memory = static_cast<uint8_t *>(device_memory(size));
  std::vector<uint8_t> bytes = pattern(size);
  copy(memory, bytes.data(), size);

  ze_ipc_mem_handle_t handle{};
  ZE_ASSERT_OK(zeMemGetIpcHandle(context, memory, &handle));
  ze_context_handle_t other = nullptr;
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ZE_ASSERT_OK(zeContextCreate(driver, &desc, &other));
  void *opened = nullptr, *again = nullptr;
  ZE_ASSERT_OK(zeMemOpenIpcHandle(other, device, handle, 0, &opened));
  ZE_ASSERT_OK(zeMemOpenIpcHandle(other, device, handle, ZE_IPC_MEMORY_FLAG_BIAS_CACHED, &again));
  EXPECT_NE(opened, again) << "each open gives its own pointer";
  EXPECT_NE(static_cast<void *>(memory), opened);

  ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, nullptr,
                                               ZE_MEMORY_TYPE_UNKNOWN, 0, 0};
  ze_device_handle_t owner = nullptr;
  ZE_EXPECT_OK(zeMemGetAllocProperties(other, opened, &properties, &owner));
  EXPECT_EQ(ZE_MEMORY_TYPE_DEVICE, properties.type);
  EXPECT_EQ(device, owner);
  void *base = nullptr;
  size_t length = 0;
  ZE_EXPECT_OK(zeMemGetAddressRange(other, static_cast<uint8_t *>(opened) + 5, &base, &length));
  EXPECT_EQ(opened, base);
  EXPECT_GE(length, size);

  std::vector<uint8_t> seen(size);
  std::memcpy(seen.data(), opened, size);
  EXPECT_EQ(bytes, seen);
  static_cast<uint8_t *>(again)[size - 1] = 0xee; // written through one mapping, seen through the others
  EXPECT_EQ(0xee, static_cast<uint8_t *>(opened)[size - 1]);
  copy(seen.data(), memory, size);
  EXPECT_EQ(0xee, seen[size - 1]);

  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetIpcHandle(other, opened, &handle))
      << "only the owner of the memory exports it";
  ZE_EXPECT_OK(zeMemCloseIpcHandle(other, opened));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemCloseIpcHandle(other, opened)) << "closed twice";
  ZE_EXPECT_OK(zeMemCloseIpcHandle(other, again));
  ZE_EXPECT_OK(zeContextDestroy(other));
  EXPECT_EQ(0xee, memory[size - 1]) << "the owner's memory outlives what was opened of it";
}

TEST_F(Ipc, OnlyTheStartOfADeviceAllocationHasAHandle) {
  ze_ipc_mem_handle_t handle{};
  auto *memory = static_cast<uint8_t *>(device_memory(4096));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetIpcHandle(context, memory + 64, &handle));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetIpcHandle(context, shared(64), &handle));
  ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void *host = nullptr;
  ZE_ASSERT_OK(zeMemAllocHost(context, &host_desc, 64, 0, &host));
  allocations.push_back(host);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetIpcHandle(context, host, &handle));
  int on_stack = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetIpcHandle(context, &on_stack, &handle));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemCloseIpcHandle(context, memory))
      << "an allocation of this context is freed, not closed";
}

TEST_F(Ipc, AHandleFromElsewhereIsRefused) {
  void *opened = nullptr;
  ze_ipc_mem_handle_t zeros{};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemOpenIpcHandle(context, device, zeros, 0, &opened));

  ze_ipc_mem_handle_t handle{};
  ZE_ASSERT_OK(zeMemGetIpcHandle(context, device_memory(8192), &handle));
  // The descriptor not passed on: a number that is not open here.
  ze_ipc_mem_handle_t unpassed = handle;
  int closed = dup(fd_of(handle));
  close(closed);
  std::memcpy(unpassed.data, &closed, sizeof closed);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemOpenIpcHandle(context, device, unpassed, 0, &opened));
  // A descriptor of some other file, too short for the range.
  int other = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(other, 0);
  ze_ipc_mem_handle_t wrong_file = handle;
  std::memcpy(wrong_file.data, &other, sizeof other);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemOpenIpcHandle(context, device, wrong_file, 0, &opened));
  close(other);
  // An event pool's handle is not memory.
  ze_event_pool_handle_t events_pool = ipc_pool(2);
  ze_ipc_event_pool_handle_t pool_handle{};
  ZE_ASSERT_OK(zeEventPoolGetIpcHandle(events_pool, &pool_handle));
  ze_ipc_mem_handle_t as_memory{};
  std::memcpy(as_memory.data, pool_handle.data, sizeof as_memory.data);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemOpenIpcHandle(context, device, as_memory, 0, &opened));
  ZE_EXPECT_OK(zeEventPoolDestroy(events_pool));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeMemOpenIpcHandle(context, device, handle, 4, &opened));
  EXPECT_EQ(nullptr, opened);
}

// Physical memory mapped at reserved addresses is device memory too.
TEST_F(Ipc, MappedPhysicalMemoryHasAHandle) {
  size_t page = 0;
  ZE_ASSERT_OK(zeVirtualMemQueryPageSize(context, device, 1 << 16, &page));
  const size_t size = 4 * page;
  void *start = nullptr;
  // A start hint the validation layer accepts (it refuses none) and that is ordinary memory for every sanitizer: a
  // range just unmapped.
  void *hint = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(MAP_FAILED, hint);
  munmap(hint, size);
  ZE_ASSERT_OK(zeVirtualMemReserve(context, hint, size, &start));
  ze_physical_mem_desc_t desc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, 2 * size};
  ze_physical_mem_handle_t physical = nullptr;
  ZE_ASSERT_OK(zePhysicalMemCreate(context, device, &desc, &physical));
  // The second half of the physical memory, so the handle must carry the offset.
  ZE_ASSERT_OK(zeVirtualMemMap(context, start, size, physical, size, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  std::memset(start, 0x21, size);
  ze_ipc_mem_handle_t handle{};
  ZE_ASSERT_OK(zeMemGetIpcHandle(context, start, &handle));
  void *opened = nullptr;
  ZE_ASSERT_OK(zeMemOpenIpcHandle(context, device, handle, 0, &opened));
  std::vector<uint8_t> seen(size);
  std::memcpy(seen.data(), opened, size);
  EXPECT_EQ(std::vector<uint8_t>(size, 0x21), seen);
  ZE_EXPECT_OK(zeMemCloseIpcHandle(context, opened));
  ZE_EXPECT_OK(zeVirtualMemUnmap(context, start, size));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetIpcHandle(context, start, &handle)) << "no longer mapped";
  ZE_EXPECT_OK(zeVirtualMemFree(context, start, size));
  ZE_EXPECT_OK(zePhysicalMemDestroy(context, physical));
}

// An event at an index of an opened pool is the exporter's event at that index, whichever side signals.
TEST_F(Ipc, AnOpenedEventPoolSharesItsEvents) {
  ze_event_pool_handle_t exported = ipc_pool(4);
  ze_event_handle_t mine = nullptr;
  ZE_ASSERT_OK(zeal::test::create_host_event(exported, 2, mine));
  ze_ipc_event_pool_handle_t handle{};
  ZE_ASSERT_OK(zeEventPoolGetIpcHandle(exported, &handle));
  ZE_ASSERT_OK(zeEventHostSignal(mine)); // before the other side opens: the state is kept

  ze_event_pool_handle_t opened = nullptr;
  ZE_ASSERT_OK(zeEventPoolOpenIpcHandle(context, handle, &opened));
  ze_event_handle_t theirs = nullptr;
  ZE_ASSERT_OK(zeal::test::create_host_event(opened, 2, theirs));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(theirs));
  ZE_EXPECT_OK(zeEventHostReset(theirs));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(mine));

  // Signalled by a command list on the other side, with timestamps.
  ze_command_list_handle_t list = immediate_list();
  ZE_EXPECT_OK(zeCommandListAppendSignalEvent(list, theirs));
  ZE_EXPECT_OK(zeEventHostSynchronize(mine, 10'000'000'000ull));
  // The same slot through the other mapping: the list is done with `theirs` before it is destroyed (ThreadSanitizer
  // keys that order by address, so it needs the wait on this mapping too).
  ZE_EXPECT_OK(zeEventHostSynchronize(theirs, 0));
  ZE_EXPECT_OK(zeEventDestroy(theirs));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolGetIpcHandle(opened, &handle))
      << "only the creator exports a pool";
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolCloseIpcHandle(exported)) << "a pool of one's own is destroyed";
  ZE_EXPECT_OK(zeEventPoolCloseIpcHandle(opened));
  ZE_EXPECT_OK(zeEventDestroy(mine));
  ZE_EXPECT_OK(zeEventPoolDestroy(exported));
}

TEST_F(Ipc, APoolWithoutTheIpcFlagHasNoHandle) {
  ze_event_pool_handle_t plain = nullptr;
  ZE_ASSERT_OK(zeal::test::create_host_event_pool(context, 2, plain, device));
  ze_ipc_event_pool_handle_t handle{};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolGetIpcHandle(plain, &handle));
  ZE_EXPECT_OK(zeEventPoolDestroy(plain));
  ze_event_pool_handle_t opened = nullptr;
  ze_ipc_event_pool_handle_t zeros{};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolOpenIpcHandle(context, zeros, &opened));
  EXPECT_EQ(nullptr, opened);
}

TEST_F(Ipc, DeviceMemoryIsSharedAsOpaqueFileDescriptors) {
  ze_device_external_memory_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES, nullptr,
                                                    0, 0, 0, 0};
  ZE_ASSERT_OK(zeDeviceGetExternalMemoryProperties(device, &properties));
  EXPECT_EQ(ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, properties.memoryAllocationExportTypes);
  EXPECT_EQ(ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, properties.memoryAllocationImportTypes);
  EXPECT_EQ(0u, properties.imageExportTypes);
  EXPECT_EQ(0u, properties.imageImportTypes);
}

// Exported, the allocation is a file the host maps and another context imports; all three see the same bytes.
TEST_F(Ipc, AnExportedAllocationIsAFileOthersMapAndImport) {
  const size_t size = 5000;
  ze_external_memory_export_desc_t export_desc{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC, nullptr,
                                               ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD};
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, &export_desc, 0, 0};
  void *exported = nullptr;
  ZE_ASSERT_OK(zeMemAllocDevice(context, &desc, size, 0, device, &exported));
  allocations.push_back(exported);
  std::vector<uint8_t> bytes = pattern(size);
  copy(exported, bytes.data(), size);

  ze_external_memory_export_fd_t export_fd{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD, nullptr,
                                           ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, -1};
  ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, &export_fd,
                                               ZE_MEMORY_TYPE_UNKNOWN, 0, 0};
  ZE_ASSERT_OK(zeMemGetAllocProperties(context, exported, &properties, nullptr));
  EXPECT_EQ(ZE_MEMORY_TYPE_DEVICE, properties.type);
  ASSERT_GE(export_fd.fd, 0);
  void *mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, export_fd.fd, 0);
  ASSERT_NE(MAP_FAILED, mapped);
  EXPECT_EQ(0, std::memcmp(bytes.data(), mapped, size));

  ze_context_handle_t other = nullptr;
  ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ZE_ASSERT_OK(zeContextCreate(driver, &context_desc, &other));
  ze_external_memory_import_fd_t import_fd{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, nullptr,
                                           ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, export_fd.fd};
  ze_device_mem_alloc_desc_t import_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, &import_fd, 0, 0};
  void *imported = nullptr;
  ZE_ASSERT_OK(zeMemAllocDevice(other, &import_desc, size, 0, device, &imported));
  static_cast<uint8_t *>(mapped)[7] = 0x77;
  EXPECT_EQ(0x77, static_cast<uint8_t *>(imported)[7]);
  EXPECT_EQ(0x77, static_cast<uint8_t *>(exported)[7]);
  ZE_EXPECT_OK(zeMemFree(other, imported));
  ZE_EXPECT_OK(zeContextDestroy(other));
  munmap(mapped, size);
  close(export_fd.fd);
}

TEST_F(Ipc, WhatIsNotSharedAsAFileIsRefused) {
  // A dma-buf is not what this driver makes.
  ze_external_memory_export_desc_t dma_buf{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC, nullptr,
                                           ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF};
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, &dma_buf, 0, 0};
  void *p = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION, zeMemAllocDevice(context, &desc, 4096, 0, device, &p));
  // An allocation made without the export descriptor has no descriptor to give.
  void *plain = device_memory(4096);
  ze_external_memory_export_fd_t export_fd{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD, nullptr,
                                           ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, -1};
  ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, &export_fd,
                                               ZE_MEMORY_TYPE_UNKNOWN, 0, 0};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetAllocProperties(context, plain, &properties, nullptr));
  EXPECT_EQ(-1, export_fd.fd);
  // Importing a descriptor that is not open, or not a memory file as long as asked.
  ze_external_memory_import_fd_t import_fd{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, nullptr,
                                           ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, -1};
  ze_device_mem_alloc_desc_t import_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, &import_fd, 0, 0};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemAllocDevice(context, &import_desc, 4096, 0, device, &p));
  import_fd.fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemAllocDevice(context, &import_desc, 4096, 0, device, &p));
  import_fd.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION, zeMemAllocDevice(context, &import_desc, 4096, 0, device, &p));
  close(import_fd.fd);
  EXPECT_EQ(nullptr, p);
}

// Another process: the memory and the pool go over a Unix socket with their descriptors (SCM_RIGHTS); the peer
// reads the pattern, waits in a command list for an event this process signals, fills the memory and signals
// back from its device.
TEST_F(Ipc, AnotherProcessReadsWritesAndSignals) {
  const size_t size = 3 * 4096 + 100;
  auto *memory = static_cast<uint8_t *>(device_memory(size));
  std::vector<uint8_t> bytes = pattern(size);
  copy(memory, bytes.data(), size);
  ze_event_pool_handle_t shared_pool = ipc_pool(2);
  ze_event_handle_t done = nullptr, go = nullptr;
  ZE_ASSERT_OK(zeal::test::create_host_event(shared_pool, 0, done));
  ZE_ASSERT_OK(zeal::test::create_host_event(shared_pool, 1, go));

  struct {
    ze_ipc_mem_handle_t memory;
    ze_ipc_event_pool_handle_t pool;
    uint64_t size;
  } message{};
  ZE_ASSERT_OK(zeMemGetIpcHandle(context, memory, &message.memory));
  ZE_ASSERT_OK(zeEventPoolGetIpcHandle(shared_pool, &message.pool));
  message.size = size;

  int sockets[2];
  ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets));
  // The peer's end, open across exec.
  int peer_end = fcntl(sockets[1], F_DUPFD, 10);
  ASSERT_GE(peer_end, 0);
  std::string fd_text = std::to_string(peer_end);
  char *argv[] = {const_cast<char *>(ZEAL_IPC_PEER), fd_text.data(), nullptr};
  pid_t peer = 0;
  ASSERT_EQ(0, posix_spawn(&peer, ZEAL_IPC_PEER, nullptr, nullptr, argv, environ));
  close(peer_end);
  close(sockets[1]);

  int fds[2];
  std::memcpy(&fds[0], message.memory.data, sizeof(int));
  std::memcpy(&fds[1], message.pool.data, sizeof(int));
  EXPECT_TRUE(zeal::test::send_with_fds(sockets[0], &message, sizeof message, fds));
  close(sockets[0]);

  ZE_EXPECT_OK(zeEventHostSignal(go));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, 30'000'000'000ull)) << "the peer never signalled";
  int status = 0;
  ASSERT_EQ(peer, waitpid(peer, &status, 0));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the peer failed; its stderr says why";
  std::vector<uint8_t> seen(size);
  copy(seen.data(), memory, size);
  EXPECT_EQ(std::vector<uint8_t>(size, 0x5a), seen);
  ZE_EXPECT_OK(zeEventDestroy(done));
  ZE_EXPECT_OK(zeEventDestroy(go));
  ZE_EXPECT_OK(zeEventPoolDestroy(shared_pool));
}

} // namespace
} // namespace zeal::cpu::test
