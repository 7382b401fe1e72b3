// Real kernels of the SPIR-V corpus (../shared/spirv-corpus) launched through the CPU driver, every output
// element checked against a host reference written from the kernel's SPIR-V (its semantics, not its source's).
#include "tests/cpu_driver/test_support.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace zeal::cpu::test {
namespace {

// One kernel argument as zeKernelSetArgumentValue takes it; a null value with a size is local memory.
struct Arg {
  size_t size;
  const void *value;
};
template <class T>
Arg value(const T &v) { return {sizeof(T), &v}; }
Arg local(size_t bytes) { return {bytes, nullptr}; }

struct Dim {
  uint32_t x, y = 1, z = 1;
};

// Values the kernels must leave alone, so that a store past the range a kernel owns shows.
constexpr uint32_t kSentinel = 0xDEADBEEF;

class CorpusRun : public CpuDriver {
protected:
  // The corpus module `file`, built, and its kernel `name`, which must take `arguments` arguments: the
  // count from zeKernelGetProperties guards the argument layout each test assumes from the disassembly.
  ze_kernel_handle_t load(const char *file, const char *name, uint32_t arguments) {
    ze_module_handle_t module = nullptr;
    std::string log;
    std::vector<uint8_t> spirv = read_kernel(file);
    EXPECT_FALSE(spirv.empty()) << file << " is not in " << ZEAL_TEST_KERNEL_DIR;
    EXPECT_EQ(ZE_RESULT_SUCCESS, build(spirv, module, &log)) << file << ": " << log;
    if (module == nullptr) return nullptr;
    ze_kernel_handle_t k = kernel(module, name);
    if (k == nullptr) return nullptr;
    ze_kernel_properties_t properties{};
    properties.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelGetProperties(k, &properties));
    EXPECT_EQ(arguments, properties.numKernelArgs) << file << " " << name;
    return properties.numKernelArgs == arguments ? k : nullptr;
  }

  // Sets the arguments and group size, launches `groups` groups and waits for the kernel's event.
  void launch(ze_kernel_handle_t k, Dim groups, Dim group_size, std::initializer_list<Arg> args) {
    ASSERT_NE(nullptr, k);
    ZE_ASSERT_OK(zeKernelSetGroupSize(k, group_size.x, group_size.y, group_size.z));
    uint32_t index = 0;
    for (const Arg &arg : args) {
      ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, index, arg.size, arg.value)) << "argument " << index;
      ++index;
    }
    ze_group_count_t count{groups.x, groups.y, groups.z};
    ze_event_handle_t done = event();
    ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(immediate_list(), k, &count, done, 0, nullptr));
    ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  }

  template <class T>
  T *filled(size_t n, T v) {
    T *p = shared_array<T>(n);
    if (p != nullptr) std::fill(p, p + n, v);
    return p;
  }
};

// ---- level-zero-tests' image kernels (issue 50) ----

// copy_<type>_img_<kind>(in, out): each work-item reads its pixel (global ids as coordinates, layers last) through
// a literal sampler (unnormalized, clamp, nearest) with read_image{f,ui,i} and writes it to `out`: every pixel of
// every layer and slice arrives unchanged, for each image kind and value type the module has.
TEST_F(CorpusRun, LevelZeroTests_ImageLayout_CopiesEveryPixelOfEachImageKind) {
  struct Case {
    const char *kernel;
    ze_image_type_t type;
    ze_image_format_t format;
    Dim size;   // the image's pixels (1-D arrays: width × layers; 2-D arrays and 3-D: width × height × depth)
    uint32_t layers;
  };
  const Case cases[] = {
      {"copy_float_img_1d", ZE_IMAGE_TYPE_1D, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_FLOAT), {24}, 0},
      {"copy_uint_img_1d_arr", ZE_IMAGE_TYPE_1DARRAY, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UINT), {16, 3}, 3},
      {"copy_sint_img_2d", ZE_IMAGE_TYPE_2D, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, ZE_IMAGE_FORMAT_TYPE_SINT), {8, 5}, 0},
      {"copy_float_img_2d_arr", ZE_IMAGE_TYPE_2DARRAY, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, ZE_IMAGE_FORMAT_TYPE_FLOAT), {8, 3, 4}, 4},
      {"copy_sint_img_3d", ZE_IMAGE_TYPE_3D, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_SINT), {4, 3, 5}, 0},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.kernel);
    ze_kernel_handle_t k = load("lzt_image_layout_tests.spv", c.kernel, 2);
    const bool one_d_array = c.type == ZE_IMAGE_TYPE_1DARRAY;
    ze_image_handle_t in = image(image_desc(c.type, c.format, c.size.x, one_d_array ? 1 : c.size.y,
                                            c.type == ZE_IMAGE_TYPE_3D ? c.size.z : 1, c.layers));
    ze_image_handle_t out = image(image_desc(c.type, c.format, c.size.x, one_d_array ? 1 : c.size.y,
                                             c.type == ZE_IMAGE_TYPE_3D ? c.size.z : 1, c.layers));
    const size_t pixel = c.format.layout == ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32   ? 16
                         : c.format.layout == ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16 ? 8
                                                                                 : 4;
    const size_t bytes = pixel * c.size.x * c.size.y * c.size.z;
    std::vector<uint8_t> pixels(bytes);
    for (size_t i = 0; i < bytes; ++i) pixels[i] = uint8_t(i * 37 + 11);
    if (c.format.type == ZE_IMAGE_FORMAT_TYPE_FLOAT) { // finite values only: a NaN's bits need not survive
      for (size_t i = 0; i < bytes; i += pixel == 16 ? 4 : 2) pixels[i + (pixel == 16 ? 3 : 1)] &= 0x3f;
    }
    write_image(in, pixels.data());
    launch(k, {c.size.x, c.size.y, c.size.z}, {1}, {value(in), value(out)});
    std::vector<uint8_t> copied(bytes);
    read_image(copied.data(), out);
    EXPECT_EQ(pixels, copied);
  }
}

