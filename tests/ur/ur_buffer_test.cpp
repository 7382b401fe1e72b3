// Buffers through UR's loader, as SYCL's buffers and accessors use them: create (plain, copying or using a host
// pointer), sub-buffers, read, write, copy, fill, map and unmap, rectangular reads, writes and copies (SYCL's
// ranged accessors) and 2-D USM copies, every result checked; the UR codes for bad input.
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
  ASSERT_TRUE(has_native_handle(urMemGetNativeHandle, a, device)) << "the buffer's USM address";
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

// Where the device reaches the host's own memory (the CPU device) a USE_HOST_POINTER buffer is those bytes: a fill
// shows there without a map, and the host's writes reach commands. Elsewhere (the dg2 profile's run of these
// tests: a GPU's default) the buffer keeps its own copy until a map.
TEST_F(UrBuffer, AHostPointerBufferIsTheHostsBytesWhereTheDeviceReachesThem) {
  const auto system = info_value<ur_device_usm_access_capability_flags_t>([&](size_t size, void *value, size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_USM_SYSTEM_SHARED_SUPPORT, size, value, ret);
  });
  const bool shared = (system & UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS) != 0;
  std::vector<int> host(64, 1);
  ur_mem_handle_t b = buffer(host.size() * sizeof(int), UR_MEM_FLAG_USE_HOST_POINTER, host.data());
  ASSERT_NE(nullptr, b);
  const int three = 3;
  UR_ASSERT_OK(urEnqueueMemBufferFill(queue, b, &three, sizeof three, 0, 16 * sizeof(int), 0, nullptr, nullptr));
  UR_ASSERT_OK(urQueueFinish(queue));
  EXPECT_EQ(shared ? 3 : 1, host[0]) << "system USM " << system;
  host[20] = 8;
  EXPECT_EQ(shared ? 8 : 1, read(b, 20 * sizeof(int), 1)[0]) << "system USM " << system;
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

