// Images and samplers through the zeal C ABI (0.5): the device says it has images, host pixels go into an image
// and back by region, a kernel samples one image into another through a sampler argument, and bad input gets the
// ABI's codes and a sentence.
#include "adapter_fixture.hpp"

#include <numeric>

using namespace zeal_test;

namespace {

class ImageTest : public AdapterTest {
protected:
  zeal_image_handle_t image(size_t width, size_t height,
                            zeal_image_channel_type_t type = ZEAL_IMAGE_CHANNEL_TYPE_FLOAT) {
    const zeal_image_desc_t desc{ZEAL_IMAGE_TYPE_2D, ZEAL_IMAGE_CHANNEL_ORDER_RGBA, type, width, height, 1, 1};
    zeal_image_handle_t i = nullptr;
    EXPECT_EQ(d.imageCreate(context, &desc, &i), ZEAL_RESULT_SUCCESS) << last_error();
    return i;
  }
};

TEST_F(ImageTest, TheCpuDeviceHasImages) {
  uint32_t images = 0;
  ASSERT_EQ(d.deviceGetInfo(device, ZEAL_DEVICE_INFO_IMAGE_SUPPORT, sizeof images, &images, nullptr),
            ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(images, 1u);
  EXPECT_EQ(ZEAL_VERSION_MINOR(d.abi_version), 5u);
}

TEST_F(ImageTest, HostPixelsGoInAndComeBackByRegion) {
  zeal_image_handle_t i = image(4, 3);
  ASSERT_NE(i, nullptr);
  std::vector<float> pixels(4 * 3 * 4);
  std::iota(pixels.begin(), pixels.end(), 0.0f);
  const zeal_image_region_t whole{{0, 0, 0}, {4, 3, 1}};
  ASSERT_EQ(d.enqueueImageWrite(queue, i, &whole, 0, 0, pixels.data(), 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS)
      << last_error();
  // Two pixels of the last row into a row of 40 bytes.
  std::vector<float> row(10, -1.0f);
  const zeal_image_region_t two{{1, 2, 0}, {2, 1, 1}};
  zeal_event_handle_t read = nullptr;
  ASSERT_EQ(d.enqueueImageRead(queue, i, &two, 40, 0, row.data(), 0, nullptr, &read), ZEAL_RESULT_SUCCESS)
      << last_error();
  ASSERT_EQ(d.eventWait(1, &read), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.eventRelease(read), ZEAL_RESULT_SUCCESS);
  for (size_t c = 0; c < 8; ++c) EXPECT_EQ(row[c], pixels[(2 * 4 + 1) * 4 + c]) << "component " << c;
  EXPECT_EQ(row[8], -1.0f);
  EXPECT_EQ(d.imageRelease(i), ZEAL_RESULT_SUCCESS);
}

TEST_F(ImageTest, AKernelSamplesOneImageIntoAnotherThroughASampler) {
  zeal_program_handle_t program = build("ur_images.spv");
  ASSERT_NE(program, nullptr);
  zeal_kernel_handle_t k = kernel_of(program, "left_neighbour");
  zeal_image_handle_t src = image(3, 1), dst = image(3, 1);
  ASSERT_NE(src, nullptr);
  ASSERT_NE(dst, nullptr);
  const float pixels[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const zeal_image_region_t whole{{0, 0, 0}, {3, 1, 1}};
  ASSERT_EQ(d.enqueueImageWrite(queue, src, &whole, 0, 0, pixels, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS);
  const zeal_sampler_desc_t edge{0, ZEAL_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, ZEAL_SAMPLER_FILTER_MODE_NEAREST};
  zeal_sampler_handle_t sampler = nullptr;
  ASSERT_EQ(d.samplerCreate(context, &edge, &sampler), ZEAL_RESULT_SUCCESS) << last_error();
  zeal_kernel_arg_t args[] = {{0, ZEAL_KERNEL_ARG_IMAGE, 0, src},
                              {1, ZEAL_KERNEL_ARG_SAMPLER, 0, sampler},
                              {2, ZEAL_KERNEL_ARG_IMAGE, 0, dst}};
  zeal_launch_desc_t launch{2, {0, 0, 0}, {3, 1, 1}, {0, 0, 0}, 3, args};
  ASSERT_EQ(run(k, launch), ZEAL_RESULT_SUCCESS) << last_error();
  float got[12] = {};
  ASSERT_EQ(d.enqueueImageRead(queue, dst, &whole, 0, 0, got, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS);
  ASSERT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
  const float expected[12] = {1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8};
  for (size_t c = 0; c < 12; ++c) EXPECT_EQ(got[c], expected[c]) << "component " << c;
  // Kept arguments are the same: set once, launched without arguments of its own.
  for (const zeal_kernel_arg_t &a : args) ASSERT_EQ(d.kernelSetArg(k, &a), ZEAL_RESULT_SUCCESS) << last_error();
  zeal_launch_desc_t bare{2, {0, 0, 0}, {3, 1, 1}, {0, 0, 0}, 0, nullptr};
  ASSERT_EQ(run(k, bare), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(d.samplerRelease(sampler), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.imageRelease(src), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.imageRelease(dst), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
}

TEST_F(ImageTest, BadInputGetsTheAbisCodesAndASentence) {
  zeal_image_desc_t desc{ZEAL_IMAGE_TYPE_2D, ZEAL_IMAGE_CHANNEL_ORDER_BGRA, ZEAL_IMAGE_CHANNEL_TYPE_FLOAT, 4, 4, 1, 1};
  zeal_image_handle_t i = nullptr;
  EXPECT_EQ(d.imageCreate(context, &desc, &i), ZEAL_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  EXPECT_EQ(last_error(), "images of channel order BGRA and channel type FLOAT are not supported (OpenCL allows BGRA "
                          "with 8-bit channel types only)");
  desc.channel_order = ZEAL_IMAGE_CHANNEL_ORDER_RGBA;
  desc.height = 0;
  EXPECT_EQ(d.imageCreate(context, &desc, &i), ZEAL_RESULT_ERROR_INVALID_IMAGE_SIZE);
  EXPECT_NE(last_error().find("image create: the 2-D image's height is 0, but device"), std::string::npos)
      << last_error();
  const zeal_sampler_desc_t bad{0, static_cast<zeal_sampler_addressing_mode_t>(42), ZEAL_SAMPLER_FILTER_MODE_LINEAR};
  zeal_sampler_handle_t s = nullptr;
  EXPECT_EQ(d.samplerCreate(context, &bad, &s), ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(last_error(), "sampler create: addressing mode 42 is not a zeal_sampler_addressing_mode_t");

  zeal_image_handle_t small = image(2, 2);
  ASSERT_NE(small, nullptr);
  float host[16] = {};
  const zeal_image_region_t outside{{1, 1, 0}, {2, 1, 1}};
  EXPECT_EQ(d.enqueueImageRead(queue, small, &outside, 0, 0, host, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(last_error(), "image read: the region of 2x1x1 pixels at (1, 1, 0) passes the 2-D image's 2x2x1 in x");
  // A kernel argument that is not an image.
  zeal_program_handle_t program = build("ur_images.spv");
  ASSERT_NE(program, nullptr);
  zeal_kernel_handle_t k = kernel_of(program, "pixels");
  const zeal_kernel_arg_t not_an_image{0, ZEAL_KERNEL_ARG_IMAGE, 0, context};
  EXPECT_EQ(d.kernelSetArg(k, &not_an_image), ZEAL_RESULT_ERROR_INVALID_HANDLE);
  EXPECT_NE(last_error().find("image argument 0 of kernel 'pixels' handle"), std::string::npos) << last_error();
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.imageRelease(small), ZEAL_RESULT_SUCCESS);
}

} // namespace
