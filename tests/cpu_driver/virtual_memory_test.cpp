// Virtual memory: reserved ranges, physical memory mapped into them with access attributes, kernels and copies
// through the mappings, and every refusal with its code.
#include "test_support.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace zeal::cpu::test {
namespace {

const void *free_spot(size_t size);
bool under_validation_layer();

class VirtualMemory : public CpuDriver {
protected:
  void SetUp() override {
    CpuDriver::SetUp();
    ZE_ASSERT_OK(zeVirtualMemQueryPageSize(context, device, 1 << 20, &page));
  }
  void TearDown() override {
    for (auto [p, size] : reserved) EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(context, p, size));
    for (ze_physical_mem_handle_t m : physical) EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(context, m));
    CpuDriver::TearDown();
  }

  // Reserves `size` bytes, at `hint` if given and free. Without one the helper still gives a start (a range the
  // system just found free): the validation layer of Debian's loader (1.8) refuses a null start, which the spec's
  // text allows and the driver takes (ANullStartLetsTheDriverChoose).
  char *reserve(size_t size, const void *hint = nullptr) {
    if (hint == nullptr) hint = free_spot(size);
    void *p = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemReserve(context, hint, size, &p));
    if (p != nullptr) reserved.emplace_back(p, size);
    return static_cast<char *>(p);
  }
  void forget(const void *p) {
    std::erase_if(reserved, [&](const auto &r) { return r.first == p; });
  }
  ze_physical_mem_handle_t physical_memory(size_t size) {
    ze_physical_mem_desc_t desc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, size};
    ze_physical_mem_handle_t m = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemCreate(context, device, &desc, &m));
    if (m != nullptr) physical.push_back(m);
    return m;
  }
  std::pair<ze_memory_access_attribute_t, size_t> access_of(const void *p, size_t size) {
    ze_memory_access_attribute_t access = ZE_MEMORY_ACCESS_ATTRIBUTE_FORCE_UINT32;
    size_t same = 0;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemGetAccessAttribute(context, p, size, &access, &same));
    return {access, same};
  }

  size_t page = 0;
  std::vector<std::pair<void *, size_t>> reserved;
  std::vector<ze_physical_mem_handle_t> physical;
};

// A range of addresses nothing holds at the moment.
const void *free_spot(size_t size) {
  void *p = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  munmap(p, size);
  return p;
}

bool under_validation_layer() { return std::getenv("ZE_ENABLE_VALIDATION_LAYER") != nullptr; }

// The permissions the kernel gives the page at p ("rw-s", "r--s", "---p"), from /proc/self/maps.
std::string permissions(const void *p) {
  auto address = reinterpret_cast<uintptr_t>(p);
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    std::istringstream in(line);
    std::string range, perms;
    in >> range >> perms;
    uintptr_t start = std::stoull(range.substr(0, range.find('-')), nullptr, 16);
    uintptr_t end = std::stoull(range.substr(range.find('-') + 1), nullptr, 16);
    if (address >= start && address < end) return perms;
  }
  return "unmapped";
}

TEST_F(VirtualMemory, AReservationIsInaccessibleAndItsStartIsTakenWhenFree) {
  char *p = reserve(4 * page);
  ASSERT_NE(nullptr, p);
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(p) % page);
  EXPECT_EQ("---p", permissions(p));
  EXPECT_EQ(std::pair(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, 4 * page), access_of(p, 4 * page));
  // Freeing the last two pages and asking for them back, as an application growing a range does.
  ZE_ASSERT_OK(zeVirtualMemFree(context, p + 2 * page, 2 * page));
  forget(p);
  reserved.emplace_back(p, 2 * page);
  EXPECT_EQ(p + 2 * page, reserve(2 * page, p + 2 * page));
  // A start already taken is only a hint: the range goes elsewhere.
  char *elsewhere = reserve(page, p);
  EXPECT_NE(nullptr, elsewhere);
  EXPECT_NE(p, elsewhere);
}

TEST_F(VirtualMemory, ANullStartLetsTheDriverChoose) {
  void *p = nullptr;
  ze_result_t r = zeVirtualMemReserve(context, nullptr, 2 * page, &p);
  if (under_validation_layer()) {
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, r) << "the 1.8 validation layer checks pStart as required";
    return;
  }
  ASSERT_EQ(ZE_RESULT_SUCCESS, r);
  EXPECT_NE(nullptr, p);
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(p) % page);
  reserved.emplace_back(p, 2 * page);
}

