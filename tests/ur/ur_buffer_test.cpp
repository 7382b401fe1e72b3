// Buffers through UR's loader, as SYCL's buffers and accessors use them: create (plain, copying or using a host
// pointer), sub-buffers, read, write, copy, fill, map and unmap, every result checked; the UR codes for bad input.
#include "ur_fixture.hpp"

#include <numeric>

namespace zeal_ur_test {
namespace {

class UrBuffer : public UrQueueFace {
protected:
  ur_mem_handle_t buffer(size_t size, ur_mem_flags_t flags = UR_MEM_FLAG_READ_WRITE, void *host = nullptr) {
    ur_buffer_properties_t props{UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, nullptr, host};
    ur_mem_handle_t b = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urMemBufferCreate(context, flags, size, host ? &props : nullptr, &b));
    return b;
  }
  std::vector<int> read(ur_mem_handle_t b, size_t offset, size_t count) {
    std::vector<int> out(count, -1);
    EXPECT_EQ(UR_RESULT_SUCCESS, urEnqueueMemBufferRead(queue, b, true, offset, count * sizeof(int), out.data(), 0,
                                                        nullptr, nullptr));
    return out;
  }
};

TEST_F(UrBuffer, WriteCopyFillAndReadBack) {
  constexpr size_t n = 1000;
  std::vector<int> values(n);
  std::iota(values.begin(), values.end(), 0);
  ur_mem_handle_t a = buffer(n * sizeof(int)), b = buffer(n * sizeof(int));
  ASSERT_NE(nullptr, a);
  ASSERT_NE(nullptr, b);
  UR_ASSERT_OK(urEnqueueMemBufferWrite(queue, a, false, 0, n * sizeof(int), values.data(), 0, nullptr, nullptr));
  ur_event_handle_t copied = nullptr;
  UR_ASSERT_OK(urEnqueueMemBufferCopy(queue, a, b, 100 * sizeof(int), 0, 200 * sizeof(int), 0, nullptr, &copied));
  ur_command_t type{};
  UR_ASSERT_OK(urEventGetInfo(copied, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(UR_COMMAND_MEM_BUFFER_COPY, type);
  const int minus_one = -1;
  UR_ASSERT_OK(urEnqueueMemBufferFill(queue, b, &minus_one, sizeof minus_one, 200 * sizeof(int), 10 * sizeof(int), 1,
                                      &copied, nullptr));
  std::vector<int> got = read(b, 0, 210);
  for (size_t i = 0; i < 200; ++i) ASSERT_EQ(static_cast<int>(i + 100), got[i]) << "element " << i;
  for (size_t i = 200; i < 210; ++i) ASSERT_EQ(-1, got[i]) << "element " << i;
  size_t size = 0;
  UR_ASSERT_OK(urMemGetInfo(a, UR_MEM_INFO_SIZE, sizeof size, &size, nullptr));
  EXPECT_EQ(n * sizeof(int), size);
  ur_context_handle_t owner = nullptr;
  UR_ASSERT_OK(urMemGetInfo(a, UR_MEM_INFO_CONTEXT, sizeof owner, &owner, nullptr));
  EXPECT_EQ(context, owner);
  ur_native_handle_t native = 0;
  UR_ASSERT_OK(urMemGetNativeHandle(a, device, &native));
  EXPECT_NE(0u, native) << "the buffer's USM address";
  UR_EXPECT_OK(urEventRelease(copied));
  UR_EXPECT_OK(urMemRelease(a));
  UR_EXPECT_OK(urMemRelease(b));
}

TEST_F(UrBuffer, ASubBufferIsAViewOfItsBuffer) {
  std::vector<int> values(256);
  std::iota(values.begin(), values.end(), 1000);
  ur_mem_handle_t whole = buffer(values.size() * sizeof(int), UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, values.data());
  ASSERT_NE(nullptr, whole);
  values.assign(values.size(), 0); // a copy was taken: the buffer no longer depends on these bytes
  ur_buffer_region_t region{UR_STRUCTURE_TYPE_BUFFER_REGION, nullptr, 128 * sizeof(int), 64 * sizeof(int)};
  ur_mem_handle_t part = nullptr;
  UR_ASSERT_OK(urMemBufferPartition(whole, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION, &region, &part));
  EXPECT_EQ(1128, read(part, 0, 1)[0]);
  const int seven = 7;
  UR_ASSERT_OK(urEnqueueMemBufferFill(queue, part, &seven, sizeof seven, 0, 64 * sizeof(int), 0, nullptr, nullptr));
  std::vector<int> got = read(whole, 127 * sizeof(int), 66);
  EXPECT_EQ(1127, got[0]);
  EXPECT_EQ(7, got[1]);
  EXPECT_EQ(7, got[64]);
  EXPECT_EQ(1192, got[65]);
  // A region past the end, and a sub-buffer of a sub-buffer, are refused.
  ur_buffer_region_t past{UR_STRUCTURE_TYPE_BUFFER_REGION, nullptr, 200 * sizeof(int), 64 * sizeof(int)};
  ur_mem_handle_t bad = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_BUFFER_SIZE,
            urMemBufferPartition(whole, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION, &past, &bad));
  ur_buffer_region_t inner{UR_STRUCTURE_TYPE_BUFFER_REGION, nullptr, 0, 4};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_MEM_OBJECT,
            urMemBufferPartition(part, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION, &inner, &bad));
  // A read-only buffer has no read-write sub-buffers.
  ur_mem_handle_t read_only = buffer(64, UR_MEM_FLAG_READ_ONLY);
  ur_buffer_region_t head{UR_STRUCTURE_TYPE_BUFFER_REGION, nullptr, 0, 32};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE,
            urMemBufferPartition(read_only, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION, &head, &bad));
  UR_ASSERT_OK(urMemBufferPartition(read_only, UR_MEM_FLAG_READ_ONLY, UR_BUFFER_CREATE_TYPE_REGION, &head, &bad));
  UR_EXPECT_OK(urMemRelease(bad));
  UR_EXPECT_OK(urMemRelease(read_only));
  // The view keeps its buffer alive.
  UR_EXPECT_OK(urMemRelease(whole));
  EXPECT_EQ(7, read(part, 0, 1)[0]);
  UR_EXPECT_OK(urMemRelease(part));
}

