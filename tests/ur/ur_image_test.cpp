// Images and samplers through UR's loader (issue 50): the device's limits, create (plain and from host pixels with
// pitches), image and memory info, reads, writes and copies by region with pitches, the channel orders' swizzles as
// a kernel reads them, a kernel sampling one image into another through a sampler argument, native handles, and
// the UR codes (and sentences) for bad formats, descriptions, regions and handles.
#include "ur_program_fixture.hpp"

#include <cstring>
#include <numeric>

namespace zeal_ur_test {
namespace {

constexpr ur_image_format_t kRgbaFloat{UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT};

ur_image_desc_t image_desc(ur_mem_type_t type, size_t width, size_t height = 1, size_t depth = 1, size_t layers = 1) {
  return {UR_STRUCTURE_TYPE_IMAGE_DESC, nullptr, type, width, height, depth, layers, 0, 0, 0, 0};
}

class UrImage : public UrPrograms {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(UrPrograms::SetUp());
    UR_ASSERT_OK(urQueueCreate(context, device, nullptr, &queue));
  }
  void TearDown() override {
    for (ur_mem_handle_t m : images) {
      UR_EXPECT_OK(urMemRelease(m));
    }
    for (ur_sampler_handle_t s : samplers) {
      UR_EXPECT_OK(urSamplerRelease(s));
    }
    if (queue != nullptr) {
      UR_EXPECT_OK(urQueueRelease(queue));
    }
    UrPrograms::TearDown();
  }

  ur_mem_handle_t image(const ur_image_format_t &format, const ur_image_desc_t &desc, void *host = nullptr,
                        ur_mem_flags_t flags = UR_MEM_FLAG_READ_WRITE) {
    ur_mem_handle_t m = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urMemImageCreate(context, flags, &format, &desc, host, &m)) << error();
    if (m != nullptr) images.push_back(m);
    return m;
  }
  ur_sampler_handle_t sampler(ur_sampler_addressing_mode_t addressing, bool normalized = false) {
    ur_sampler_desc_t desc{UR_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, normalized, addressing,
                           UR_SAMPLER_FILTER_MODE_NEAREST};
    ur_sampler_handle_t s = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urSamplerCreate(context, &desc, &s)) << error();
    if (s != nullptr) samplers.push_back(s);
    return s;
  }
  template <class T>
  T image_info(ur_mem_handle_t m, ur_image_info_t key) {
    return info_value<T>([&](size_t size, void *value, size_t *ret) { return urMemImageGetInfo(m, key, size, value, ret); });
  }
  template <class T>
  T device_info(ur_device_info_t key) {
    return info_value<T>([&](size_t size, void *value, size_t *ret) { return urDeviceGetInfo(device, key, size, value, ret); });
  }
  template <class T>
  T sampler_info(ur_sampler_handle_t s, ur_sampler_info_t key) {
    return info_value<T>([&](size_t size, void *value, size_t *ret) { return urSamplerGetInfo(s, key, size, value, ret); });
  }
  ur_result_t create(const ur_image_format_t &format, const ur_image_desc_t &desc, void *host = nullptr,
                     ur_mem_flags_t flags = UR_MEM_FLAG_READ_WRITE) {
    ur_mem_handle_t m = nullptr;
    ur_result_t r = urMemImageCreate(context, flags, &format, &desc, host, &m);
    if (m != nullptr) urMemRelease(m);
    return r;
  }
  // The adapter's sentence for the last failure contains `words` (UR's validation layer answers some bad input
  // itself, without one).
  void expect_sentence(const std::string &words) {
    if (zeal_sees_bad_input()) {
      EXPECT_NE(std::string::npos, error().find(words)) << error();
    }
  }

  ur_queue_handle_t queue = nullptr;
  std::vector<ur_mem_handle_t> images;
  std::vector<ur_sampler_handle_t> samplers;
};

