// Images on zeal's CPU driver (issue 50): a 2-D RGBA float image copied by a kernel (nearest, clamp-to-edge: the
// driver's inline fast path), paired in each round with the buffer copy of the same bytes by the same kind of
// kernel; and linear filtering, one sample per work-item, reported as nanoseconds per sample. Results are checked.
// Prints medians of 9 rounds and the median of the paired ratios.
#include "ze_session.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr uint32_t width = 2048, height = 1024, group = 16, rounds = 9;
constexpr size_t pixels = size_t(width) * height;
using Float4 = std::array<float, 4>;

using bench::fail;
using bench::median;
using bench::ze;

ze_image_handle_t make_image(bench::ZeSession &session) {
  ze_image_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_IMAGE_DESC;
  desc.flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
  desc.type = ZE_IMAGE_TYPE_2D;
  desc.format = {ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_FLOAT, ZE_IMAGE_FORMAT_SWIZZLE_R,
                 ZE_IMAGE_FORMAT_SWIZZLE_G, ZE_IMAGE_FORMAT_SWIZZLE_B, ZE_IMAGE_FORMAT_SWIZZLE_A};
  desc.width = width;
  desc.height = height;
  desc.depth = 1;
  ze_image_handle_t image = nullptr;
  ze(zeImageCreate(session.context(), session.device(), &desc, &image), "zeImageCreate");
  return image;
}

// Copies between an image and memory on a fresh immediate list, waited for.
void copy(bench::ZeSession &session, ze_image_handle_t image, void *memory, bool to_image) {
  ze_command_list_handle_t list = nullptr;
  ze(zeal::test::create_immediate_list(session.context(), session.device(), list), "zeCommandListCreateImmediate");
  ze(to_image ? zeCommandListAppendImageCopyFromMemory(list, image, memory, nullptr, nullptr, 0, nullptr)
              : zeCommandListAppendImageCopyToMemory(list, memory, image, nullptr, nullptr, 0, nullptr),
     "zeCommandListAppendImageCopy");
  ze(zeCommandListAppendBarrier(list, nullptr, 0, nullptr), "zeCommandListAppendBarrier");
  ze(zeCommandListDestroy(list), "zeCommandListDestroy"); // an immediate list's commands are done by now
}

} // namespace

int main() try {
  bench::ZeSession session(ZEAL_BENCH_SPIRV);
  std::printf("%s\n", bench::machine_description().c_str());
  auto *source = session.alloc<Float4>(pixels);
  auto *target = session.alloc<Float4>(pixels);
  for (size_t i = 0; i < pixels; ++i) source[i] = {float(i % 977), float(i % 13), 0.5f, float(i)};
  ze_image_handle_t src = make_image(session), dst = make_image(session);
  copy(session, src, source, true);

  ze_kernel_handle_t image_copy = session.kernel("copy_image", group, {{8, &src}, {8, &dst}});
  ze_kernel_handle_t buffer_copy = session.kernel("copy_buffer", group, {{8, &source}, {8, &target}});
  ze_kernel_handle_t sample = session.kernel("sample_linear", group, {{8, &src}, {8, &target}});
  const ze_group_count_t grid{width / group, height, 1};
  const double bytes = 2.0 * pixels * sizeof(Float4); // read once, written once
  std::vector<double> image_s, buffer_s, ratios, sample_s;
  for (uint32_t r = 0; r < rounds; ++r) {
    const double i = session.launch_groups(image_copy, grid);
    const double b = session.launch_groups(buffer_copy, grid);
    image_s.push_back(i);
    buffer_s.push_back(b);
    ratios.push_back((bytes / i) / (bytes / b));
  }
  std::vector<Float4> copied(pixels);
  copy(session, dst, copied.data(), false);
  if (std::memcmp(copied.data(), source, pixels * sizeof(Float4)) != 0) fail("the image copy differs from its source");
  if (std::memcmp(target, source, pixels * sizeof(Float4)) != 0) fail("the buffer copy differs from its source");

  for (uint32_t r = 0; r < rounds; ++r) sample_s.push_back(session.launch_groups(sample, grid));
  // The sample a quarter pixel past (x, y)'s centre: weights 1/4 and 3/4 in each direction (clamped at the edges).
  for (size_t y : {size_t(0), size_t(height / 2)}) {
    for (size_t x : {size_t(0), size_t(width / 3)}) {
      auto at = [&](size_t px, size_t py) { return source[std::min(py, size_t(height - 1)) * width + std::min(px, size_t(width - 1))]; };
      for (int c = 0; c < 4; ++c) {
        const double want = 0.5625 * at(x, y)[c] + 0.1875 * at(x + 1, y)[c] + 0.1875 * at(x, y + 1)[c] +
                            0.0625 * at(x + 1, y + 1)[c];
        const double got = target[y * width + x][c];
        if (std::fabs(got - want) > 1e-3 * std::max(1.0, std::fabs(want)))
          fail(fmt::format("linear sample at ({}, {}) channel {}: {} where {} was expected", x, y, c, got, want));
      }
    }
  }
  std::printf("2-D image copy, %ux%u RGBA float (%.0f MiB each way), work-groups of %u, results identical\n", width,
              height, pixels * sizeof(Float4) / 1048576.0, group);
  std::printf("  image copy (read_imagef nearest/clamp-to-edge, write_imagef): %7.2f ms  %6.2f GB/s\n",
              median(image_s) * 1e3, bytes / median(image_s) * 1e-9);
  std::printf("  buffer copy of the same bytes (float4 loads and stores):      %7.2f ms  %6.2f GB/s\n",
              median(buffer_s) * 1e3, bytes / median(buffer_s) * 1e-9);
  std::printf("  paired ratio image / buffer bandwidth (median of %u): %.2f\n", rounds, median(ratios));
  std::printf("linear filtering (2-D, clamp-to-edge, float coordinates): %.2f ns per sample (%u samples, median of %u)\n",
              median(sample_s) * 1e9 / double(pixels), unsigned(pixels), rounds);
  zeImageDestroy(src);
  zeImageDestroy(dst);
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "bench_cpu_compute_images: %s\n", e.what());
  return 1;
}
