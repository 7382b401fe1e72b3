// Kernels reading and writing images on the CPU driver (issue 50): the inline fast paths (RGBA of floats, integers
// or unorm bytes, through no sampler or one clamping to the edge) and the host's path for the rest (other formats
// and swizzles, float coordinates, filtering, arrays and 3-D images, halves), image queries, and image and sampler
// arguments. Expected values are computed here from OpenCL's rules, pixel by pixel.
#include "test_support.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <vector>

namespace zeal::cpu::test {
namespace {

using Float4 = std::array<float, 4>;
using Uint4 = std::array<uint32_t, 4>;

class ImageKernels : public CpuDriver {
protected:
  void SetUp() override {
    CpuDriver::SetUp();
    std::string log;
    ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("images.spv"), module, &log)) << log;
  }
  // Sets the arguments (image and sampler handles by address, pointers by value) and runs `name` over `global`
  // work-items in groups of one row of at most 8.
  template <class... Args>
  ze_result_t run(const char *name, std::array<uint32_t, 3> global, const Args &...args) {
    ze_kernel_handle_t k = kernel(module, name);
    if (k == nullptr) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
    uint32_t index = 0;
    ze_result_t r = ZE_RESULT_SUCCESS;
    ((r = r == ZE_RESULT_SUCCESS ? zeKernelSetArgumentValue(k, index++, sizeof(args), &args) : r), ...);
    if (r != ZE_RESULT_SUCCESS) return r;
    const uint32_t group = global[0] % 8 == 0 ? 8 : 1;
    if ((r = zeKernelSetGroupSize(k, group, 1, 1)) != ZE_RESULT_SUCCESS) return r;
    return launch_and_wait(k, {global[0] / group, global[1], global[2]});
  }

  ze_module_handle_t module = nullptr;
};

// The fast paths: RGBA floats, 32-bit integers and unorm bytes copied bit for bit by a kernel through a literal
// sampler clamping to the edge.
TEST_F(ImageKernels, CopyKernelsMoveEveryPixelOfRgbaFloatIntegerAndUnormImagesExactly) {
  constexpr uint32_t w = 24, h = 5;
  std::vector<Float4> floats(w * h);
  for (uint32_t i = 0; i < w * h; ++i) floats[i] = {float(i) * 0.25f, -float(i), 1e30f, float(i) / 3.0f};
  auto desc = image_desc(ZE_IMAGE_TYPE_2D, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_FLOAT), w, h);
  ze_image_handle_t src = image(desc), dst = image(desc);
  write_image(src, floats.data());
  ZE_ASSERT_OK(run("copy_float", {w, h, 1}, src, dst));
  std::vector<Float4> copied(w * h);
  read_image(copied.data(), dst);
  EXPECT_EQ(0, std::memcmp(floats.data(), copied.data(), floats.size() * sizeof(Float4)));

  std::vector<Uint4> words(w * h);
  for (uint32_t i = 0; i < w * h; ++i) words[i] = {i, ~i, 0x80000000u + i, 7};
  desc.format = rgba_format(ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_UINT);
  ze_image_handle_t usrc = image(desc), udst = image(desc);
  write_image(usrc, words.data());
  ZE_ASSERT_OK(run("copy_uint", {w, h, 1}, usrc, udst));
  std::vector<Uint4> words_back(w * h);
  read_image(words_back.data(), udst);
  EXPECT_EQ(words, words_back);

  // c / 255 written back as rte(f * 255) is c again, for every byte value.
  std::vector<uint8_t> bytes(w * h * 4);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 7);
  desc.format = rgba_format(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM);
  ze_image_handle_t bsrc = image(desc), bdst = image(desc);
  write_image(bsrc, bytes.data());
  ZE_ASSERT_OK(run("copy_float", {w, h, 1}, bsrc, bdst));
  std::vector<uint8_t> bytes_back(bytes.size());
  read_image(bytes_back.data(), bdst);
  EXPECT_EQ(bytes, bytes_back);
}