// swizzle_test_img_2d(in, out): read_imageui through a clamp sampler, written back: from an RGBA image into one
// whose swizzle is (A, B, G, R), each pixel's four bytes arrive reversed (the suite's expectation, 0x12345678 ->
// 0x78563412).
TEST_F(CorpusRun, LevelZeroTests_ImageSwizzle_ReversesEachPixelsBytesIntoAnAbgrImage) {
  ze_kernel_handle_t k = load("lzt_image_swizzle_tests.spv", "swizzle_test_img_2d", 2);
  constexpr uint32_t w = 16, h = 4;
  ze_image_format_t abgr = rgba_format(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UINT);
  abgr.x = ZE_IMAGE_FORMAT_SWIZZLE_A;
  abgr.y = ZE_IMAGE_FORMAT_SWIZZLE_B;
  abgr.z = ZE_IMAGE_FORMAT_SWIZZLE_G;
  abgr.w = ZE_IMAGE_FORMAT_SWIZZLE_R;
  ze_image_handle_t in = image(image_desc(ZE_IMAGE_TYPE_2D, rgba_format(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UINT), w, h));
  ze_image_handle_t out = image(image_desc(ZE_IMAGE_TYPE_2D, abgr, w, h));
  std::vector<uint32_t> pixels(w * h);
  for (uint32_t i = 0; i < w * h; ++i) pixels[i] = 0x12345678u + i * 0x01010101u;
  write_image(in, pixels.data());
  launch(k, {w, h}, {1}, {value(in), value(out)});
  std::vector<uint32_t> copied(w * h);
  read_image(copied.data(), out);
  for (uint32_t i = 0; i < w * h; ++i) ASSERT_EQ(__builtin_bswap32(pixels[i]), copied[i]) << i;
}

// many_2d_images(i0..i4): work-item 0 alone reads pixel (n, n) of image n-1 without a sampler and writes it at
// (n + 10, n + 10) of the same read_write image; nothing else changes.
TEST_F(CorpusRun, LevelZeroTests_MultiImage_EachOfFiveReadWriteImagesCopiesOnePixel) {
  ze_kernel_handle_t k = load("lzt_multi_image_argument_kernel_test.spv", "many_2d_images", 5);
  constexpr uint32_t side = 16;
  const auto format = rgba_format(ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_UINT);
  std::vector<ze_image_handle_t> five;
  std::vector<std::vector<std::array<uint32_t, 4>>> before(5);
  for (uint32_t n = 0; n < 5; ++n) {
    five.push_back(image(image_desc(ZE_IMAGE_TYPE_2D, format, side, side)));
    before[n].resize(side * side);
    for (uint32_t i = 0; i < side * side; ++i) before[n][i] = {n, i, 7 * i, 0xC0FFEE};
    write_image(five.back(), before[n].data());
  }
  launch(k, {2}, {1}, {value(five[0]), value(five[1]), value(five[2]), value(five[3]), value(five[4])});
  for (uint32_t n = 0; n < 5; ++n) {
    std::vector<std::array<uint32_t, 4>> after(side * side);
    read_image(after.data(), five[n]);
    std::vector<std::array<uint32_t, 4>> want = before[n];
    const uint32_t from = n + 1, to = n + 11;
    want[to * side + to] = before[n][from * side + from];
    EXPECT_EQ(want, after) << "image " << n;
  }
}