TEST_F(UrImage, TheDeviceReportsTheDriversImageLimits) {
  EXPECT_TRUE(device_info<ur_bool_t>(UR_DEVICE_INFO_IMAGE_SUPPORT));
  EXPECT_FALSE(device_info<ur_bool_t>(UR_DEVICE_INFO_IMAGE_SRGB));
  EXPECT_GE(device_info<size_t>(UR_DEVICE_INFO_IMAGE2D_MAX_WIDTH), 8192u);
  EXPECT_GE(device_info<size_t>(UR_DEVICE_INFO_IMAGE2D_MAX_HEIGHT), 8192u);
  EXPECT_GE(device_info<size_t>(UR_DEVICE_INFO_IMAGE3D_MAX_DEPTH), 2048u);
  EXPECT_GE(device_info<size_t>(UR_DEVICE_INFO_IMAGE_MAX_ARRAY_SIZE), 2048u);
  EXPECT_GE(device_info<uint32_t>(UR_DEVICE_INFO_MAX_SAMPLERS), 16u);
  EXPECT_GE(device_info<uint32_t>(UR_DEVICE_INFO_MAX_READ_IMAGE_ARGS), 128u);
  EXPECT_GE(device_info<uint32_t>(UR_DEVICE_INFO_MAX_WRITE_IMAGE_ARGS), 64u);
  EXPECT_EQ(device_info<uint32_t>(UR_DEVICE_INFO_MAX_WRITE_IMAGE_ARGS),
            device_info<uint32_t>(UR_DEVICE_INFO_MAX_READ_WRITE_IMAGE_ARGS));
}