// Reads left of the first column clamp to it; every other pixel reads its left neighbour, converted from unorm.
TEST_F(ImageKernels, ReadsOutsideTheImageClampToTheEdgeAndUnormBytesReadAsFractionsOf255) {
  constexpr uint32_t w = 8, h = 3;
  std::vector<uint8_t> bytes(w * h * 4);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 5 + 1);
  auto desc = image_desc(ZE_IMAGE_TYPE_2D, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), w, h);
  ze_image_handle_t src = image(desc);
  write_image(src, bytes.data());
  auto *out = shared_array<Float4>(w * h);
  ZE_ASSERT_OK(run("left_neighbour", {w, h, 1}, src, out));
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      const uint32_t from = y * w + (x == 0 ? 0 : x - 1);
      for (int c = 0; c < 4; ++c) EXPECT_EQ(float(bytes[from * 4 + c]) / 255.0f, out[y * w + x][c]) << x << "," << y;
    }
  }
}

// BGRA bytes and one-channel integers are not fast formats: the host reads them with their swizzle (a BGRA
// pixel's red is its third byte; an R image reads (r, 0, 0, 1)).
TEST_F(ImageKernels, OtherFormatsAndSwizzlesAreReadAndWrittenThroughTheHost) {
  constexpr uint32_t w = 8, h = 2;
  ze_image_format_t bgra = rgba_format(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM);
  bgra.x = ZE_IMAGE_FORMAT_SWIZZLE_B;
  bgra.z = ZE_IMAGE_FORMAT_SWIZZLE_R;
  std::vector<uint8_t> bytes(w * h * 4);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(200 - i);
  ze_image_handle_t src = image(image_desc(ZE_IMAGE_TYPE_2D, bgra, w, h));
  write_image(src, bytes.data());
  auto *out = shared_array<Float4>(w * h);
  ZE_ASSERT_OK(run("left_neighbour", {w, h, 1}, src, out));
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 1; x < w; ++x) {
      const uint8_t *p = &bytes[(y * w + x - 1) * 4];
      const Float4 want{p[2] / 255.0f, p[1] / 255.0f, p[0] / 255.0f, p[3] / 255.0f};
      EXPECT_EQ(want, out[y * w + x]) << x << "," << y;
    }
  }

  // An R8 unsigned image copied by the integer kernel: the host reads (r, 0, 0, 1) and writes r back.
  ze_image_format_t r8 = {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT, ZE_IMAGE_FORMAT_SWIZZLE_R,
                          ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_1};
  std::vector<uint8_t> reds(w * h);
  for (size_t i = 0; i < reds.size(); ++i) reds[i] = uint8_t(250 - 3 * i);
  ze_image_handle_t rsrc = image(image_desc(ZE_IMAGE_TYPE_2D, r8, w, h)), rdst = image(image_desc(ZE_IMAGE_TYPE_2D, r8, w, h));
  write_image(rsrc, reds.data());
  ZE_ASSERT_OK(run("copy_uint", {w, h, 1}, rsrc, rdst));
  std::vector<uint8_t> reds_back(reds.size());
  read_image(reds_back.data(), rdst);
  EXPECT_EQ(reds, reds_back);
}

