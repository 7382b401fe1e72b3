// Images and samplers on the CUDA driver (issue 49): the CPU driver's image kernels (tests/cpu_driver/kernels/
// images.cl) on the GPU, through the image library the back end links in; copies between images and memory.
#include "cuda_driver_fixture.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace zeal::test {
namespace {

ze_image_desc_t image_desc(ze_image_type_t type, ze_image_format_layout_t layout, ze_image_format_type_t format_type,
                           uint64_t width, uint32_t height = 1, uint32_t depth = 1, uint32_t layers = 0) {
  auto desc = ze_desc<ze_image_desc_t>();
  desc.flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
  desc.type = type;
  const bool four = layout == ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8 || layout == ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32;
  desc.format = {layout, format_type, ZE_IMAGE_FORMAT_SWIZZLE_R,
                 four ? ZE_IMAGE_FORMAT_SWIZZLE_G : ZE_IMAGE_FORMAT_SWIZZLE_0,
                 four ? ZE_IMAGE_FORMAT_SWIZZLE_B : ZE_IMAGE_FORMAT_SWIZZLE_0,
                 four ? ZE_IMAGE_FORMAT_SWIZZLE_A : ZE_IMAGE_FORMAT_SWIZZLE_1};
  desc.width = width;
  desc.height = height;
  desc.depth = depth;
  desc.arraylevels = layers;
  return desc;
}

class CudaImages : public CudaDriver {
protected:
  void SetUp() override {
    CudaDriver::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NO_FATAL_FAILURE(build(read_kernel("images"), module));
  }
  void TearDown() override {
    for (ze_image_handle_t image : images) zeImageDestroy(image);
    if (module != nullptr) zeModuleDestroy(module);
    CudaDriver::TearDown();
  }
  ze_image_handle_t image(const ze_image_desc_t &desc) {
    ze_image_handle_t made = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeImageCreate(context, device, &desc, &made));
    if (made != nullptr) images.push_back(made);
    return made;
  }
  void run(const char *name, const std::vector<std::pair<size_t, const void *>> &args, ze_group_count_t groups) {
    ze_kernel_handle_t kernel = nullptr;
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, name, kernel)) << name;
    for (uint32_t i = 0; i < args.size(); ++i)
      ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, i, args[i].first, args[i].second)) << name << i;
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 1, 1, 1));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr));
    finish();
    zeKernelDestroy(kernel);
  }

  ze_module_handle_t module = nullptr;
  std::vector<ze_image_handle_t> images;
};

// Pixels in from host memory, through a kernel (RGBA8 unorm: the inline fast path; one 32-bit uint channel: the
// library), out to host memory.
TEST_F(CudaImages, KernelsCopyImagesOfAFastAndALibraryFormatAndTheCopiesToAndFromMemoryKeepEveryByte) {
  constexpr uint32_t w = 37, h = 19;
  struct Case {
    const char *kernel;
    ze_image_format_layout_t layout;
    ze_image_format_type_t type;
    uint32_t pixel_bytes;
  };
  for (const Case &c : {Case{"copy_float", ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM, 4},
                        Case{"copy_uint", ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_UINT, 4}}) {
    const ze_image_desc_t desc = image_desc(ZE_IMAGE_TYPE_2D, c.layout, c.type, w, h);
    ze_image_handle_t src = image(desc), dst = image(desc);
    ASSERT_NE(nullptr, dst);
    std::vector<uint8_t> in(w * h * c.pixel_bytes), out(in.size(), 0xEE);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7 + 3);
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendImageCopyFromMemory(list, src, in.data(), nullptr, nullptr, 0,
                                                                        nullptr));
    ASSERT_NO_FATAL_FAILURE(run(c.kernel, {{sizeof src, &src}, {sizeof dst, &dst}}, {w, h, 1}));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendImageCopyToMemory(list, out.data(), dst, nullptr, nullptr, 0,
                                                                      nullptr));
    finish();
    EXPECT_EQ(in, out) << c.kernel;
  }
}

