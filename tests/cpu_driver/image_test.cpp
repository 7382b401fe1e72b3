// Images on the CPU driver (issue 50, first part): formats and shapes accepted or refused with their codes, and the
// image copies (to and from memory, with and without pitches, between images, by region), every byte checked.
#include "test_support.hpp"

#include <numeric>
#include <vector>

namespace zeal::cpu::test {
namespace {

// An image of `layout` channels of `format_type`, read in order.
ze_image_desc_t image_desc(ze_image_type_t type, ze_image_format_layout_t layout, ze_image_format_type_t format_type,
                           uint64_t width, uint32_t height = 1, uint32_t depth = 1, uint32_t layers = 0) {
  return zeal::cpu::test::image_desc(type, rgba_format(layout, format_type), width, height, depth, layers);
}

class Images : public CpuDriver {
protected:
  // Runs `append(list)` on an immediate list and waits for it.
  template <class Append>
  void run(Append append) {
    ze_command_list_handle_t list = immediate_list();
    ze_event_handle_t done = event();
    ZE_ASSERT_OK(append(list, done));
    ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  }
};

TEST_F(Images, OpenClsFormatsAreAcceptedAndMediaLayoutsAndMismatchedTypesAreRefusedWithTheirCodes) {
  ze_image_properties_t props{ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES, nullptr, 0};
  auto rgba8 = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM, 16, 8);
  ZE_ASSERT_OK(zeImageGetProperties(device, &rgba8, &props));
  EXPECT_EQ(ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT | ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR, props.samplerFilterFlags);
  auto r32ui = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_UINT, 16, 8);
  ZE_ASSERT_OK(zeImageGetProperties(device, &r32ui, &props));
  EXPECT_EQ(ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT, props.samplerFilterFlags) << "integer images sample the nearest pixel";
  for (auto [layout, type] : {std::pair{ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, ZE_IMAGE_FORMAT_TYPE_FLOAT},
                              {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_SNORM},
                              {ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_FLOAT},
                              {ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_UNORM}}) {
    auto desc = image_desc(ZE_IMAGE_TYPE_2D, layout, type, 4, 4);
    EXPECT_NE(nullptr, image(desc)) << layout << " " << type;
  }
  ze_image_handle_t none = nullptr;
  auto nv12 = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_NV12, ZE_IMAGE_FORMAT_TYPE_UNORM, 16, 16);
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, zeImageCreate(context, device, &nv12, &none));
  auto float8 = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_FLOAT, 16, 16);
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, zeImageCreate(context, device, &float8, &none));
  auto unknown = image_desc(ze_image_type_t(42), ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT, 16);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeImageCreate(context, device, &unknown, &none));
  auto empty = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT, 16, 0);
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeImageCreate(context, device, &empty, &none));
  auto huge = image_desc(ZE_IMAGE_TYPE_3D, ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT, 4096, 4, 4);
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeImageCreate(context, device, &huge, &none));
  auto odd_buffer = image_desc(ZE_IMAGE_TYPE_BUFFER, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_UINT, 10);
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeImageCreate(context, device, &odd_buffer, &none))
      << "a buffer image's width is bytes, a whole number of pixels";
  EXPECT_EQ(nullptr, none);
}

// Memory → a 2-D image's region → a second image (by region) → memory with pitches: every byte where it belongs,
// and the rest of each image still zeros.
TEST_F(Images, RegionsTravelFromMemoryThroughTwoImagesBackToPitchedMemory) {
  constexpr uint32_t w = 8, h = 6, px = 4; // RGBA8
  auto desc = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UINT, w, h);
  ze_image_handle_t a = image(desc), b = image(desc);
  ASSERT_NE(nullptr, a);
  ASSERT_NE(nullptr, b);
  const ze_image_region_t into_a{2, 1, 0, 4, 3, 1};
  std::vector<uint8_t> pixels(4 * 3 * px);
  std::iota(pixels.begin(), pixels.end(), uint8_t{1});
  run([&](ze_command_list_handle_t l, ze_event_handle_t done) {
    return zeCommandListAppendImageCopyFromMemory(l, a, pixels.data(), &into_a, done, 0, nullptr);
  });
  const ze_image_region_t from_a{1, 0, 0, 6, 5, 1}, into_b{0, 1, 0, 6, 5, 1};
  run([&](ze_command_list_handle_t l, ze_event_handle_t done) {
    return zeCommandListAppendImageCopyRegion(l, b, a, &into_b, &from_a, done, 0, nullptr);
  });
  // All of b, into memory with a row pitch of 40 bytes (8 pixels and 8 bytes of padding, left as they were).
  constexpr uint32_t pitch = w * px + 8;
  std::vector<uint8_t> out(size_t{pitch} * h, 0xee);
  run([&](ze_command_list_handle_t l, ze_event_handle_t done) {
    return zeCommandListAppendImageCopyToMemoryExt(l, out.data(), b, nullptr, pitch, 0, done, 0, nullptr);
  });
  // Pixel (x, y) of b came from pixel (x + 1, y - 1) of a, which came from (x - 1, y - 2) of `pixels` when inside.
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      for (uint32_t c = 0; c < px; ++c) {
        int ax = int(x) + 1, ay = int(y) - 1; // in a
        int sx = ax - 2, sy = ay - 1;         // in `pixels`
        bool copied = x < 6 && y >= 1 && y < 6;
        bool written = copied && sx >= 0 && sx < 4 && sy >= 0 && sy < 3;
        uint8_t want = written ? pixels[(size_t(sy) * 4 + size_t(sx)) * px + c] : 0;
        ASSERT_EQ(int(want), int(out[size_t(y) * pitch + x * px + c])) << x << "," << y << " channel " << c;
      }
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t p = w * px; p < pitch; ++p) ASSERT_EQ(0xee, out[size_t(y) * pitch + p]) << "padding of row " << y;
}