TEST_F(UrImage, ImageInfoAnswersAsOpenCLDoes) {
  const ur_image_format_t format{UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
  ur_mem_handle_t layers = image(format, image_desc(UR_MEM_TYPE_IMAGE2D_ARRAY, 16, 8, 1, 3));
  ASSERT_NE(nullptr, layers);
  const auto got = image_info<ur_image_format_t>(layers, UR_IMAGE_INFO_FORMAT);
  EXPECT_EQ(format.channelOrder, got.channelOrder);
  EXPECT_EQ(format.channelType, got.channelType);
  EXPECT_EQ(4u, image_info<size_t>(layers, UR_IMAGE_INFO_ELEMENT_SIZE));
  EXPECT_EQ(64u, image_info<size_t>(layers, UR_IMAGE_INFO_ROW_PITCH));
  EXPECT_EQ(64u * 8, image_info<size_t>(layers, UR_IMAGE_INFO_SLICE_PITCH));
  EXPECT_EQ(16u, image_info<size_t>(layers, UR_IMAGE_INFO_WIDTH));
  EXPECT_EQ(8u, image_info<size_t>(layers, UR_IMAGE_INFO_HEIGHT));
  EXPECT_EQ(0u, image_info<size_t>(layers, UR_IMAGE_INFO_DEPTH));
  EXPECT_EQ(3u, image_info<size_t>(layers, UR_IMAGE_INFO_ARRAY_SIZE));
  EXPECT_EQ(0u, image_info<uint32_t>(layers, UR_IMAGE_INFO_NUM_MIP_LEVELS));
  EXPECT_EQ(0u, image_info<uint32_t>(layers, UR_IMAGE_INFO_NUM_SAMPLES));

  ur_mem_handle_t line = image(format, image_desc(UR_MEM_TYPE_IMAGE1D, 32, 0, 0, 0));
  ASSERT_NE(nullptr, line);
  EXPECT_EQ(0u, image_info<size_t>(line, UR_IMAGE_INFO_HEIGHT));
  EXPECT_EQ(0u, image_info<size_t>(line, UR_IMAGE_INFO_SLICE_PITCH));

  // What every memory object answers.
  size_t size = 0;
  UR_ASSERT_OK(urMemGetInfo(layers, UR_MEM_INFO_SIZE, sizeof size, &size, nullptr));
  EXPECT_EQ(16u * 8 * 3 * 4, size);
  ur_context_handle_t owner = nullptr;
  UR_ASSERT_OK(urMemGetInfo(layers, UR_MEM_INFO_CONTEXT, sizeof owner, &owner, nullptr));
  EXPECT_EQ(context, owner);
  UR_ASSERT_OK(urMemRetain(layers));
  uint32_t refs = 0;
  UR_ASSERT_OK(urMemGetInfo(layers, UR_MEM_INFO_REFERENCE_COUNT, sizeof refs, &refs, nullptr));
  EXPECT_EQ(2u, refs);
  UR_ASSERT_OK(urMemRelease(layers));
}

TEST_F(UrImage, RegionsAreWrittenAndReadBackWithTheHostsPitches) {
  // A 3-D image of one 32-bit channel: pixel (x, y, z) holds 100 z + 10 y + x.
  const ur_image_format_t format{UR_IMAGE_CHANNEL_ORDER_R, UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32};
  ur_mem_handle_t volume = image(format, image_desc(UR_MEM_TYPE_IMAGE3D, 5, 4, 3));
  ASSERT_NE(nullptr, volume);
  std::vector<uint32_t> pixels(5 * 4 * 3);
  for (uint32_t z = 0; z < 3; ++z)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 5; ++x) pixels[(z * 4 + y) * 5 + x] = 100 * z + 10 * y + x;
  UR_ASSERT_OK(urEnqueueMemImageWrite(queue, volume, false, {0, 0, 0}, {5, 4, 3}, 0, 0, pixels.data(), 0, nullptr,
                                      nullptr));
  // A 2x2x2 box at (1, 2, 1), into rows of 4 words and slices of 3 rows, the rest of which stays as it was.
  constexpr size_t kRow = 4 * sizeof(uint32_t), kSlice = 3 * kRow;
  std::vector<uint32_t> box(2 * 3 * 4, 7);
  ur_event_handle_t read = nullptr;
  UR_ASSERT_OK(urEnqueueMemImageRead(queue, volume, false, {1, 2, 1}, {2, 2, 2}, kRow, kSlice, box.data(), 0, nullptr,
                                     &read));
  UR_ASSERT_OK(urEventWait(1, &read));
  ur_command_t type{};
  UR_ASSERT_OK(urEventGetInfo(read, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(UR_COMMAND_MEM_IMAGE_READ, type);
  UR_EXPECT_OK(urEventRelease(read));
  const std::vector<uint32_t> expected{121, 122, 7, 7, 131, 132, 7, 7, 7, 7, 7, 7,
                                       221, 222, 7, 7, 231, 232, 7, 7, 7, 7, 7, 7};
  EXPECT_EQ(expected, box);

  // The same box written back doubled, then the whole image read (blocking).
  for (uint32_t &v : box) v *= 2;
  UR_ASSERT_OK(urEnqueueMemImageWrite(queue, volume, false, {1, 2, 1}, {2, 2, 2}, kRow, kSlice, box.data(), 0,
                                      nullptr, nullptr));
  std::vector<uint32_t> all(pixels.size());
  UR_ASSERT_OK(urEnqueueMemImageRead(queue, volume, true, {0, 0, 0}, {5, 4, 3}, 0, 0, all.data(), 0, nullptr, nullptr));
  for (uint32_t z = 1; z < 3; ++z)
    for (uint32_t y = 2; y < 4; ++y)
      for (uint32_t x = 1; x < 3; ++x) pixels[(z * 4 + y) * 5 + x] *= 2;
  EXPECT_EQ(pixels, all);
}

TEST_F(UrImage, AOneDimensionalArraysLayersAreTheSlicePitchApart) {
  // UR's validation layer bounds a region by the image's WIDTH, HEIGHT and DEPTH only (boundsImage), and an array's
  // layers are none of them (OpenCL's HEIGHT of a 1-D array is 0): it refuses any region of more than one layer.
  if (!zeal_sees_bad_input()) GTEST_SKIP() << "UR's validation layer refuses regions of several array layers";
  const ur_image_format_t format{UR_IMAGE_CHANNEL_ORDER_RG, UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16};
  ur_mem_handle_t layers = image(format, image_desc(UR_MEM_TYPE_IMAGE1D_ARRAY, 4, 0, 0, 3));
  ASSERT_NE(nullptr, layers);
  // Three layers of 4 pixels (16 bytes), 24 bytes apart on the host.
  std::vector<uint16_t> host(3 * 12, 0);
  for (uint16_t l = 0; l < 3; ++l)
    for (uint16_t i = 0; i < 8; ++i) host[l * 12 + i] = static_cast<uint16_t>(l * 100 + i);
  UR_ASSERT_OK(urEnqueueMemImageWrite(queue, layers, true, {0, 0, 0}, {4, 3, 1}, 0, 24, host.data(), 0, nullptr,
                                      nullptr));
  std::vector<uint16_t> packed(3 * 8);
  UR_ASSERT_OK(urEnqueueMemImageRead(queue, layers, true, {0, 0, 0}, {4, 3, 1}, 0, 0, packed.data(), 0, nullptr,
                                     nullptr));
  for (uint16_t l = 0; l < 3; ++l)
    for (uint16_t i = 0; i < 8; ++i) EXPECT_EQ(l * 100 + i, packed[l * 8 + i]) << "layer " << l << " value " << i;
}

TEST_F(UrImage, HostPixelsGivenAtCreationAreTheImagesFirstPixels) {
  const ur_image_format_t format{UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8};
  // 3x2 pixels in rows of 16 bytes (12 used).
  std::vector<uint8_t> host(32, 0xee);
  for (uint8_t y = 0; y < 2; ++y)
    for (uint8_t i = 0; i < 12; ++i) host[y * 16 + i] = static_cast<uint8_t>(y * 50 + i);
  for (ur_mem_flags_t flags : {UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, UR_MEM_FLAG_USE_HOST_POINTER}) {
    ur_image_desc_t desc = image_desc(UR_MEM_TYPE_IMAGE2D, 3, 2);
    desc.rowPitch = 16;
    ur_mem_handle_t m = image(format, desc, host.data(), flags);
    ASSERT_NE(nullptr, m);
    std::vector<uint8_t> packed(24);
    UR_ASSERT_OK(urEnqueueMemImageRead(queue, m, true, {0, 0, 0}, {3, 2, 1}, 0, 0, packed.data(), 0, nullptr, nullptr));
    for (uint8_t y = 0; y < 2; ++y)
      for (uint8_t i = 0; i < 12; ++i) EXPECT_EQ(y * 50 + i, packed[y * 12 + i]) << "flags " << flags;
  }
}

TEST_F(UrImage, ACopiedRegionLandsAtTheDestinationsOrigin) {
  ur_mem_handle_t src = image(kRgbaFloat, image_desc(UR_MEM_TYPE_IMAGE2D, 4, 4));
  ur_mem_handle_t dst = image(kRgbaFloat, image_desc(UR_MEM_TYPE_IMAGE2D, 4, 4));
  ASSERT_NE(nullptr, src);
  ASSERT_NE(nullptr, dst);
  std::vector<float> ones(4 * 4 * 4, 1.0f), zeros(4 * 4 * 4, 0.0f);
  UR_ASSERT_OK(urEnqueueMemImageWrite(queue, src, false, {0, 0, 0}, {4, 4, 1}, 0, 0, ones.data(), 0, nullptr, nullptr));
  UR_ASSERT_OK(urEnqueueMemImageWrite(queue, dst, false, {0, 0, 0}, {4, 4, 1}, 0, 0, zeros.data(), 0, nullptr, nullptr));
  ur_event_handle_t copied = nullptr;
  UR_ASSERT_OK(urEnqueueMemImageCopy(queue, src, dst, {0, 0, 0}, {2, 1, 0}, {2, 3, 1}, 0, nullptr, &copied));
  std::vector<float> got(4 * 4 * 4, -1.0f);
  UR_ASSERT_OK(urEnqueueMemImageRead(queue, dst, true, {0, 0, 0}, {4, 4, 1}, 0, 0, got.data(), 1, &copied, nullptr));
  UR_EXPECT_OK(urEventRelease(copied));
  for (size_t y = 0; y < 4; ++y)
    for (size_t x = 0; x < 4; ++x) {
      const float expected = x >= 2 && y >= 1 ? 1.0f : 0.0f;
      EXPECT_EQ(expected, got[(y * 4 + x) * 4]) << "pixel " << x << ", " << y;
    }
}

// The swizzle: component c of a read is the stored channel the order names, and absent components are 0 (colour)
// or 1 (alpha).
TEST_F(UrImage, AKernelReadsEachChannelOrderAsOpenCLNamesIt) {
  ur_kernel_handle_t k = kernel(built("ur_images.spv"), "pixels");
  ASSERT_NE(nullptr, k);
  struct Case {
    ur_image_channel_order_t order;
    size_t channels;
    std::array<float, 4> expected; // of stored bytes 51, 102, 153, 204 (0.2, 0.4, 0.6, 0.8)
  };
  const Case cases[] = {
      {UR_IMAGE_CHANNEL_ORDER_RGBA, 4, {0.2f, 0.4f, 0.6f, 0.8f}},
      {UR_IMAGE_CHANNEL_ORDER_BGRA, 4, {0.6f, 0.4f, 0.2f, 0.8f}},
      {UR_IMAGE_CHANNEL_ORDER_ARGB, 4, {0.4f, 0.6f, 0.8f, 0.2f}},
      {UR_IMAGE_CHANNEL_ORDER_ABGR, 4, {0.8f, 0.6f, 0.4f, 0.2f}},
      {UR_IMAGE_CHANNEL_ORDER_R, 1, {0.2f, 0.0f, 0.0f, 1.0f}},
      {UR_IMAGE_CHANNEL_ORDER_A, 1, {0.0f, 0.0f, 0.0f, 0.2f}},
      {UR_IMAGE_CHANNEL_ORDER_RG, 2, {0.2f, 0.4f, 0.0f, 1.0f}},
      {UR_IMAGE_CHANNEL_ORDER_RA, 2, {0.2f, 0.0f, 0.0f, 0.4f}},
      {UR_IMAGE_CHANNEL_ORDER_INTENSITY, 1, {0.2f, 0.2f, 0.2f, 0.2f}},
      {UR_IMAGE_CHANNEL_ORDER_LUMINANCE, 1, {0.2f, 0.2f, 0.2f, 1.0f}},
  };
  float *out = shared<float>(4);
  ASSERT_NE(nullptr, out);
  const uint8_t stored[4] = {51, 102, 153, 204};
  for (const Case &c : cases) {
    ur_mem_handle_t m =
        image({c.order, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8}, image_desc(UR_MEM_TYPE_IMAGE2D, 1, 1), nullptr);
    ASSERT_NE(nullptr, m) << "order " << c.order;
    UR_ASSERT_OK(urEnqueueMemImageWrite(queue, m, false, {0, 0, 0}, {1, 1, 1}, 0, 0, const_cast<uint8_t *>(stored), 0,
                                        nullptr, nullptr));
    ur_exp_kernel_arg_properties_t args[] = {buffer_arg(0, m), pointer(1, out)};
    const size_t global[] = {1};
    UR_ASSERT_OK(urEnqueueKernelLaunchWithArgsExp(queue, k, 1, nullptr, global, nullptr, 2, args, nullptr, 0, nullptr,
                                                  nullptr))
        << error();
    UR_ASSERT_OK(urQueueFinish(queue));
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(c.expected[i], out[i], 1e-6) << "order " << c.order << " component " << i;
  }
}

TEST_F(UrImage, AKernelSamplesOneImageIntoAnotherThroughASamplerArgument) {
  ur_kernel_handle_t k = kernel(built("ur_images.spv"), "left_neighbour");
  ASSERT_NE(nullptr, k);
  constexpr size_t kWidth = 4, kHeight = 2;
  std::vector<float> pixels(kWidth * kHeight * 4);
  std::iota(pixels.begin(), pixels.end(), 1.0f);
  ur_mem_handle_t src = image(kRgbaFloat, image_desc(UR_MEM_TYPE_IMAGE2D, kWidth, kHeight), pixels.data(),
                              UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER | UR_MEM_FLAG_READ_ONLY);
  ASSERT_NE(nullptr, src);
  // CLAMP_TO_EDGE reads the first column again at x = -1; CLAMP reads the border colour, (0, 0, 0, 0) for RGBA.
  for (auto addressing : {UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, UR_SAMPLER_ADDRESSING_MODE_CLAMP}) {
    ur_sampler_handle_t s = sampler(addressing);
    ur_mem_handle_t dst = image(kRgbaFloat, image_desc(UR_MEM_TYPE_IMAGE2D, kWidth, kHeight));
    ASSERT_NE(nullptr, s);
    ASSERT_NE(nullptr, dst);
    ur_exp_kernel_arg_properties_t args[] = {buffer_arg(0, src), arg(UR_EXP_KERNEL_ARG_TYPE_SAMPLER, 1, sizeof s, nullptr),
                                             buffer_arg(2, dst)};
    args[1].value.sampler = s;
    const size_t global[] = {kWidth, kHeight};
    UR_ASSERT_OK(urEnqueueKernelLaunchWithArgsExp(queue, k, 2, nullptr, global, nullptr, 3, args, nullptr, 0, nullptr,
                                                  nullptr))
        << error();
    std::vector<float> got(pixels.size(), -1.0f);
    UR_ASSERT_OK(urEnqueueMemImageRead(queue, dst, true, {0, 0, 0}, {kWidth, kHeight, 1}, 0, 0, got.data(), 0,
                                       nullptr, nullptr));
    for (size_t y = 0; y < kHeight; ++y)
      for (size_t x = 0; x < kWidth; ++x)
        for (size_t c = 0; c < 4; ++c) {
          const bool border = x == 0 && addressing == UR_SAMPLER_ADDRESSING_MODE_CLAMP;
          const float expected = border ? 0.0f : pixels[(y * kWidth + (x == 0 ? 0 : x - 1)) * 4 + c];
          EXPECT_EQ(expected, got[(y * kWidth + x) * 4 + c]) << "addressing " << addressing << " pixel " << x << ", "
                                                              << y << " component " << c;
        }
  }
}

TEST_F(UrImage, SamplerInfoAnswersItsDescription) {
  ur_sampler_handle_t s = sampler(UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT, true);
  ASSERT_NE(nullptr, s);
  EXPECT_EQ(1u, sampler_info<uint32_t>(s, UR_SAMPLER_INFO_REFERENCE_COUNT));
  EXPECT_EQ(context, sampler_info<ur_context_handle_t>(s, UR_SAMPLER_INFO_CONTEXT));
  EXPECT_TRUE(sampler_info<ur_bool_t>(s, UR_SAMPLER_INFO_NORMALIZED_COORDS));
  EXPECT_EQ(UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT,
            sampler_info<ur_sampler_addressing_mode_t>(s, UR_SAMPLER_INFO_ADDRESSING_MODE));
  EXPECT_EQ(UR_SAMPLER_FILTER_MODE_NEAREST, sampler_info<ur_sampler_filter_mode_t>(s, UR_SAMPLER_INFO_FILTER_MODE));
  UR_ASSERT_OK(urSamplerRetain(s));
  EXPECT_EQ(2u, sampler_info<uint32_t>(s, UR_SAMPLER_INFO_REFERENCE_COUNT));
  UR_ASSERT_OK(urSamplerRelease(s));
}

TEST_F(UrImage, NativeHandlesAreTheLevelZeroImageAndSampler) {
  const ur_image_desc_t desc = image_desc(UR_MEM_TYPE_IMAGE2D, 2, 2);
  std::vector<float> pixels(2 * 2 * 4);
  std::iota(pixels.begin(), pixels.end(), 0.5f);
  ur_mem_handle_t m = image(kRgbaFloat, desc, pixels.data(), UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER);
  ASSERT_NE(nullptr, m);
  ur_native_handle_t native = 0;
  UR_ASSERT_OK(urMemGetNativeHandle(m, device, &native));
  ASSERT_NE(0u, native);
  ur_mem_handle_t again = nullptr;
  UR_ASSERT_OK(urMemImageCreateWithNativeHandle(native, context, &kRgbaFloat, &desc, nullptr, &again)) << error();
  images.push_back(again);
  std::vector<float> got(pixels.size());
  UR_ASSERT_OK(urEnqueueMemImageRead(queue, again, true, {0, 0, 0}, {2, 2, 1}, 0, 0, got.data(), 0, nullptr, nullptr));
  EXPECT_EQ(pixels, got);

  ur_sampler_handle_t s = sampler(UR_SAMPLER_ADDRESSING_MODE_REPEAT, true);
  ASSERT_NE(nullptr, s);
  ur_native_handle_t native_sampler = 0;
  UR_ASSERT_OK(urSamplerGetNativeHandle(s, &native_sampler));
  ur_sampler_handle_t adopted = nullptr;
  UR_ASSERT_OK(urSamplerCreateWithNativeHandle(native_sampler, context, nullptr, &adopted)) << error();
  samplers.push_back(adopted);
  EXPECT_EQ(UR_SAMPLER_ADDRESSING_MODE_REPEAT,
            sampler_info<ur_sampler_addressing_mode_t>(adopted, UR_SAMPLER_INFO_ADDRESSING_MODE));
  EXPECT_TRUE(sampler_info<ur_bool_t>(adopted, UR_SAMPLER_INFO_NORMALIZED_COORDS));
  // Level Zero cannot describe a sampler zeal did not make.
  int not_a_sampler = 0;
  ur_sampler_handle_t unknown = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE,
            urSamplerCreateWithNativeHandle(reinterpret_cast<ur_native_handle_t>(&not_a_sampler), context, nullptr,
                                            &unknown));
  expect_sentence("is not a live sampler zeal made");
}

TEST_F(UrImage, BadFormatsAndDescriptionsGetTheSpecsCodes) {
  const ur_image_desc_t plain = image_desc(UR_MEM_TYPE_IMAGE2D, 4, 4);
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
            create({UR_IMAGE_CHANNEL_ORDER_RGB, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8}, plain));
  expect_sentence("channel order RGB and channel type UNORM_INT8 are not supported");
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
            create({UR_IMAGE_CHANNEL_ORDER_BGRA, UR_IMAGE_CHANNEL_TYPE_FLOAT}, plain));
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
            create({UR_IMAGE_CHANNEL_ORDER_SRGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8}, plain));
  expect_sentence("sRGBA");
  EXPECT_EQ(UR_RESULT_SUCCESS, create({UR_IMAGE_CHANNEL_ORDER_RGB, UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565}, plain));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            create({UR_IMAGE_CHANNEL_ORDER_RGBA, static_cast<ur_image_channel_type_t>(99)}, plain));

  struct BadDesc {
    void (*change)(ur_image_desc_t &);
    ur_result_t code;
    const char *words;
  };
  const BadDesc bad_descs[] = {
      {[](ur_image_desc_t &d) { d.stype = UR_STRUCTURE_TYPE_BUFFER_PROPERTIES; },
       UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR, "not UR_STRUCTURE_TYPE_IMAGE_DESC"},
      {[](ur_image_desc_t &d) { d.numMipLevel = 2; }, UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR,
       "numMipLevel is 2"},
      {[](ur_image_desc_t &d) { d.rowPitch = 64; }, UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR,
       "must be 0 without pHost"},
      {[](ur_image_desc_t &d) { d.height = 0; }, UR_RESULT_ERROR_INVALID_IMAGE_SIZE, "2-D image's height is 0"},
      {[](ur_image_desc_t &d) { d.width = size_t{1} << 40; }, UR_RESULT_ERROR_INVALID_IMAGE_SIZE,
       "width is 1099511627776"},
  };
  for (const BadDesc &b : bad_descs) {
    ur_image_desc_t desc = plain;
    b.change(desc);
    EXPECT_EQ(b.code, create(kRgbaFloat, desc)) << b.words;
    expect_sentence(b.words);
  }
  // A host row pitch that does not hold a row.
  std::vector<float> host(64);
  ur_image_desc_t bad = plain;
  bad.rowPitch = 8;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            create(kRgbaFloat, bad, host.data(), UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER));
  expect_sentence("host row pitch 8 is less than the region's row of 64 bytes");
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_HOST_PTR, create(kRgbaFloat, plain, host.data(), UR_MEM_FLAG_READ_WRITE));
  ur_mem_handle_t m = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urMemImageCreate(nullptr, 0, &kRgbaFloat, &plain, nullptr, &m));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urMemImageCreate(context, 0, nullptr, &plain, nullptr, &m));

  ur_sampler_desc_t sampler_desc{UR_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, false,
                                 static_cast<ur_sampler_addressing_mode_t>(9), UR_SAMPLER_FILTER_MODE_NEAREST};
  ur_sampler_handle_t s = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urSamplerCreate(context, &sampler_desc, &s));
}