// ---- level-zero-tests (oneapi-src/level-zero-tests) ----

// values[i] += addval, one work-item per element.
TEST_F(CorpusRun, LevelZeroTests_CmdlistAdd_AddsTheConstantToEveryElement) {
  ze_kernel_handle_t k = load("lzt_cmdlist_add.spv", "cmdlist_add_constant", 2);
  constexpr uint32_t n = 256, addval = 0x10001;
  uint32_t *values = shared_array<uint32_t>(n);
  for (uint32_t i = 0; i < n; ++i) values[i] = i * 2654435761u;
  launch(k, {n / 64}, {64}, {value(values), value(addval)});
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(i * 2654435761u + addval, values[i]) << i;
}

// NaiveAdd(n, a, b): one work-item loops b[i] = a[i] + 1 for i < n.
TEST_F(CorpusRun, LevelZeroTests_CabeSimpleAdd_OneWorkItemAddsOneToTheFirstNElements) {
  ze_kernel_handle_t k = load("lzt_ze_cabe_simpleadd.spv", "NaiveAdd", 3);
  constexpr uint32_t n = 100, size = 128;
  uint32_t *a = shared_array<uint32_t>(size), *b = filled<uint32_t>(size, kSentinel);
  for (uint32_t i = 0; i < size; ++i) a[i] = 7 * i + 3;
  launch(k, {1}, {1}, {value(n), value(a), value(b)});
  for (uint32_t i = 0; i < size; ++i) ASSERT_EQ(i < n ? 7 * i + 4 : kSentinel, b[i]) << i;
}

// copy_data(in, out, offset, size): work-item 0 alone copies in[i] to out[i + offset] for i < size - offset.
TEST_F(CorpusRun, LevelZeroTests_CopyModule_CopyDataShiftsByTheOffset) {
  ze_kernel_handle_t k = load("lzt_copy_module.spv", "copy_data", 4);
  constexpr uint32_t size = 64, offset = 5;
  uint32_t *in = shared_array<uint32_t>(size), *out = filled<uint32_t>(size, kSentinel);
  for (uint32_t i = 0; i < size; ++i) in[i] = 1000 + i;
  launch(k, {2}, {8}, {value(in), value(out), value(offset), value(size)});
  for (uint32_t j = 0; j < size; ++j) ASSERT_EQ(j >= offset ? in[j - offset] : kSentinel, out[j]) << j;
}

// copy_data_indirect(in, out, offset, size): in and out are arrays of struct { uint *data; }; work-item g
// copies in[g].data[i] to out[g].data[i + offset] for i < size - offset, through generic pointers.
TEST_F(CorpusRun, LevelZeroTests_CopyModule_CopyDataIndirectFollowsEachWorkItemsPointer) {
  ze_kernel_handle_t k = load("lzt_copy_module.spv", "copy_data_indirect", 4);
  constexpr uint32_t items = 4, size = 32, offset = 3;
  struct CopyData {
    uint32_t *data;
  };
  CopyData *in = shared_array<CopyData>(items), *out = shared_array<CopyData>(items);
  for (uint32_t g = 0; g < items; ++g) {
    in[g].data = shared_array<uint32_t>(size);
    out[g].data = filled<uint32_t>(size, kSentinel);
    for (uint32_t i = 0; i < size; ++i) in[g].data[i] = g << 16 | i;
  }
  launch(k, {1}, {items}, {value(in), value(out), value(offset), value(size)});
  for (uint32_t g = 0; g < items; ++g) {
    for (uint32_t j = 0; j < size; ++j) {
      ASSERT_EQ(j >= offset ? (g << 16 | (j - offset)) : kSentinel, out[g].data[j]) << g << " " << j;
    }
  }
}

// atomic_copy_kernel(destination, source): an atomic load and an atomic store through generic pointers.
TEST_F(CorpusRun, LevelZeroTests_UsmAtomic_AtomicCopyCopiesEveryElement) {
  ze_kernel_handle_t k = load("lzt_test_usm_atomic.spv", "atomic_copy_kernel", 2);
  constexpr uint32_t n = 512;
  uint32_t *destination = filled<uint32_t>(n, 0), *source = shared_array<uint32_t>(n);
  for (uint32_t i = 0; i < n; ++i) source[i] = ~i * 40503u;
  launch(k, {n / 32}, {32}, {value(destination), value(source)});
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(~i * 40503u, destination[i]) << i;
}