// A 2-D array's layers are its slices and a 1-D array's its rows: whole-image copies keep every layer.
TEST_F(Images, ArrayLayersAndThreeDSlicesCopyWholeAndByRegion) {
  auto layered = image_desc(ZE_IMAGE_TYPE_2DARRAY, ZE_IMAGE_FORMAT_LAYOUT_16, ZE_IMAGE_FORMAT_TYPE_UINT, 5, 3, 1, 4);
  ze_image_handle_t src = image(layered), dst = image(layered);
  std::vector<uint16_t> data(5 * 3 * 4);
  std::iota(data.begin(), data.end(), uint16_t{100});
  run([&](ze_command_list_handle_t l, ze_event_handle_t done) {
    return zeCommandListAppendImageCopyFromMemory(l, src, data.data(), nullptr, done, 0, nullptr);
  });
  run([&](ze_command_list_handle_t l, ze_event_handle_t done) {
    return zeCommandListAppendImageCopy(l, dst, src, done, 0, nullptr);
  });
  const ze_image_region_t layer2{0, 0, 2, 5, 3, 1};
  std::vector<uint16_t> out(5 * 3);
  run([&](ze_command_list_handle_t l, ze_event_handle_t done) {
    return zeCommandListAppendImageCopyToMemory(l, out.data(), dst, &layer2, done, 0, nullptr);
  });
  EXPECT_EQ(std::vector<uint16_t>(data.begin() + 30, data.begin() + 45), out);
  auto rows = image_desc(ZE_IMAGE_TYPE_1DARRAY, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_FLOAT, 7, 1, 1, 3);
  ze_image_handle_t line = image(rows);
  std::vector<float> values(7 * 3);
  std::iota(values.begin(), values.end(), 0.5f);
  run([&](ze_command_list_handle_t l, ze_event_handle_t done) {
    return zeCommandListAppendImageCopyFromMemory(l, line, values.data(), nullptr, done, 0, nullptr);
  });
  const ze_image_region_t middle_layer{2, 1, 0, 3, 1, 1};
  std::vector<float> three(3);
  run([&](ze_command_list_handle_t l, ze_event_handle_t done) {
    return zeCommandListAppendImageCopyToMemory(l, three.data(), line, &middle_layer, done, 0, nullptr);
  });
  EXPECT_EQ((std::vector<float>{9.5f, 10.5f, 11.5f}), three);
}