TEST_F(VirtualMemory, AccessAttributesAreKeptPerPageAndAppliedToMappedPages) {
  char *p = reserve(4 * page);
  ZE_ASSERT_OK(zeVirtualMemSetAccessAttribute(context, p + 2 * page, 2 * page, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  EXPECT_EQ(std::pair(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, 2 * page), access_of(p, 4 * page));
  EXPECT_EQ(std::pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, 2 * page), access_of(p + 2 * page, 2 * page));
  EXPECT_EQ("---p", permissions(p + 2 * page)) << "a page not mapped stays inaccessible";
  for (auto access : {ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY,
                      ZE_MEMORY_ACCESS_ATTRIBUTE_NONE}) {
    ZE_ASSERT_OK(zeVirtualMemSetAccessAttribute(context, p, 4 * page, access));
    EXPECT_EQ(std::pair(access, 4 * page), access_of(p, 4 * page));
  }

  ze_physical_mem_handle_t memory = physical_memory(2 * page);
  ZE_ASSERT_OK(zeVirtualMemMap(context, p, 2 * page, memory, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  EXPECT_EQ("rw-s", permissions(p));
  p[0] = 7;
  ZE_ASSERT_OK(zeVirtualMemSetAccessAttribute(context, p, 2 * page, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  EXPECT_EQ("r--s", permissions(p));
  EXPECT_EQ(7, p[0]);
  ZE_ASSERT_OK(zeVirtualMemSetAccessAttribute(context, p, page, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
  EXPECT_EQ("---s", permissions(p));
  EXPECT_EQ("r--s", permissions(p + page));
  EXPECT_EQ(std::pair(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, page), access_of(p, 2 * page));
  ZE_ASSERT_OK(zeVirtualMemUnmap(context, p, 2 * page));
  EXPECT_EQ(std::pair(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, 4 * page), access_of(p, 4 * page)) << "unmapping reverts to none";
  EXPECT_EQ("---p", permissions(p));
}

// Physical memory is the memory: two mappings show the same bytes, and an unmapped page keeps its contents.
TEST_F(VirtualMemory, PhysicalMemoryKeepsItsContentsAcrossMappings) {
  ze_physical_mem_handle_t memory = physical_memory(2 * page);
  char *a = reserve(2 * page);
  char *b = reserve(page);
  ZE_ASSERT_OK(zeVirtualMemMap(context, a, 2 * page, memory, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  ZE_ASSERT_OK(zeVirtualMemMap(context, b, page, memory, page, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  EXPECT_EQ(0, a[page + 5]) << "new physical memory is zeroed";
  a[page + 5] = 42;
  EXPECT_EQ(42, b[5]);
  ZE_ASSERT_OK(zeVirtualMemUnmap(context, a, 2 * page));
  ZE_ASSERT_OK(zeVirtualMemUnmap(context, a, 2 * page)) << "unmapping pages not mapped leaves them reserved";
  ZE_ASSERT_OK(zeVirtualMemMap(context, a + page, page, memory, page, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  EXPECT_EQ(42, a[page + 5]);
  ZE_ASSERT_OK(zeVirtualMemUnmap(context, a + page, page));
  ZE_ASSERT_OK(zeVirtualMemUnmap(context, b, page));
}

// What a SYCL runtime does with a virtual range: several physical pieces, a kernel writing across them, a fill
// and a copy out, every element checked.
TEST_F(VirtualMemory, KernelsFillsAndCopiesWorkThroughMappingsOfSeveralPieces) {
  const size_t piece = 4 * page;
  ze_physical_mem_handle_t first = physical_memory(piece);
  ze_physical_mem_handle_t second = physical_memory(piece);
  char *range = reserve(2 * piece);
  ZE_ASSERT_OK(zeVirtualMemMap(context, range, piece, first, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  ZE_ASSERT_OK(zeVirtualMemMap(context, range + piece, piece, second, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));

  const size_t n = 2 * piece / sizeof(int);
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("vector_add.spv"), module));
  ze_kernel_handle_t fill = kernel(module, "fill_value");
  int value = 1234;
  void *out = range;
  ZE_ASSERT_OK(zeKernelSetArgumentValue(fill, 0, sizeof(out), &out));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(fill, 1, sizeof(value), &value));
  ZE_ASSERT_OK(zeKernelSetGroupSize(fill, 64, 1, 1));
  ZE_ASSERT_OK(launch_and_wait(fill, {uint32_t(n / 64), 1, 1}));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(1234, reinterpret_cast<int *>(range)[i]) << i;

  int *copy = shared_array<int>(n);
  ze_command_list_handle_t list = immediate_list();
  const uint8_t pattern = 9;
  ZE_ASSERT_OK(zeCommandListAppendMemoryFill(list, range + page, &pattern, 1, piece, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListAppendBarrier(list, nullptr, 0, nullptr));
  ze_event_handle_t done = event();
  ZE_ASSERT_OK(zeCommandListAppendMemoryCopy(list, copy, range, 2 * piece, done, 0, nullptr));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  const auto *bytes = reinterpret_cast<const uint8_t *>(copy);
  for (size_t i = 0; i < 2 * piece; ++i) {
    const bool filled = i >= page && i < page + piece;
    ASSERT_EQ(filled ? 9 : reinterpret_cast<const uint8_t *>(&value)[i % 4], bytes[i]) << i;
  }
  ZE_ASSERT_OK(zeVirtualMemUnmap(context, range, 2 * piece));
}

TEST_F(VirtualMemory, BadRangesSizesAndHandlesAreRefusedWithTheirCodes) {
  char *p = reserve(2 * page);
  ze_physical_mem_handle_t memory = physical_memory(2 * page);
  void *out = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeVirtualMemReserve(context, p, 0, &out));
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeVirtualMemReserve(context, p, page + 1, &out));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeVirtualMemReserve(context, p, page, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeVirtualMemReserve(nullptr, p, page, &out));

  const auto rw = ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, zeVirtualMemMap(context, p + 1, page, memory, 0, rw));
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeVirtualMemMap(context, p, page / 2, memory, 0, rw));
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, zeVirtualMemMap(context, p, page, memory, 16, rw));
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeVirtualMemMap(context, p, 2 * page, memory, page, rw))
      << "more than the physical memory holds";
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
            zeVirtualMemMap(context, p, page, memory, 0, ze_memory_access_attribute_t(3)));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemMap(context, p + page, 2 * page, memory, 0, rw))
      << "past the end of the reservation";
  std::vector<char> not_reserved(3 * page);
  char *heap = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(not_reserved.data()) + page - 1) / page * page);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemMap(context, heap, page, memory, 0, rw));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemUnmap(context, heap, page));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemFree(context, heap, page));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zeVirtualMemSetAccessAttribute(context, heap, page, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  ze_memory_access_attribute_t access;
  size_t same = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemGetAccessAttribute(context, heap, page, &access, &same));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeVirtualMemGetAccessAttribute(context, p, page, nullptr, &same));

  ZE_ASSERT_OK(zeVirtualMemMap(context, p, page, memory, 0, rw));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemMap(context, p, page, memory, 0, rw)) << "mapped twice";
  EXPECT_EQ(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zePhysicalMemDestroy(context, memory)) << "still mapped";
  ZE_ASSERT_OK(zeVirtualMemUnmap(context, p, page));

  ze_physical_mem_desc_t desc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, page + 1};
  ze_physical_mem_handle_t bad = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zePhysicalMemCreate(context, device, &desc, &bad));
  desc.size = page;
  desc.flags = 0x2;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zePhysicalMemCreate(context, device, &desc, &bad));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zePhysicalMemCreate(context, device, nullptr, &bad));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zePhysicalMemCreate(context, nullptr, &desc, &bad));

  // A physical memory object of another context is not this context's to map or destroy.
  ze_context_handle_t other = nullptr;
  ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ZE_ASSERT_OK(zeContextCreate(driver, &context_desc, &other));
  desc.flags = 0;
  ze_physical_mem_handle_t foreign = nullptr;
  ZE_ASSERT_OK(zePhysicalMemCreate(other, device, &desc, &foreign));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemMap(context, p, page, foreign, 0, rw));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zePhysicalMemDestroy(context, foreign));
  // Destroying a context returns what it still holds: a reservation with a mapping, and the physical memory.
  void *left = nullptr;
  ZE_ASSERT_OK(zeVirtualMemReserve(other, free_spot(page), page, &left));
  ZE_ASSERT_OK(zeVirtualMemMap(other, left, page, foreign, 0, rw));
  ZE_ASSERT_OK(zeContextDestroy(other));
  EXPECT_EQ("unmapped", permissions(left));
}