// many_buffers(buf1..buf5): work-item 0 stores 1..5 to the first element of each; the others return.
TEST_F(CorpusRun, LevelZeroTests_MultiArgument_ManyBuffersWritesOneValueToEach) {
  ze_kernel_handle_t k = load("lzt_multi_argument_kernel_test.spv", "many_buffers", 5);
  uint32_t *b[5];
  for (uint32_t *&p : b) p = filled<uint32_t>(4, kSentinel);
  launch(k, {2}, {4}, {value(b[0]), value(b[1]), value(b[2]), value(b[3]), value(b[4])});
  for (uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(i + 1, b[i][0]) << "buf" << i + 1;
    for (uint32_t j = 1; j < 4; ++j) EXPECT_EQ(kSentinel, b[i][j]) << "buf" << i + 1 << "[" << j << "]";
  }
}

// many_locals(local1..local4, global1): work-item 0 passes 0x55 through four local buffers into global1[0..255].
TEST_F(CorpusRun, LevelZeroTests_MultiArgument_ManyLocalsPassesTheByteThroughLocalMemory) {
  ze_kernel_handle_t k = load("lzt_multi_argument_kernel_test.spv", "many_locals", 5);
  constexpr uint32_t n = 256;
  uint8_t *global1 = filled<uint8_t>(n + 16, 0);
  launch(k, {1}, {4}, {local(n), local(n), local(n), local(n), value(global1)});
  for (uint32_t i = 0; i < n + 16; ++i) ASSERT_EQ(i < n ? 0x55 : 0, global1[i]) << i;
}

// mandelbrot(pixels, width, height): 50 iterations of z = z^2 + c in float; the pixel is
// round(50 * sqrt(i / 50)) / 50 for an escape after i iterations, 0 for none.
TEST_F(CorpusRun, LevelZeroTests_CabeMandelbrot_ColoursEachPixelByItsEscapeIteration) {
  ze_kernel_handle_t k = load("lzt_ze_cabe_mandelbrot.spv", "mandelbrot", 3);
  constexpr uint32_t width = 64, height = 48, max_iterations = 50;
  float *pixels = filled<float>(width * height, -1.0f);
  launch(k, {width / 8, height / 8}, {8, 8}, {value(pixels), value(width), value(height)});
  // The kernel's operations in its order; the build forbids contraction (ISO C++ mode, baseline x86-64).
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      float cx = float(x) / float(int(width)) * 2.5f + -1.75f, cy = float(y) / float(int(height)) * 2.5f + -1.25f;
      float zx = 0, zy = 0;
      uint32_t i = 0;
      for (; i < max_iterations; ++i) {
        if (zx * zx + zy * zy > 4.0f) break;
        float next_x = zx * zx + -(zy * zy) + cx;
        zy = 2.0f * zx * zy + cy;
        zx = next_x;
      }
      // sqrt may be 3 ulp off in OpenCL, but round() of 50 * sqrt(i / 50) is nowhere near a half for i < 50.
      float expected = i == max_iterations
                           ? 0.0f
                           : std::round(float(max_iterations) * std::sqrt(float(i) / float(max_iterations))) /
                                 float(max_iterations);
      ASSERT_EQ(expected, pixels[y * width + x]) << x << "," << y << " after " << i << " iterations";
    }
  }
}

// The kernel's cumulative normal: the Abramowitz-Stegun polynomial, in double for the reference.
double cnd(double d) {
  double k = 1.0 / (1.0 + 0.231641904 * std::fabs(d));
  double poly = k * (0.319381535 + k * (-0.356563777 + k * (1.78147793 + k * (-1.82125592 + k * 1.33027446))));
  double value = 0.398942292 * std::exp(-0.5 * d * d) * poly;
  return d > 0 ? 1.0 - value : value;
}