// A sampler made on the host, passed as an argument: nearest and linear filtering, unnormalized and normalized
// coordinates, clamp-to-edge and the border of CLAMP_TO_BORDER, on a 4x1 image of (0, 10, 20, 30) in red.
TEST_F(ImageKernels, SamplerArgumentsFilterAndAddressAsOpenClSpecifies) {
  constexpr uint32_t w = 4;
  std::vector<Float4> pixels(w);
  for (uint32_t x = 0; x < w; ++x) pixels[x] = {10.0f * float(x), 1.0f, 0.0f, 1.0f};
  ze_image_handle_t src =
      image(image_desc(ZE_IMAGE_TYPE_2D, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_FLOAT), w, 1));
  write_image(src, pixels.data());
  struct Case {
    ze_sampler_address_mode_t address;
    ze_sampler_filter_mode_t filter;
    bool normalized;
    float x;
    float red; // what OpenCL's rules give
  };
  const Case cases[] = {
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_NEAREST, false, 2.7f, 20.0f},
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_LINEAR, false, 1.5f, 10.0f},  // a pixel's centre
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_LINEAR, false, 2.0f, 15.0f},  // between 1 and 2
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_LINEAR, false, 2.25f, 17.5f}, // a quarter past 1's
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_LINEAR, true, 0.5f, 15.0f},   // u = 2
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_NEAREST, false, 9.0f, 30.0f}, // the edge
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_LINEAR, false, 0.0f, 0.0f},   // the edge twice
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, ZE_SAMPLER_FILTER_MODE_NEAREST, false, -1.0f, 0.0f},
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, ZE_SAMPLER_FILTER_MODE_LINEAR, false, 4.0f, 15.0f}, // half border
      {ZE_SAMPLER_ADDRESS_MODE_REPEAT, ZE_SAMPLER_FILTER_MODE_NEAREST, true, 1.3f, 10.0f},          // 0.3 * 4
      {ZE_SAMPLER_ADDRESS_MODE_MIRROR, ZE_SAMPLER_FILTER_MODE_NEAREST, true, 1.3f, 20.0f},          // 0.7 * 4
  };
  for (const Case &c : cases) {
    auto *coords = shared_array<std::array<float, 2>>(1);
    coords[0] = {c.x, 0.5f};
    auto *out = shared_array<Float4>(1);
    ze_sampler_handle_t s = sampler(c.address, c.filter, c.normalized);
    ZE_ASSERT_OK(run("sample", {1, 1, 1}, src, s, coords, out));
    EXPECT_FLOAT_EQ(c.red, out[0][0]) << "address " << c.address << " filter " << c.filter << " normalized "
                                      << c.normalized << " x " << c.x;
  }
  // The border of an RGBA image is all zeros, alpha too.
  auto *coords = shared_array<std::array<float, 2>>(1);
  coords[0] = {-3.0f, 0.5f};
  auto *out = shared_array<Float4>(1);
  ZE_ASSERT_OK(run("sample", {1, 1, 1}, src,
                   sampler(ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, ZE_SAMPLER_FILTER_MODE_NEAREST, false), coords,
                   out));
  EXPECT_EQ((Float4{0, 0, 0, 0}), out[0]);
}

// A read_write image: each work-item reads its pixel without a sampler, then writes it back changed.
TEST_F(ImageKernels, AReadWriteImageIsReadWithoutASamplerAndWrittenInPlace) {
  constexpr uint32_t w = 16;
  std::vector<Uint4> pixels(w);
  for (uint32_t x = 0; x < w; ++x) pixels[x] = {x, 2 * x, 3 * x, 4 * x};
  ze_image_handle_t rw =
      image(image_desc(ZE_IMAGE_TYPE_2D, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_UINT), w, 1));
  write_image(rw, pixels.data());
  auto *out = shared_array<Uint4>(w);
  ZE_ASSERT_OK(run("update_in_place", {w, 1, 1}, rw, out));
  std::vector<Uint4> after(w);
  read_image(after.data(), rw);
  for (uint32_t x = 0; x < w; ++x) {
    EXPECT_EQ(pixels[x], out[x]);
    EXPECT_EQ((Uint4{x + 1, 2 * x + 2, 3 * x + 3, 4 * x + 4}), after[x]);
  }
}

// get_image_* of a 3-D image, a 2-D array and a 1-D image; the format's OpenCL names.
TEST_F(ImageKernels, QueriesAnswerEachImagesShapeAndOpenClsNamesOfItsFormat) {
  ze_image_handle_t volume = image(
      image_desc(ZE_IMAGE_TYPE_3D, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, ZE_IMAGE_FORMAT_TYPE_FLOAT), 5, 6, 7));
  ze_image_format_t bgra = rgba_format(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM);
  bgra.x = ZE_IMAGE_FORMAT_SWIZZLE_B;
  bgra.z = ZE_IMAGE_FORMAT_SWIZZLE_R;
  ze_image_handle_t layers = image(image_desc(ZE_IMAGE_TYPE_2DARRAY, bgra, 9, 10, 1, 11));
  ze_image_handle_t line =
      image(image_desc(ZE_IMAGE_TYPE_1D, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_FLOAT), 12));
  auto *out = shared_array<int32_t>(12);
  ZE_ASSERT_OK(run("queries", {1, 1, 1}, volume, layers, line, out));
  constexpr int32_t half_float = 0x10DD, unorm_int8 = 0x10D2, rgba_order = 0x10B5, bgra_order = 0x10B6;
  const std::vector<int32_t> want{5, 6, 7, 7, 9, 10, 11, 12, half_float, rgba_order, unorm_int8, bgra_order};
  EXPECT_EQ(want, std::vector<int32_t>(out, out + 12));
}