TEST_F(UrBuffer, MapsShowTheBytesAndWritesComeBack) {
  ur_mem_handle_t b = buffer(64 * sizeof(int));
  ASSERT_NE(nullptr, b);
  const int three = 3;
  UR_ASSERT_OK(urEnqueueMemBufferFill(queue, b, &three, sizeof three, 0, 64 * sizeof(int), 0, nullptr, nullptr));
  void *mapped = nullptr;
  ur_event_handle_t mapped_event = nullptr;
  UR_ASSERT_OK(urEnqueueMemBufferMap(queue, b, true, UR_MAP_FLAG_READ | UR_MAP_FLAG_WRITE, 16 * sizeof(int),
                                     8 * sizeof(int), 0, nullptr, &mapped_event, &mapped));
  auto *ints = static_cast<int *>(mapped);
  EXPECT_EQ(3, ints[0]);
  ints[0] = 42;
  UR_ASSERT_OK(urEnqueueMemUnmap(queue, b, mapped, 0, nullptr, nullptr));
  EXPECT_EQ(42, read(b, 16 * sizeof(int), 1)[0]);
  int not_mapped = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urEnqueueMemUnmap(queue, b, &not_mapped, 0, nullptr, nullptr));
  UR_EXPECT_OK(urEventRelease(mapped_event));
  UR_EXPECT_OK(urMemRelease(b));
}

// USE_HOST_POINTER: maps show the host's own bytes, brought up to date at map, and written ones go back at unmap.
TEST_F(UrBuffer, AHostPointerBufferMapsOntoThatPointer) {
  std::vector<int> host(32, 5);
  ur_mem_handle_t b = buffer(host.size() * sizeof(int), UR_MEM_FLAG_USE_HOST_POINTER, host.data());
  ASSERT_NE(nullptr, b);
  const int nine = 9;
  UR_ASSERT_OK(urEnqueueMemBufferFill(queue, b, &nine, sizeof nine, 0, 4 * sizeof(int), 0, nullptr, nullptr));
  void *mapped = nullptr;
  UR_ASSERT_OK(urEnqueueMemBufferMap(queue, b, true, UR_MAP_FLAG_READ | UR_MAP_FLAG_WRITE, 0,
                                     host.size() * sizeof(int), 0, nullptr, nullptr, &mapped));
  EXPECT_EQ(static_cast<void *>(host.data()), mapped);
  EXPECT_EQ(9, host[3]);
  EXPECT_EQ(5, host[4]);
  host[10] = 77;
  UR_ASSERT_OK(urEnqueueMemUnmap(queue, b, mapped, 0, nullptr, nullptr));
  EXPECT_EQ(77, read(b, 10 * sizeof(int), 1)[0]);
  UR_EXPECT_OK(urMemRelease(b));
}

TEST_F(UrBuffer, BadBufferRequestsGetTheSpecsCodes) {
  ur_mem_handle_t b = nullptr;
  int host = 0;
  ur_buffer_properties_t props{UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, nullptr, &host};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_BUFFER_SIZE, urMemBufferCreate(context, UR_MEM_FLAG_READ_WRITE, 0, nullptr, &b));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urMemBufferCreate(context, 0x80000000u, 16, nullptr, &b));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_HOST_PTR,
            urMemBufferCreate(context, UR_MEM_FLAG_USE_HOST_POINTER, sizeof host, nullptr, &b));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_HOST_PTR, urMemBufferCreate(context, UR_MEM_FLAG_READ_WRITE, sizeof host, &props, &b));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urMemBufferCreate(context, UR_MEM_FLAG_READ_WRITE, 16, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urMemRelease(nullptr));
  ur_mem_handle_t small = buffer(16);
  ASSERT_NE(nullptr, small);
  int out[8];
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueMemBufferRead(queue, small, true, 8, 16, out, 0, nullptr, nullptr));
  if (zeal_sees_bad_input()) {
    EXPECT_EQ("urEnqueueMemBufferRead: 16 bytes at offset 8 do not fit in a buffer of 16 bytes", error());
  }
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueMemBufferWrite(queue, small, true, 0, 32, out, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urEnqueueMemBufferRead(queue, small, true, 0, 4, nullptr, 0, nullptr, nullptr));
  void *mapped = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urEnqueueMemBufferMap(queue, small, true, UR_MAP_FLAG_READ, 12, 8, 0, nullptr, nullptr, &mapped));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION,
            urEnqueueMemBufferMap(queue, small, true, 0x100, 0, 8, 0, nullptr, nullptr, &mapped));
  UR_EXPECT_OK(urMemRelease(small));
}

} // namespace
} // namespace zeal_ur_test