// blackscholes(r, v, T, X, S, Call, Put): Call = S N(d1) - X e^-rT N(d2); Put as the kernel computes it,
// Call + e^-rT - S (the SPIR-V adds e^-rT, not X e^-rT).
TEST_F(CorpusRun, LevelZeroTests_CabeBlackScholes_PricesEachOption) {
  ze_kernel_handle_t k = load("lzt_ze_cabe_blackscholes_fp32.spv", "blackscholes", 7);
  constexpr uint32_t n = 256;
  const float riskfree = 0.02f, volatility = 0.30f;
  float *t = shared_array<float>(n), *x = shared_array<float>(n), *s = shared_array<float>(n);
  float *call = filled<float>(n, -1.0f), *put = filled<float>(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) {
    t[i] = 0.25f + float(i % 8) * 0.25f;
    x[i] = 10.0f + float(i % 17) * 5.0f;
    s[i] = 10.0f + float(i % 23) * 4.0f;
  }
  launch(k, {n / 32}, {32}, {value(riskfree), value(volatility), value(t), value(x), value(s), value(call), value(put)});
  for (uint32_t i = 0; i < n; ++i) {
    double r = riskfree, v = volatility, sqrt_t = std::sqrt(double(t[i]));
    double d1 = (std::log(double(s[i]) / x[i]) + (0.5 * v * v + r) * t[i]) / (v * sqrt_t), d2 = d1 - v * sqrt_t;
    double discount = std::exp(-r * t[i]);
    double expected_call = s[i] * cnd(d1) - x[i] * discount * cnd(d2);
    double expected_put = expected_call + discount - s[i];
    // Float terms up to S and X ~ 100 with exp, log and sqrt a few ulp each, d1 and d2 then feeding N() with
    // slope <= 0.4: some tens of float ulps of S + X. 1e-5 (S + X) is ~80 ulps (the worst seen is 1.3e-5
    // absolute, under a tenth of the smallest tolerance), and far below any wrong price.
    double tolerance = 1e-5 * (double(s[i]) + x[i]);
    ASSERT_NEAR(expected_call, call[i], tolerance) << i;
    ASSERT_NEAR(expected_put, put[i], tolerance) << i;
  }
}

// ---- Rodinia through beehive-spirv-toolkit (Physical32 modules: the driver lays them out for the host) ----

// vecAdd(a, b, c, n): c[i] = a[i] + b[i] in double for i < n.
TEST_F(CorpusRun, Rodinia_VectorAdd_AddsDoublesUpToN) {
  ze_kernel_handle_t k = load("rodinia_vector_add.spv", "vecAdd", 4);
  constexpr uint32_t n = 100, items = 128;
  double *a = shared_array<double>(items), *b = shared_array<double>(items), *c = filled<double>(items, -1.0);
  for (uint32_t i = 0; i < items; ++i) {
    a[i] = 1.0 / (i + 1);
    b[i] = std::sqrt(double(i)) * 1e10;
  }
  launch(k, {items / 32}, {32}, {value(a), value(b), value(c), value(n)});
  // One correctly rounded addition each: exact.
  for (uint32_t i = 0; i < items; ++i) ASSERT_EQ(i < n ? a[i] + b[i] : -1.0, c[i]) << i;
}

// NearestNeighbor(locations, distances, numRecords, lat, lng): distances[i] = |locations[i] - (lat, lng)|.
TEST_F(CorpusRun, Rodinia_NearestNeighbor_ComputesEachRecordsDistance) {
  ze_kernel_handle_t k = load("rodinia_nearestNeighbor_kernel.spv", "NearestNeighbor", 5);
  struct LatLong {
    float lat, lng;
  };
  constexpr uint32_t n = 100, items = 160;
  const float lat = 30.5f, lng = -90.25f;
  LatLong *locations = shared_array<LatLong>(items);
  float *distances = filled<float>(items, -1.0f);
  for (uint32_t i = 0; i < items; ++i) locations[i] = {float(i % 37) * 1.7f - 20.0f, float(i % 29) * -3.1f + 10.0f};
  launch(k, {items / 32}, {32}, {value(locations), value(distances), value(n), value(lat), value(lng)});
  for (uint32_t i = 0; i < items; ++i) {
    if (i >= n) {
      ASSERT_EQ(-1.0f, distances[i]) << i;
      continue;
    }
    float d_lat = lat - locations[i].lat, d_lng = lng - locations[i].lng;
    float expected = std::sqrt(d_lat * d_lat + d_lng * d_lng); // the kernel contracts nothing (ContractionOff)
    // OpenCL's sqrt may be 3 ulp from the correctly rounded one; the subtractions and products are exact IEEE.
    ASSERT_NEAR(expected, distances[i], 3 * std::ldexp(expected, -23)) << i;
  }
}