// A kernel fills every layer of a 2-D array; the host copies it into a 3-D image of the same shape, which a kernel
// reads slice by slice.
TEST_F(ImageKernels, ArrayLayersAndThreeDSlicesAreWrittenAndReadAtTheirCoordinates) {
  constexpr uint32_t w = 8, h = 3, n = 4;
  const auto format = rgba_format(ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, ZE_IMAGE_FORMAT_TYPE_UINT);
  ze_image_handle_t layers = image(image_desc(ZE_IMAGE_TYPE_2DARRAY, format, w, h, 1, n));
  ZE_ASSERT_OK(run("fill_layers", {w, h, n}, layers));
  std::vector<std::array<uint16_t, 4>> pixels(w * h * n);
  read_image(pixels.data(), layers);
  for (uint32_t z = 0; z < n; ++z)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x)
        ASSERT_EQ((std::array<uint16_t, 4>{uint16_t(x), uint16_t(y), uint16_t(z), 7}), pixels[(z * h + y) * w + x]);
  ze_image_handle_t volume = image(image_desc(ZE_IMAGE_TYPE_3D, format, w, h, n));
  write_image(volume, pixels.data());
  auto *out = shared_array<Uint4>(w * h * n);
  ZE_ASSERT_OK(run("read_volume", {w, h, n}, volume, out));
  for (uint32_t i = 0; i < w * h * n; ++i) {
    const auto &p = pixels[i];
    ASSERT_EQ((Uint4{p[0], p[1], p[2], p[3]}), out[i]) << i;
  }
}

// read_imageh and write_imageh on an RGBA half image: 1.5 doubled is 3, exactly, in every channel.
TEST_F(ImageKernels, HalfImagesAreReadAndWrittenAsHalves) {
  constexpr uint32_t w = 8;
  const auto format = rgba_format(ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, ZE_IMAGE_FORMAT_TYPE_FLOAT);
  ze_image_handle_t src = image(image_desc(ZE_IMAGE_TYPE_1D, format, w)), dst = image(image_desc(ZE_IMAGE_TYPE_1D, format, w));
  constexpr uint16_t one_and_half = 0x3E00, three = 0x4200, minus_quarter = 0xB400, minus_half = 0xB800;
  std::vector<std::array<uint16_t, 4>> pixels(w, {one_and_half, minus_quarter, 0, one_and_half});
  write_image(src, pixels.data());
  ZE_ASSERT_OK(run("double_halves", {w, 1, 1}, src, dst));
  std::vector<std::array<uint16_t, 4>> doubled(w);
  read_image(doubled.data(), dst);
  for (const auto &p : doubled) EXPECT_EQ((std::array<uint16_t, 4>{three, minus_half, 0, three}), p);
}

// An image argument needs an image: a null handle, or a size other than a handle's, is refused with its code.
TEST_F(ImageKernels, ImageAndSamplerArgumentsWithoutAHandleOrOfTheWrongSizeAreRefused) {
  ze_kernel_handle_t k = kernel(module, "sample");
  ASSERT_NE(nullptr, k);
  ze_image_handle_t none = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeKernelSetArgumentValue(k, 0, sizeof none, &none));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeKernelSetArgumentValue(k, 0, sizeof none, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(k, 0, 4, &none));
  ze_sampler_handle_t no_sampler = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeKernelSetArgumentValue(k, 1, sizeof no_sampler, &no_sampler));
}

} // namespace
} // namespace zeal::cpu::test