// A 3-D box of a 3-D array, as a SYCL copy between accessors with ranges and offsets asks for it: host and buffer
// with different shapes, origins in every dimension, pitches given and defaulted.
TEST_F(UrBuffer, RectangularReadsWritesAndCopiesMoveExactlyTheBox) {
  // The buffer: 4 slices of 5 rows of 24 bytes; the host array: 3 slices of 4 rows of 16 bytes.
  constexpr size_t bw = 24, bh = 5, bd = 4, hw = 16, hh = 4, hd = 3;
  std::vector<uint8_t> host(hw * hh * hd);
  std::iota(host.begin(), host.end(), uint8_t{1});
  ur_mem_handle_t a = buffer(bw * bh * bd), b = buffer(bw * bh * bd);
  ASSERT_NE(nullptr, a);
  ASSERT_NE(nullptr, b);
  const uint8_t zero = 0;
  UR_ASSERT_OK(urEnqueueMemBufferFill(queue, a, &zero, 1, 0, bw * bh * bd, 0, nullptr, nullptr));
  // A box of 8 bytes x 3 rows x 2 slices: host origin (2, 1, 1), buffer origin (5, 2, 1).
  const ur_rect_region_t box{8, 3, 2};
  const ur_rect_offset_t host_at{2, 1, 1}, buffer_at{5, 2, 1};
  ur_event_handle_t written = nullptr;
  UR_ASSERT_OK(urEnqueueMemBufferWriteRect(queue, a, false, buffer_at, host_at, box, bw, bw * bh, hw, hw * hh,
                                           host.data(), 0, nullptr, &written));
  ur_command_t type{};
  UR_ASSERT_OK(urEventGetInfo(written, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(UR_COMMAND_MEM_BUFFER_WRITE_RECT, type);
  UR_EXPECT_OK(urEventRelease(written));
  std::vector<uint8_t> all(bw * bh * bd, 0xEE);
  UR_ASSERT_OK(urEnqueueMemBufferRead(queue, a, true, 0, all.size(), all.data(), 0, nullptr, nullptr));
  for (size_t z = 0; z < bd; ++z)
    for (size_t y = 0; y < bh; ++y)
      for (size_t x = 0; x < bw; ++x) {
        const bool inside = x >= 5 && x < 13 && y >= 2 && y < 5 && z >= 1 && z < 3;
        const uint8_t want = inside ? host[(z - 1 + 1) * hw * hh + (y - 2 + 1) * hw + (x - 5 + 2)] : 0;
        ASSERT_EQ(want, all[z * bw * bh + y * bw + x]) << "buffer byte (" << x << ", " << y << ", " << z << ")";
      }
  // Buffer to buffer, the box moved to the origin of b with b's rows packed (pitches 0: tight, 8 and 24).
  UR_ASSERT_OK(urEnqueueMemBufferFill(queue, b, &zero, 1, 0, bw * bh * bd, 0, nullptr, nullptr));
  UR_ASSERT_OK(urEnqueueMemBufferCopyRect(queue, a, b, buffer_at, {0, 0, 0}, box, bw, bw * bh, 0, 0, 0, nullptr,
                                          nullptr));
  // Read the packed box back with a pitched host layout of its own: rows of 10 bytes, origin (1, 0, 0).
  std::vector<uint8_t> back(10 * 3 * 2, 0xEE);
  ur_event_handle_t read_event = nullptr;
  UR_ASSERT_OK(urEnqueueMemBufferReadRect(queue, b, true, {0, 0, 0}, {1, 0, 0}, box, 0, 0, 10, 30, back.data(), 0,
                                          nullptr, &read_event));
  UR_ASSERT_OK(urEventGetInfo(read_event, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(UR_COMMAND_MEM_BUFFER_READ_RECT, type);
  UR_EXPECT_OK(urEventRelease(read_event));
  for (size_t z = 0; z < 2; ++z)
    for (size_t y = 0; y < 3; ++y)
      for (size_t x = 0; x < 10; ++x) {
        const bool inside = x >= 1 && x < 9;
        const uint8_t want = inside ? host[(z + 1) * hw * hh + (y + 1) * hw + (x - 1 + 2)] : 0xEE;
        ASSERT_EQ(want, back[z * 30 + y * 10 + x]) << "host byte (" << x << ", " << y << ", " << z << ")";
      }
  UR_EXPECT_OK(urMemRelease(a));
  UR_EXPECT_OK(urMemRelease(b));
}

TEST_F(UrBuffer, BadRectanglesGetTheSpecsCodes) {
  ur_mem_handle_t b = buffer(64);
  ASSERT_NE(nullptr, b);
  uint8_t host[64] = {};
  const ur_rect_offset_t at{0, 0, 0};
  auto read_rect = [&](ur_rect_offset_t origin, ur_rect_region_t region, size_t row, size_t slice) {
    return urEnqueueMemBufferReadRect(queue, b, true, origin, at, region, row, slice, 0, 0, host, 0, nullptr, nullptr);
  };
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, read_rect(at, {0, 1, 1}, 0, 0));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, read_rect(at, {8, 2, 1}, 4, 0)) << "row pitch under the width";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, read_rect(at, {8, 2, 2}, 8, 12)) << "slice pitch under two rows";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, read_rect(at, {8, 2, 2}, 8, 20)) << "slice pitch not a multiple of 8";
  // 2 slices of 2 rows of 8, pitches 8 and 16: 32 bytes; at (0, 0, 3) the last byte is 16*3 + 32 - 1 = 79 > 63.
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, read_rect({0, 0, 3}, {8, 2, 2}, 8, 16));
  if (zeal_sees_bad_input()) {
    EXPECT_EQ("urEnqueueMemBufferReadRect: 32 bytes at offset 48 do not fit in a buffer of 64 bytes", error());
  }
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, read_rect({SIZE_MAX, 0, 0}, {8, 1, 1}, 0, 0)) << "an origin past the end";
  UR_EXPECT_OK(read_rect({0, 0, 2}, {8, 2, 2}, 8, 16)) << "the same box two slices earlier fits exactly";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urEnqueueMemBufferReadRect(queue, b, true, at, at, {8, 1, 1}, 0, 0, 0, 0, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE,
            urEnqueueMemBufferWriteRect(queue, nullptr, true, at, at, {8, 1, 1}, 0, 0, 0, 0, host, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE,
            urEnqueueMemBufferCopyRect(nullptr, b, b, at, at, {8, 1, 1}, 0, 0, 0, 0, 0, nullptr, nullptr));
  // Overlapping rows of one buffer are the driver's to refuse, as clEnqueueCopyBufferRect's MEM_COPY_OVERLAP.
  EXPECT_NE(UR_RESULT_SUCCESS, urEnqueueMemBufferCopyRect(queue, b, b, at, {4, 0, 0}, {8, 2, 1}, 16, 0, 16, 0, 0,
                                                          nullptr, nullptr));
  UR_EXPECT_OK(urEnqueueMemBufferCopyRect(queue, b, b, at, {8, 0, 0}, {8, 2, 1}, 16, 0, 16, 0, 0, nullptr, nullptr))
      << "interleaved rows that do not overlap";
  UR_EXPECT_OK(urQueueFinish(queue));
  UR_EXPECT_OK(urMemRelease(b));
}