// dynproc_kernel: one pyramid step of Rodinia's pathfinder. Each group of BLOCK_SIZE work-items loads a
// halo'd window of the source row into local memory, then for `iteration` rows each valid column takes the
// least of its three upper neighbours plus that row's wall, with barriers between rows; a debugging store
// sets outputBuffer[src[x]] = 1 from work-item 11 on the first row. The reference replays that per group.
TEST_F(CorpusRun, Rodinia_Pathfinder_AdvancesTheShortestPathsByTheIterationCount) {
  ze_kernel_handle_t k = load("rodinia_pathfinder_kernels.spv", "dynproc_kernel", 12);
  constexpr int block = 16, halo = 1, iteration = 2, cols = 40, rows = 4, start_step = 1, border = iteration * halo;
  constexpr int small_block_cols = block - 2 * iteration * halo;
  constexpr uint32_t groups = (cols + small_block_cols - 1) / small_block_cols, debug_size = 16;
  int32_t *wall = shared_array<int32_t>(rows * cols), *src = shared_array<int32_t>(cols);
  int32_t *results = filled<int32_t>(cols, -1), *debug = filled<int32_t>(debug_size, 0);
  for (int i = 0; i < rows * cols; ++i) wall[i] = (i * 7919) % 10;
  for (int x = 0; x < cols; ++x) src[x] = (x * 31 + 5) % 10; // also outputBuffer indices: below debug_size
  launch(k, {groups}, {block},
         {value(iteration), value(wall), value(src), value(results), value(cols), value(rows), value(start_step),
          value(border), value(halo), local(block * sizeof(int32_t)), local(block * sizeof(int32_t)), value(debug)});

  std::vector<int32_t> expected(cols, -1), expected_debug(debug_size, 0);
  for (int bx = 0; bx < int(groups); ++bx) {
    int32_t prev[block] = {}, result[block] = {};
    bool computed[block] = {};
    int blk_x = small_block_cols * bx - border, blk_x_max = blk_x + block - 1;
    int valid_min = blk_x < 0 ? -blk_x : 0;
    int valid_max = blk_x_max > cols - 1 ? block - 1 - (blk_x_max - cols + 1) : block - 1;
    auto in_window = [&](int tx) { return tx >= valid_min && tx <= valid_max; };
    for (int tx = 0; tx < block; ++tx) {
      if (blk_x + tx >= 0 && blk_x + tx <= cols - 1) prev[tx] = src[blk_x + tx];
    }
    for (int i = 0; i < iteration; ++i) {
      for (int tx = 0; tx < block; ++tx) {
        computed[tx] = tx >= i + 1 && tx <= block - i - 2 && in_window(tx);
        if (!computed[tx]) continue;
        int w = std::max(tx - 1, valid_min), e = std::min(tx + 1, valid_max), x = blk_x + tx;
        result[tx] = std::min({prev[w], prev[tx], prev[e]}) + wall[cols * (start_step + i) + x];
        if (tx == 11 && i == 0) expected_debug[src[x]] = 1;
      }
      if (i == iteration - 1) break;
      for (int tx = 0; tx < block; ++tx) {
        if (computed[tx]) prev[tx] = result[tx];
      }
    }
    for (int tx = 0; tx < block; ++tx) {
      if (computed[tx]) expected[blk_x + tx] = result[tx];
    }
  }
  for (int x = 0; x < cols; ++x) {
    ASSERT_NE(-1, expected[x]) << "every column has a result";
    ASSERT_EQ(expected[x], results[x]) << x;
  }
  for (uint32_t i = 0; i < debug_size; ++i) ASSERT_EQ(expected_debug[i], debug[i]) << i;
}

// ---- TornadoVM: arrays carry a 16-byte header; the kernel context argument is unused by these ----

constexpr size_t kTornadoHeader = 16;

// add(context, a, b, c): int c[i] = a[i] + b[i] for the 8 elements after each header, grid-stride.
TEST_F(CorpusRun, TornadoVm_Add_AddsTheEightIntsAfterTheHeaders) {
  ze_kernel_handle_t k = load("tornadovm_add.spv", "add", 4);
  constexpr uint32_t n = 8;
  constexpr size_t bytes = kTornadoHeader + n * sizeof(int32_t);
  uint64_t *kernel_context = filled<uint64_t>(4, 0);
  uint8_t *a = filled<uint8_t>(bytes, 0xA5), *b = filled<uint8_t>(bytes, 0xA5), *c = filled<uint8_t>(bytes, 0xA5);
  for (uint32_t i = 0; i < n; ++i) {
    int32_t x = int32_t(i * 1000) - 3000, y = int32_t(i * i) + 7;
    std::memcpy(a + kTornadoHeader + 4 * i, &x, 4);
    std::memcpy(b + kTornadoHeader + 4 * i, &y, 4);
  }
  // Three work-items: each strides over the eight elements by the global size.
  launch(k, {1}, {3}, {value(kernel_context), value(a), value(b), value(c)});
  for (size_t i = 0; i < kTornadoHeader; ++i) ASSERT_EQ(0xA5, c[i]) << "header byte " << i;
  for (uint32_t i = 0; i < n; ++i) {
    int32_t got;
    std::memcpy(&got, c + kTornadoHeader + 4 * i, 4);
    ASSERT_EQ(int32_t(i * 1000) - 3000 + int32_t(i * i) + 7, got) << i;
  }
}