// Linear filtering between pixels, through a sampler argument: each sample is the mean of its two neighbours, and
// clamp-to-edge holds the edge.
TEST_F(CudaImages, ASamplerArgumentFiltersLinearlyBetweenPixelsAndClampsToTheEdge) {
  constexpr uint32_t w = 4;
  ze_image_handle_t src = image(image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32,
                                           ZE_IMAGE_FORMAT_TYPE_FLOAT, w, 1));
  ASSERT_NE(nullptr, src);
  float pixels[w * 4];
  for (uint32_t i = 0; i < w * 4; ++i) pixels[i] = float(i);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendImageCopyFromMemory(list, src, pixels, nullptr, nullptr, 0, nullptr));
  auto sdesc = ze_desc<ze_sampler_desc_t>();
  sdesc.addressMode = ZE_SAMPLER_ADDRESS_MODE_CLAMP;
  sdesc.filterMode = ZE_SAMPLER_FILTER_MODE_LINEAR;
  sdesc.isNormalized = false;
  ze_sampler_handle_t sampler = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeSamplerCreate(context, device, &sdesc, &sampler));
  constexpr uint32_t n = 3;
  auto *coords = static_cast<float *>(shared_memory(n * 2 * sizeof(float)));
  auto *out = static_cast<float *>(shared_memory(n * 4 * sizeof(float)));
  const float at[n] = {1.0f, 2.5f, 0.0f}; // between pixels 0 and 1; on pixel 2's centre; left of the edge
  for (uint32_t i = 0; i < n; ++i) coords[2 * i] = at[i], coords[2 * i + 1] = 0.5f;
  ASSERT_NO_FATAL_FAILURE(run("sample", {{sizeof src, &src}, {sizeof sampler, &sampler}, {8, &coords}, {8, &out}},
                              {n, 1, 1}));
  for (uint32_t c = 0; c < 4; ++c) {
    EXPECT_FLOAT_EQ((pixels[c] + pixels[4 + c]) / 2, out[c]) << c;
    EXPECT_FLOAT_EQ(pixels[8 + c], out[4 + c]) << c;
    EXPECT_FLOAT_EQ(pixels[c], out[8 + c]) << c;
  }
  zeSamplerDestroy(sampler);
  zeMemFree(context, coords);
  zeMemFree(context, out);
}

// Arrays and 3-D images: a kernel writes every layer, a copy moves the layers into a 3-D image, another kernel reads
// it back; the queries answer each image's shape and format.
TEST_F(CudaImages, LayersWrittenByAKernelAndCopiedIntoAVolumeReadBackAndTheQueriesAnswerTheShapes) {
  constexpr uint32_t w = 5, h = 3, d = 4;
  ze_image_handle_t layers = image(image_desc(ZE_IMAGE_TYPE_2DARRAY, ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32,
                                              ZE_IMAGE_FORMAT_TYPE_UINT, w, h, 1, d));
  ze_image_handle_t volume = image(image_desc(ZE_IMAGE_TYPE_3D, ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32,
                                              ZE_IMAGE_FORMAT_TYPE_UINT, w, h, d));
  ze_image_handle_t line = image(image_desc(ZE_IMAGE_TYPE_1D, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8,
                                            ZE_IMAGE_FORMAT_TYPE_UNORM, 9));
  ASSERT_NE(nullptr, line);
  ASSERT_NO_FATAL_FAILURE(run("fill_layers", {{sizeof layers, &layers}}, {w, h, d}));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendImageCopy(list, volume, layers, nullptr, 0, nullptr));
  auto *out = static_cast<uint32_t *>(shared_memory(w * h * d * 16));
  ASSERT_NO_FATAL_FAILURE(run("read_volume", {{sizeof volume, &volume}, {8, &out}}, {w, h, d}));
  for (uint32_t z = 0; z < d; ++z)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        const uint32_t *p = out + 4 * ((z * h + y) * w + x);
        EXPECT_EQ(x, p[0]);
        EXPECT_EQ(y, p[1]);
        EXPECT_EQ(z, p[2]);
        EXPECT_EQ(7u, p[3]);
      }
  auto *answers = static_cast<int32_t *>(shared_memory(12 * sizeof(int32_t)));
  ASSERT_NO_FATAL_FAILURE(
      run("queries", {{sizeof volume, &volume}, {sizeof layers, &layers}, {sizeof line, &line}, {8, &answers}},
          {1, 1, 1}));
  // OpenCL's CLK_UNSIGNED_INT32 (0x10DC) and CLK_RGBA (0x10B5).
  const int32_t expected[12] = {int32_t(w), int32_t(h), int32_t(d), int32_t(d), int32_t(w), int32_t(h), int32_t(d),
                                9,          0x10DC,     0x10B5,     0x10DC,     0x10B5};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(expected[i], answers[i]) << i;
  zeMemFree(context, out);
  zeMemFree(context, answers);
}