TEST_F(VirtualMemory, ThreadsReserveMapAndFreeAtOnce) {
  constexpr int threads = 4, rounds = 200;
  std::vector<std::thread> workers;
  std::atomic<int> failures{0};
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      ze_physical_mem_desc_t desc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, 2 * page};
      ze_physical_mem_handle_t memory = nullptr;
      if (zePhysicalMemCreate(context, device, &desc, &memory) != ZE_RESULT_SUCCESS) return void(++failures);
      for (int r = 0; r < rounds; ++r) {
        void *p = nullptr;
        bool ok = zeVirtualMemReserve(context, free_spot(2 * page), 2 * page, &p) == ZE_RESULT_SUCCESS &&
                  zeVirtualMemMap(context, p, 2 * page, memory, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
                      ZE_RESULT_SUCCESS;
        if (ok) {
          auto *words = static_cast<int *>(p);
          words[r] = t * rounds + r;
          ok = words[r] == t * rounds + r && zeVirtualMemUnmap(context, p, 2 * page) == ZE_RESULT_SUCCESS &&
               zeVirtualMemFree(context, p, 2 * page) == ZE_RESULT_SUCCESS;
        }
        if (!ok) ++failures;
      }
      if (zePhysicalMemDestroy(context, memory) != ZE_RESULT_SUCCESS) ++failures;
    });
  }
  for (std::thread &w : workers) w.join();
  EXPECT_EQ(0, failures.load());
}

} // namespace
} // namespace zeal::cpu::test