// floatReductionAddLocalMemory(stack, context, a, b): each group sums its floats of a by a halving tree in
// a 256-float local array; b[group] = the sum. The reference sums in the same tree order, so exactly.
TEST_F(CorpusRun, TornadoVm_Reduce03_SumsEachGroupByATreeInLocalMemory) {
  ze_kernel_handle_t k = load("tornadovm_reduce03.spv", "floatReductionAddLocalMemory", 4);
  constexpr uint32_t group = 64, groups = 4, n = group * groups;
  uint64_t *stack = filled<uint64_t>(16, 0), *kernel_context = filled<uint64_t>(16, 0);
  uint8_t *a = filled<uint8_t>(kTornadoHeader + n * 4, 0), *b = filled<uint8_t>(kTornadoHeader + groups * 4, 0xA5);
  std::vector<float> input(n);
  for (uint32_t i = 0; i < n; ++i) input[i] = float(i % 13) * 0.37f - float(i % 5) * 1.1f;
  std::memcpy(a + kTornadoHeader, input.data(), n * 4);
  launch(k, {groups}, {group}, {value(stack), value(kernel_context), value(a), value(b)});
  for (size_t i = 0; i < kTornadoHeader; ++i) ASSERT_EQ(0xA5, b[i]) << "header byte " << i;
  for (uint32_t g = 0; g < groups; ++g) {
    std::vector<float> tree(input.begin() + g * group, input.begin() + (g + 1) * group);
    for (uint32_t stride = group / 2; stride >= 1; stride /= 2) {
      for (uint32_t t = 0; t < stride; ++t) tree[t] = tree[t] + tree[t + stride];
    }
    float got;
    std::memcpy(&got, b + kTornadoHeader + 4 * g, 4);
    ASSERT_EQ(tree[0], got) << "group " << g;
  }
}

// ---- levelzero-jni (beehive-lab) ----

// initArray(data, value): data[i] = value * 100.
TEST_F(CorpusRun, LevelZeroJni_ConstantsParameters_InitialisesEveryElement) {
  ze_kernel_handle_t k = load("l0jni_constantsParameters.spv", "initArray", 2);
  constexpr uint32_t n = 96, v = 7;
  uint32_t *data = filled<uint32_t>(n, kSentinel);
  launch(k, {n / 16}, {16}, {value(data), value(v)});
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(v * 100, data[i]) << i;
}

// ---- Triton for Intel GPUs (PyTorch Inductor kernels): (inputs, outputs, xnumel, scratch pointer) ----
// Their index is group * BLOCK + (local id & (BLOCK - 1)) with 128-wide groups: 128 is what they need.

constexpr const char *kToCopyOnePerItem =
    "triton_PIVN7VKRWVXMZCHUQWHVWAI3TPYGZYQ764FR3GYB3YOMLL3GQPTA_triton_poi_fused__to_copy_1.spv";
constexpr const char *kToCopyTwoPerItem =
    "triton_2WPPJD6Y64QZGYNIIDPMSHWWYQG7FQUU2HMESN7USYPWJIYUVADQ_triton_poi_fused__to_copy_1.spv";
constexpr const char *kToBool =
    "triton_AWDLMRLQOVHXD5HYU3KT6KLQCXL4NNQDJAJ4XN7RPRJFWH5ROPLQ_triton_poi_fused__to_copy_0.spv";
constexpr const char *kEmbedding =
    "triton_HNHXGPJVNAJMFYQD5A4LSQ3VI5TCKCIRA7PQ4LTNLQV2XQYKKRFA_triton_poi_fused_embedding_0.spv";

// Values that round when converted to float, both signs, and ones only the high word tells from zero.
int64_t int64_input(uint32_t i) {
  switch (i % 5) {
  case 0: return int64_t(i) - 150;
  case 1: return (int64_t(1) << 40) + 2 * int64_t(i) + 1;
  case 2: return -((int64_t(1) << 53) + 3 * int64_t(i));
  case 3: return int64_t(0x7FFFFFFFFFFFFFFF) - i;
  default: return i % 10 == 4 ? 0 : int64_t(i) << 32;
  }
}