TEST_F(Images, RegionsPastTheImageAndCopiesBetweenPixelSizesAreRefused) {
  auto rgba = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM, 8, 8);
  auto r8 = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UNORM, 8, 8);
  ze_image_handle_t a = image(rgba), b = image(r8);
  ze_command_list_handle_t list = immediate_list();
  std::vector<uint8_t> memory(8 * 8 * 4);
  const ze_image_region_t past{6, 0, 0, 4, 1, 1}, empty{0, 0, 0, 0, 1, 1};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zeCommandListAppendImageCopyToMemory(list, memory.data(), a, &past, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zeCommandListAppendImageCopyFromMemory(list, a, memory.data(), &empty, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandListAppendImageCopy(list, a, b, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeCommandListAppendImageCopy(list, a, nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
            zeCommandListAppendImageCopyToMemory(list, nullptr, a, nullptr, nullptr, 0, nullptr));
}

// Samplers of every mode Level Zero defines are made (REPEAT and MIRROR unnormalized too, as Level Zero allows);
// a mode it does not define is refused.
TEST_F(Images, SamplersOfEveryModeAreMadeAndUndefinedModesRefused) {
  for (ze_sampler_address_mode_t address : {ZE_SAMPLER_ADDRESS_MODE_NONE, ZE_SAMPLER_ADDRESS_MODE_REPEAT,
                                            ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                            ZE_SAMPLER_ADDRESS_MODE_MIRROR})
    for (ze_sampler_filter_mode_t filter : {ZE_SAMPLER_FILTER_MODE_NEAREST, ZE_SAMPLER_FILTER_MODE_LINEAR})
      for (ze_bool_t normalized : {0, 1}) {
        ze_sampler_desc_t desc{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, address, filter, normalized};
        ze_sampler_handle_t sampler = nullptr;
        ASSERT_EQ(ZE_RESULT_SUCCESS, zeSamplerCreate(context, device, &desc, &sampler))
            << address << " " << filter << " " << int(normalized);
        EXPECT_EQ(ZE_RESULT_SUCCESS, zeSamplerDestroy(sampler));
      }
  ze_sampler_desc_t bad{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, ze_sampler_address_mode_t(9),
                        ZE_SAMPLER_FILTER_MODE_NEAREST, 1};
  ze_sampler_handle_t none = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeSamplerCreate(context, device, &bad, &none));
  bad = {ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, ZE_SAMPLER_ADDRESS_MODE_CLAMP, ze_sampler_filter_mode_t(2), 1};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeSamplerCreate(context, device, &bad, &none));
  EXPECT_EQ(nullptr, none);
}

// A view (zeImageViewCreateExp) sees its image's pixels in another format of the same pixel size: bytes written
// through the image read back through the view, which outlives the image it was made from; the allocation id and
// memory properties are the image's. A view of another pixel size, or larger than its image, is refused.
TEST_F(Images, AViewSharesItsImagesPixelsInAnotherFormatAndOutlivesIt) {
  constexpr uint32_t w = 8, h = 4;
  auto rgba8 = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UINT, w, h);
  ze_image_handle_t base = nullptr;
  ZE_ASSERT_OK(zeImageCreate(context, device, &rgba8, &base));
  std::vector<uint8_t> pixels(w * h * 4);
  std::iota(pixels.begin(), pixels.end(), uint8_t{3});
  run([&](ze_command_list_handle_t l, ze_event_handle_t done) {
    return zeCommandListAppendImageCopyFromMemory(l, base, pixels.data(), nullptr, done, 0, nullptr);
  });
  auto r32 = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_UINT, w, h);
  ze_image_handle_t view = nullptr;
  ZE_ASSERT_OK(zeImageViewCreateExp(context, device, &r32, base, &view));
  images.push_back(view);
  ze_image_allocation_ext_properties_t base_id{ZE_STRUCTURE_TYPE_IMAGE_ALLOCATION_EXT_PROPERTIES, nullptr, 0};
  ze_image_allocation_ext_properties_t view_id = base_id;
  ZE_ASSERT_OK(zeImageGetAllocPropertiesExt(context, base, &base_id));
  ZE_ASSERT_OK(zeImageGetAllocPropertiesExt(context, view, &view_id));
  EXPECT_NE(0u, base_id.id);
  EXPECT_EQ(base_id.id, view_id.id);
  ze_image_memory_properties_exp_t memory{ZE_STRUCTURE_TYPE_IMAGE_MEMORY_EXP_PROPERTIES, nullptr, 0, 0, 0};
  ZE_ASSERT_OK(zeImageGetMemoryPropertiesExp(view, &memory));
  EXPECT_EQ(uint64_t{w} * h * 4, memory.size);
  EXPECT_EQ(uint64_t{w} * 4, memory.rowPitch);
  EXPECT_EQ(uint64_t{w} * h * 4, memory.slicePitch);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeImageDestroy(base));
  std::vector<uint8_t> through_view(pixels.size());
  run([&](ze_command_list_handle_t l, ze_event_handle_t done) {
    return zeCommandListAppendImageCopyToMemory(l, through_view.data(), view, nullptr, done, 0, nullptr);
  });
  EXPECT_EQ(pixels, through_view);

  ze_image_handle_t other = image(rgba8), none = nullptr;
  auto rgba16 = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, ZE_IMAGE_FORMAT_TYPE_UINT, w, h);
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, zeImageViewCreateExp(context, device, &rgba16, other, &none));
  auto wider = image_desc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_UINT, w + 1, h);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeImageViewCreateExp(context, device, &wider, other, &none));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeImageViewCreateExp(context, device, &r32, nullptr, &none));
  EXPECT_EQ(nullptr, none);
}

} // namespace
} // namespace zeal::cpu::test