TEST_F(UrImage, BadRegionsAndHandlesGetTheSpecsCodes) {
  ur_mem_handle_t m = image(kRgbaFloat, image_desc(UR_MEM_TYPE_IMAGE2D, 4, 4));
  ASSERT_NE(nullptr, m);
  std::vector<float> host(4 * 4 * 4);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urEnqueueMemImageRead(queue, m, true, {1, 0, 0}, {4, 4, 1}, 0, 0, host.data(), 0, nullptr, nullptr));
  expect_sentence("the region of 4x4x1 pixels at (1, 0, 0) passes the 2-D image's 4x4x1 in x");
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urEnqueueMemImageWrite(queue, m, true, {0, 0, 0}, {4, 0, 1}, 0, 0, host.data(), 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urEnqueueMemImageRead(queue, m, true, {0, 0, 0}, {4, 4, 1}, 0, 0, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE,
            urEnqueueMemImageRead(queue, nullptr, true, {0, 0, 0}, {4, 4, 1}, 0, 0, host.data(), 0, nullptr, nullptr));
  // A buffer is not an image, and pixels of 16 bytes do not copy into pixels of 4.
  ur_mem_handle_t buffer = nullptr;
  UR_ASSERT_OK(urMemBufferCreate(context, UR_MEM_FLAG_READ_WRITE, 64, nullptr, &buffer));
  size_t width = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_MEM_OBJECT,
            urMemImageGetInfo(buffer, UR_IMAGE_INFO_WIDTH, sizeof width, &width, nullptr));
  UR_EXPECT_OK(urMemRelease(buffer));
  ur_mem_handle_t bytes = image({UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8},
                                image_desc(UR_MEM_TYPE_IMAGE2D, 4, 4));
  ASSERT_NE(nullptr, bytes);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE,
            urEnqueueMemImageCopy(queue, m, bytes, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 0, nullptr, nullptr));
  expect_sentence("a copy needs pixels of one size");
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urSamplerRetain(nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SAMPLER, urSamplerRetain(reinterpret_cast<ur_sampler_handle_t>(m)));
}

} // namespace
} // namespace zeal_ur_test