// triton_poi_fused__to_copy_1 (one element per work-item): out[i] = float(in[i]) for i < xnumel.
TEST_F(CorpusRun, Triton_ToCopyOnePerItem_ConvertsInt64ToFloat) {
  ze_kernel_handle_t k = load(kToCopyOnePerItem, "triton_poi_fused__to_copy_1", 4);
  constexpr uint32_t xnumel = 300, items = 3 * 128;
  int64_t *in = shared_array<int64_t>(items);
  float *out = filled<float>(items, -1.0f);
  for (uint32_t i = 0; i < items; ++i) in[i] = int64_input(i);
  void *scratch = nullptr;
  launch(k, {items / 128}, {128}, {value(in), value(out), value(xnumel), value(scratch)});
  // Conversion rounds to nearest even on both sides: exact.
  for (uint32_t i = 0; i < items; ++i) ASSERT_EQ(i < xnumel ? float(in[i]) : -1.0f, out[i]) << i << ": " << in[i];
}

// triton_poi_fused__to_copy_1 (two elements per work-item, masked separately): out[i] = float(in[i]).
TEST_F(CorpusRun, Triton_ToCopyTwoPerItem_ConvertsInt64ToFloatUpToAnOddCount) {
  ze_kernel_handle_t k = load(kToCopyTwoPerItem, "triton_poi_fused__to_copy_1", 4);
  constexpr uint32_t xnumel = 301, elements = 2 * 256;
  int64_t *in = shared_array<int64_t>(elements);
  float *out = filled<float>(elements, -1.0f);
  for (uint32_t i = 0; i < elements; ++i) in[i] = int64_input(i);
  void *scratch = nullptr;
  launch(k, {elements / 256}, {128}, {value(in), value(out), value(xnumel), value(scratch)});
  for (uint32_t i = 0; i < elements; ++i) ASSERT_EQ(i < xnumel ? float(in[i]) : -1.0f, out[i]) << i << ": " << in[i];
}

// triton_poi_fused__to_copy_0: out[i] = in[i] != 0 as a one-byte bool, two per work-item.
TEST_F(CorpusRun, Triton_ToBool_TestsAllSixtyFourBits) {
  ze_kernel_handle_t k = load(kToBool, "triton_poi_fused__to_copy_0", 4);
  constexpr uint32_t xnumel = 301, elements = 2 * 256;
  int64_t *in = shared_array<int64_t>(elements);
  uint8_t *out = filled<uint8_t>(elements, 0xA5);
  for (uint32_t i = 0; i < elements; ++i) in[i] = int64_input(i);
  void *scratch = nullptr;
  launch(k, {elements / 256}, {128}, {value(in), value(out), value(xnumel), value(scratch)});
  for (uint32_t i = 0; i < elements; ++i) {
    ASSERT_EQ(i < xnumel ? uint8_t(in[i] != 0) : 0xA5, out[i]) << i << ": " << in[i];
  }
}

// triton_poi_fused_embedding_0(indices, weight, out, xnumel, scratch): a 128256 x 4096 half embedding;
// out[t][j] = weight[indices[t]][j], eight halves (16 bytes) per work-item, 1024 per group. Indices stay
// small so that only their rows of the table need to exist; the kernel asserts the bound on the device.
TEST_F(CorpusRun, Triton_Embedding_GathersTheRowOfEachToken) {
  ze_kernel_handle_t k = load(kEmbedding, "triton_poi_fused_embedding_0", 5);
  constexpr uint32_t width = 4096, rows = 8, tokens = 3, xnumel = tokens * width;
  const int64_t token_rows[tokens] = {5, 0, 7};
  int64_t *indices = shared_array<int64_t>(tokens);
  uint16_t *weight = shared_array<uint16_t>(rows * width), *out = filled<uint16_t>(xnumel + 64, 0xFFFF);
  std::copy(token_rows, token_rows + tokens, indices);
  for (uint32_t i = 0; i < rows * width; ++i) weight[i] = uint16_t(i * 2654435761u >> 16);
  void *scratch = nullptr;
  launch(k, {xnumel / 1024}, {128}, {value(indices), value(weight), value(out), value(xnumel), value(scratch)});
  for (uint32_t t = 0; t < tokens; ++t) {
    for (uint32_t j = 0; j < width; ++j) {
      ASSERT_EQ(weight[token_rows[t] * width + j], out[t * width + j]) << "token " << t << " element " << j;
    }
  }
  for (uint32_t i = xnumel; i < xnumel + 64; ++i) ASSERT_EQ(0xFFFF, out[i]) << i;
}

} // namespace
} // namespace zeal::cpu::test