// Bad input: a media layout, an image past the limits, a region past the image, a null image argument.
TEST_F(CudaImages, ImagesTheDriverCannotMakeAndRegionsPastTheImageAreRefusedWithTheirCodes) {
  ze_image_desc_t media = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_NV12, ZE_IMAGE_FORMAT_TYPE_UNORM, 8, 8);
  ze_image_handle_t none = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, zeImageCreate(context, device, &media, &none));
  ze_image_desc_t huge = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT, 1 << 20, 1);
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeImageCreate(context, device, &huge, &none));
  ze_image_handle_t small =
      image(image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT, 4, 4));
  ASSERT_NE(nullptr, small);
  ze_image_region_t past{2, 2, 0, 4, 4, 1};
  uint8_t bytes[64] = {};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zeCommandListAppendImageCopyToMemory(list, bytes, small, &past, nullptr, 0, nullptr));
  ze_kernel_handle_t kernel = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "copy_uint", kernel));
  ze_image_handle_t null_image = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeKernelSetArgumentValue(kernel, 0, sizeof null_image, &null_image));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(kernel, 0, 4, &small));
  zeKernelDestroy(kernel);
}

// What caches keep (zeModuleGetNativeBinary, as kernel bundles' disk cache does): the module built again from its
// native binary still takes images and samplers as handles; and copies between images and memory move every byte
// (host memory into an image, a region into another image, out again). Runs on the fake CUDA library too.
TEST_F(CudaImages, TheNativeBinaryKeepsImageAndSamplerArgumentsAndImageCopiesMoveEveryByte) {
  ze_module_handle_t again = nullptr;
  ASSERT_NO_FATAL_FAILURE(rebuild_from_native(module, again));
  constexpr uint32_t w = 16, h = 8;
  const ze_image_desc_t desc =
      image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM, w, h);
  ze_image_handle_t first = image(desc), second = image(desc);
  ASSERT_NE(nullptr, second);
  auto sdesc = ze_desc<ze_sampler_desc_t>();
  sdesc.addressMode = ZE_SAMPLER_ADDRESS_MODE_CLAMP;
  sdesc.filterMode = ZE_SAMPLER_FILTER_MODE_NEAREST;
  ze_sampler_handle_t sampler = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeSamplerCreate(context, device, &sdesc, &sampler));
  for (ze_module_handle_t m : {module, again}) {
    ze_kernel_handle_t kernel = nullptr;
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(m, "sample", kernel));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, sizeof first, &first));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 1, sizeof sampler, &sampler));
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(kernel, 1, 4, &sampler));
    zeKernelDestroy(kernel);
  }
  std::vector<uint8_t> in(w * h * 4), out(in.size(), 0xEE);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 13 + 1);
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendImageCopyFromMemory(list, first, in.data(), nullptr, nullptr, 0, nullptr));
  // The right half of the first image into the left half of the second, then the left half of the first beside it.
  ze_image_region_t right{w / 2, 0, 0, w / 2, h, 1}, left{0, 0, 0, w / 2, h, 1};
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendImageCopyRegion(list, second, first, &left, &right, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendImageCopyRegion(list, second, first, &right, &left, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendImageCopyToMemory(list, out.data(), second, nullptr, nullptr, 0,
                                                                    nullptr));
  finish();
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      for (uint32_t c = 0; c < 4; ++c) {
        const uint32_t from_x = (x + w / 2) % w;
        ASSERT_EQ(in[(y * w + from_x) * 4 + c], out[(y * w + x) * 4 + c]) << x << "," << y << "," << c;
      }
  zeSamplerDestroy(sampler);
  zeModuleDestroy(again);
}

} // namespace
} // namespace zeal::test