TEST_F(UrBuffer, TwoDimensionalUsmCopiesKeepEachSidesPitch) {
  ur_bool_t supported = false;
  UR_ASSERT_OK(urContextGetInfo(context, UR_CONTEXT_INFO_USM_MEMCPY2D_SUPPORT, sizeof supported, &supported, nullptr));
  EXPECT_TRUE(supported);
  constexpr size_t width = 12, height = 5, src_pitch = 16, dst_pitch = 20;
  void *src = nullptr, *dst = nullptr;
  UR_ASSERT_OK(urUSMDeviceAlloc(context, device, nullptr, nullptr, src_pitch * height, &src));
  UR_ASSERT_OK(urUSMSharedAlloc(context, device, nullptr, nullptr, dst_pitch * height, &dst));
  std::vector<uint8_t> pattern(src_pitch * height);
  std::iota(pattern.begin(), pattern.end(), uint8_t{1});
  UR_ASSERT_OK(urEnqueueUSMMemcpy(queue, true, src, pattern.data(), pattern.size(), 0, nullptr, nullptr));
  std::memset(dst, 0, dst_pitch * height);
  ur_event_handle_t copied = nullptr;
  UR_ASSERT_OK(urEnqueueUSMMemcpy2D(queue, true, dst, dst_pitch, src, src_pitch, width, height, 0, nullptr, &copied));
  ur_command_t type{};
  UR_ASSERT_OK(urEventGetInfo(copied, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(UR_COMMAND_USM_MEMCPY_2D, type);
  UR_EXPECT_OK(urEventRelease(copied));
  const auto *got = static_cast<const uint8_t *>(dst);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < dst_pitch; ++x)
      ASSERT_EQ(x < width ? pattern[y * src_pitch + x] : 0, got[y * dst_pitch + x]) << "(" << x << ", " << y << ")";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urEnqueueUSMMemcpy2D(queue, true, dst, dst_pitch, src, src_pitch, width, 0, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urEnqueueUSMMemcpy2D(queue, true, dst, 8, src, src_pitch, width, height, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urEnqueueUSMMemcpy2D(queue, true, dst, dst_pitch + 1, src, src_pitch, width, height, 0, nullptr, nullptr))
      << "UR's bound: dstPitch * height past the allocation";
  if (zeal_sees_bad_input()) {
    EXPECT_NE(std::string::npos, error().find("5 rows of pitch 21 from the destination")) << error();
  }
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urEnqueueUSMMemcpy2D(queue, true, nullptr, dst_pitch, src, src_pitch, width, height, 0, nullptr, nullptr));
  UR_EXPECT_OK(urUSMFree(context, src));
  UR_EXPECT_OK(urUSMFree(context, dst));
}

TEST_F(UrBuffer, TwoDimensionalUsmFillsWriteEachRowAndNotTheGaps) {
  ur_bool_t supported = false;
  UR_ASSERT_OK(urContextGetInfo(context, UR_CONTEXT_INFO_USM_FILL2D_SUPPORT, sizeof supported, &supported, nullptr));
  EXPECT_TRUE(supported);
  constexpr size_t width = 12, height = 5, pitch = 20;
  void *mem = nullptr;
  UR_ASSERT_OK(urUSMSharedAlloc(context, device, nullptr, nullptr, pitch * height, &mem));
  auto *bytes = static_cast<uint8_t *>(mem);
  std::memset(bytes, 0, pitch * height);
  const uint8_t pattern[4] = {0xA1, 0xB2, 0xC3, 0xD4};
  ur_event_handle_t filled = nullptr;
  UR_ASSERT_OK(urEnqueueUSMFill2D(queue, mem, pitch, sizeof pattern, pattern, width, height, 0, nullptr, &filled))
      << error();
  UR_ASSERT_OK(urEventWait(1, &filled));
  ur_command_t type{};
  UR_ASSERT_OK(urEventGetInfo(filled, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(UR_COMMAND_USM_FILL_2D, type);
  UR_EXPECT_OK(urEventRelease(filled));
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < pitch; ++x)
      ASSERT_EQ(x < width ? pattern[x % 4] : 0, bytes[y * pitch + x]) << "(" << x << ", " << y << ")";
  // Rows that touch are one run: the pattern may run on from one row into the next.
  std::memset(bytes, 0, pitch * height);
  UR_ASSERT_OK(urEnqueueUSMFill2D(queue, mem, 6, sizeof pattern, pattern, 6, 2, 0, nullptr, nullptr)) << error();
  UR_ASSERT_OK(urQueueFinish(queue));
  for (size_t i = 0; i < 12; ++i) ASSERT_EQ(pattern[i % 4], bytes[i]) << "byte " << i;
  EXPECT_EQ(0, bytes[12]);
  // Apart, such rows would each start mid-pattern: zeal fills each row from the pattern's start, so it refuses.
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
            urEnqueueUSMFill2D(queue, mem, 8, sizeof pattern, pattern, 6, 2, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueUSMFill2D(queue, mem, pitch, 3, pattern, width, height, 0, nullptr,
                                                             nullptr)) << "a pattern of 3 bytes";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueUSMFill2D(queue, mem, 8, sizeof pattern, pattern, width, height, 0,
                                                             nullptr, nullptr)) << "a pitch under the width";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueUSMFill2D(queue, mem, pitch + 4, sizeof pattern, pattern, width,
                                                             height, 0, nullptr, nullptr)) << "past the allocation";
  if (zeal_sees_bad_input()) {
    EXPECT_NE(std::string::npos, error().find("urEnqueueUSMFill2D: 5 rows of pitch 24")) << error();
  }
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urEnqueueUSMFill2D(queue, nullptr, pitch, sizeof pattern, pattern, width, height, 0, nullptr, nullptr));
  UR_EXPECT_OK(urUSMFree(context, mem));
}

} // namespace
} // namespace zeal_ur_test
