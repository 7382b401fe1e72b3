// STREAM triad, a local-memory tree reduction, the cost of a barrier and of an empty launch: zeal's CPU driver
// against PoCL and plain C++.
#include "bench/pocl_platform.hpp"
#include "ze_session.hpp"

#include <CL/cl.h>
#include <fmt/format.h>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t triad_n = size_t{64} << 20; // 64 Mi floats per array
constexpr size_t reduce_n = size_t{4} << 20; // ints
constexpr size_t reduce_group = 256;
constexpr size_t barrier_group = 256, barrier_groups = 64;
constexpr int barrier_iterations = 200; // two barriers each
constexpr float triad_scalar = 3.0f;
constexpr int empty_launches = 1000; // back-to-back, then one synchronize
constexpr size_t math_n = size_t{16} << 20; // floats through sin + cos + exp + log

using bench::fail;
using bench::read_file;

void cl(cl_int result, const char *call) {
  if (result != CL_SUCCESS) fail(fmt::format("{} failed: {}", call, result));
}

double seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

// The inputs every side gets, so that results can be compared.
void fill_inputs(float *b, float *c, int *ints) {
  for (size_t i = 0; i < triad_n; ++i) b[i] = float(i % 1000), c[i] = float(i % 7);
  for (size_t i = 0; i < reduce_n; ++i) ints[i] = int(i % 13) - 6;
}

// --- zeal's CPU driver, through the Level Zero loader ------------------------
class ZealSide {
public:
  ZealSide() : session_(ZEAL_BENCH_SPIRV) {
    a = session_.alloc<float>(triad_n), b = session_.alloc<float>(triad_n), c = session_.alloc<float>(triad_n);
    ints = session_.alloc<int>(reduce_n), partial = session_.alloc<int>(reduce_n / reduce_group);
    barrier_out = session_.alloc<int>(barrier_group * barrier_groups);
    math_out = session_.alloc<float>(math_n);
    fill_inputs(b, c, ints);
    triad_ = session_.kernel("triad", 256, {{sizeof(a), &a}, {sizeof(b), &b}, {sizeof(c), &c}, {sizeof(float), &triad_scalar}});
    reduce_ = session_.kernel("reduce", reduce_group, {{sizeof(ints), &ints}, {sizeof(partial), &partial},
                                               {reduce_group * sizeof(int), nullptr}});
    barriers_ = session_.kernel("barriers", barrier_group, {{sizeof(barrier_out), &barrier_out}, {sizeof(int), &barrier_iterations}});
    empty_ = session_.kernel("empty", 1, {});
    math_ = session_.kernel("math", 256, {{sizeof(b), &b}, {sizeof(math_out), &math_out}});
  }

  double triad() { return session_.launch(triad_, triad_n / 256); }
  double reduce() { return session_.launch(reduce_, reduce_n / reduce_group); }
  double barriers() { return session_.launch(barriers_, barrier_groups); }
  double empty() { return session_.launch_many(empty_, empty_launches); }
  double math() { return session_.launch(math_, math_n / 256); }

  float *a, *b, *c, *math_out;
  int *ints, *partial, *barrier_out;

private:
  bench::ZeSession session_;
  ze_kernel_handle_t triad_ = nullptr, reduce_ = nullptr, barriers_ = nullptr, empty_ = nullptr, math_ = nullptr;
};

// --- PoCL, through the OpenCL ICD loader ------------------------------------
class PoclSide {
public:
  PoclSide() {
    cl(bench::find_pocl_platform(platform_), "clGetPlatformIDs");
    if (platform_ == nullptr) fail("no PoCL platform (install pocl-opencl-icd)");
    cl(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_CPU, 1, &device_, nullptr), "clGetDeviceIDs");
    cl_int err = 0;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
    cl(err, "clCreateContext");
    queue_ = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
    cl(err, "clCreateCommandQueueWithProperties");
    std::vector<char> source = read_file(ZEAL_BENCH_SOURCE);
    const char *text = source.data();
    size_t length = source.size();
    program_ = clCreateProgramWithSource(context_, 1, &text, &length, &err);
    cl(err, "clCreateProgramWithSource");
    cl(clBuildProgram(program_, 1, &device_, "-cl-std=CL2.0 -I " ZEAL_BENCH_SOURCE_DIR, nullptr, nullptr),
       "clBuildProgram");
    a = buffer(triad_n * 4), b = buffer(triad_n * 4), c = buffer(triad_n * 4);
    ints = buffer(reduce_n * 4), partial = buffer(reduce_n / reduce_group * 4);
    barrier_out = buffer(barrier_group * barrier_groups * 4);
    math_out = buffer(math_n * 4);
    std::vector<float> hb(triad_n), hc(triad_n);
    std::vector<int> hi(reduce_n);
    fill_inputs(hb.data(), hc.data(), hi.data());
    write(b, hb.data(), triad_n * 4), write(c, hc.data(), triad_n * 4), write(ints, hi.data(), reduce_n * 4);
    triad_ = kernel("triad", {{sizeof(cl_mem), &a}, {sizeof(cl_mem), &b}, {sizeof(cl_mem), &c}, {4, &triad_scalar}});
    reduce_ = kernel("reduce", {{sizeof(cl_mem), &ints}, {sizeof(cl_mem), &partial}, {reduce_group * 4, nullptr}});
    barriers_ = kernel("barriers", {{sizeof(cl_mem), &barrier_out}, {sizeof(int), &barrier_iterations}});
    empty_ = kernel("empty", {});
    math_ = kernel("math", {{sizeof(cl_mem), &b}, {sizeof(cl_mem), &math_out}});
  }

  double triad() { return launch(triad_, triad_n, 256); }
  double reduce() { return launch(reduce_, reduce_n, reduce_group); }
  double barriers() { return launch(barriers_, barrier_group * barrier_groups, barrier_group); }
  double math() { return launch(math_, math_n, 256); }
  double empty() {
    size_t one = 1;
    auto start = Clock::now();
    for (int i = 0; i < empty_launches; ++i) {
      cl(clEnqueueNDRangeKernel(queue_, empty_, 1, nullptr, &one, &one, 0, nullptr, nullptr), "clEnqueueNDRangeKernel");
    }
    cl(clFinish(queue_), "clFinish");
    return seconds(start);
  }

  std::vector<float> read_floats(cl_mem from, size_t n) {
    std::vector<float> out(n);
    cl(clEnqueueReadBuffer(queue_, from, CL_TRUE, 0, n * 4, out.data(), 0, nullptr, nullptr), "clEnqueueReadBuffer");
    return out;
  }

  std::vector<int> read_ints(cl_mem from, size_t n) {
    std::vector<int> out(n);
    cl(clEnqueueReadBuffer(queue_, from, CL_TRUE, 0, n * 4, out.data(), 0, nullptr, nullptr), "clEnqueueReadBuffer");
    return out;
  }

  cl_mem a, b, c, ints, partial, barrier_out, math_out;

private:
  cl_mem buffer(size_t bytes) {
    cl_int err = 0;
    cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
    cl(err, "clCreateBuffer");
    return m;
  }
  void write(cl_mem to, const void *from, size_t bytes) {
    cl(clEnqueueWriteBuffer(queue_, to, CL_TRUE, 0, bytes, from, 0, nullptr, nullptr), "clEnqueueWriteBuffer");
  }
  cl_kernel kernel(const char *name, std::vector<std::pair<size_t, const void *>> args) {
    cl_int err = 0;
    cl_kernel k = clCreateKernel(program_, name, &err);
    cl(err, "clCreateKernel");
    for (cl_uint i = 0; i < args.size(); ++i) cl(clSetKernelArg(k, i, args[i].first, args[i].second), "clSetKernelArg");
    return k;
  }
  double launch(cl_kernel k, size_t global, size_t local) {
    auto start = Clock::now();
    cl(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr), "clEnqueueNDRangeKernel");
    cl(clFinish(queue_), "clFinish");
    return seconds(start);
  }

  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  cl_kernel triad_ = nullptr, reduce_ = nullptr, barriers_ = nullptr, empty_ = nullptr, math_ = nullptr;
};

// The bandwidth anchor: the triad on std::threads over the same arrays.
double cpp_triad(float *a, const float *b, const float *c) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  auto start = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([=] {
      size_t begin = triad_n * t / threads, end = triad_n * (t + 1) / threads;
      for (size_t i = begin; i < end; ++i) a[i] = b[i] + triad_scalar * c[i];
    });
  }
  for (std::thread &thread : pool) thread.join();
  return seconds(start);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Runs the sides in a rotating order, `rounds` times after one warm-up each; returns per-side times.
std::vector<std::vector<double>> alternate(int rounds, const std::vector<std::function<double()>> &sides) {
  std::vector<std::vector<double>> times(sides.size());
  for (const auto &side : sides) side();
  for (int r = 0; r < rounds; ++r) {
    for (size_t k = 0; k < sides.size(); ++k) {
      size_t s = (k + size_t(r)) % sides.size();
      times[s].push_back(sides[s]());
    }
  }
  return times;
}

// Median of the per-round ratios other/zeal: above 1 means zeal was faster in that round.
double paired_ratio(const std::vector<double> &zeal, const std::vector<double> &other) {
  std::vector<double> ratios;
  for (size_t i = 0; i < zeal.size(); ++i) ratios.push_back(other[i] / zeal[i]);
  return median(ratios);
}

// The barriers kernel's result for one group, computed the same way on the host.
std::vector<int> barrier_reference() {
  std::vector<int> v(barrier_group);
  std::iota(v.begin(), v.end(), 0);
  for (int i = 0; i < barrier_iterations; ++i) {
    std::vector<int> slot = v;
    for (size_t l = 0; l < barrier_group; ++l) v[l] += slot[(l + 1) % barrier_group] & 1;
  }
  return v;
}

void check(bool ok, const char *what) {
  if (!ok) fail(fmt::format("wrong result: {}", what));
}

// Checks the results of the benchmarks that ran.
void verify(ZealSide &zeal, PoclSide &pocl, const std::function<bool(const char *)> &ran) {
  if (ran("triad")) {
    for (size_t i : {size_t(0), size_t(12345), triad_n - 1}) {
      check(zeal.a[i] == zeal.b[i] + triad_scalar * zeal.c[i], "zeal triad");
    }
  }
  if (ran("reduce")) {
    long long want = std::accumulate(zeal.ints, zeal.ints + reduce_n, 0LL);
    check(std::accumulate(zeal.partial, zeal.partial + reduce_n / reduce_group, 0LL) == want, "zeal reduction");
    std::vector<int> pocl_partial = pocl.read_ints(pocl.partial, reduce_n / reduce_group);
    check(std::accumulate(pocl_partial.begin(), pocl_partial.end(), 0LL) == want, "PoCL reduction");
  }
  if (ran("barriers")) {
    std::vector<int> reference = barrier_reference();
    check(std::equal(reference.begin(), reference.end(), zeal.barrier_out), "zeal barriers");
    std::vector<int> pocl_barriers = pocl.read_ints(pocl.barrier_out, barrier_group);
    check(pocl_barriers == reference, "PoCL barriers");
  }
  if (ran("math")) {
    // Four functions of a few ulp each: a relative bound well above their sum.
    std::vector<float> pocl_math = pocl.read_floats(pocl.math_out, math_n);
    for (size_t i = 0; i < math_n; i += 4093) {
      const double x = zeal.b[i], want = std::sin(x) + std::cos(x) + std::exp(x * 0.01) + std::log(x + 2.0);
      const double bound = 1e-5 * std::max(1.0, std::fabs(want));
      check(std::fabs(zeal.math_out[i] - want) <= bound, "zeal math");
      check(std::fabs(pocl_math[i] - want) <= bound, "PoCL math");
    }
  }
}

void row(const char *what, const char *unit, double zeal, double pocl, double ratio, const std::string &note = "") {
  std::printf("%-34s %10.3f %10.3f  %-6s %8.3fx  %s\n", what, zeal, pocl, unit, ratio, note.c_str());
}

} // namespace

int main(int argc, char **argv) try {
  // Optional arguments name the benchmarks to run (triad, reduce, barriers, empty, math); none runs them all.
  const std::vector<std::string> chosen(argv + 1, argv + argc);
  auto wanted = [&](const char *name) { return chosen.empty() || std::count(chosen.begin(), chosen.end(), name) > 0; };
  for (const std::string &name : chosen) {
    if (name != "triad" && name != "reduce" && name != "barriers" && name != "empty" && name != "math") {
      fail(fmt::format("unknown benchmark '{}': choose among triad, reduce, barriers, empty and math", name));
    }
  }
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  ZealSide zeal;
  PoclSide pocl;
  std::vector<std::vector<double>> triad, reduce, barriers, empty, math;
  if (wanted("triad")) {
    triad = alternate(15, {[&] { return zeal.triad(); }, [&] { return pocl.triad(); },
                           [&] { return cpp_triad(zeal.a, zeal.b, zeal.c); }});
  }
  if (wanted("reduce")) reduce = alternate(7, {[&] { return zeal.reduce(); }, [&] { return pocl.reduce(); }});
  if (wanted("barriers")) barriers = alternate(7, {[&] { return zeal.barriers(); }, [&] { return pocl.barriers(); }});
  if (wanted("empty")) empty = alternate(21, {[&] { return zeal.empty(); }, [&] { return pocl.empty(); }});
  if (wanted("math")) math = alternate(7, {[&] { return zeal.math(); }, [&] { return pocl.math(); }});
  verify(zeal, pocl, wanted);

  auto gbps = [](double bytes, double t) { return bytes / t / 1e9; };
  double triad_bytes = 3.0 * 4 * triad_n, reduce_bytes = 4.0 * reduce_n;
  double crossings = double(barrier_group * barrier_groups) * 2 * barrier_iterations;
  std::printf("zeal CPU driver vs PoCL, %u hardware threads; medians of alternating rounds; ratio = median of per-round\n"
              "(other time / zeal time), so above 1 means zeal is faster\n%s\n\n",
              threads, bench::machine_description().c_str());
  std::printf("%-34s %10s %10s  %-6s %9s\n", "benchmark", "zeal", "PoCL", "unit", "ratio");
  if (!triad.empty()) {
    row("STREAM triad, 64 Mi floats", "GB/s", gbps(triad_bytes, median(triad[0])), gbps(triad_bytes, median(triad[1])),
        paired_ratio(triad[0], triad[1]));
    row("  vs plain C++ threads (as PoCL col)", "GB/s", gbps(triad_bytes, median(triad[0])),
        gbps(triad_bytes, median(triad[2])), paired_ratio(triad[0], triad[2]));
  }
  if (!reduce.empty()) {
    row("tree reduction, local mem, wg 256", "GB/s", gbps(reduce_bytes, median(reduce[0])),
        gbps(reduce_bytes, median(reduce[1])), paired_ratio(reduce[0], reduce[1]),
        fmt::format("{:.2f} vs {:.2f} us per work-group", median(reduce[0]) * 1e6 * threads / (reduce_n / reduce_group),
                    median(reduce[1]) * 1e6 * threads / (reduce_n / reduce_group)));
  }
  if (!barriers.empty()) {
    row("barrier, per work-item per barrier", "ns CPU", median(barriers[0]) * 1e9 * threads / crossings,
        median(barriers[1]) * 1e9 * threads / crossings, paired_ratio(barriers[0], barriers[1]),
        "wall time x threads / (work-items x barriers), wg 256");
  }
  if (!empty.empty()) {
    row("empty kernel, back-to-back launches", "us", median(empty[0]) * 1e6 / empty_launches,
        median(empty[1]) * 1e6 / empty_launches, paired_ratio(empty[0], empty[1]),
        fmt::format("per launch: {} appends on an immediate list (clEnqueueNDRangeKernel), one synchronize",
                    empty_launches));
  }
  if (!math.empty()) {
    row("math: sin + cos + exp + log, 16 Mi", "ns CPU", median(math[0]) * 1e9 * threads / math_n,
        median(math[1]) * 1e9 * threads / math_n, paired_ratio(math[0], math[1]),
        "per float: wall time x threads / floats");
  }
  return 0;
} catch (const std::exception &error) {
  std::fprintf(stderr, "bench_cpu_compute_kernels: %s\n", error.what());
  return 1;
}
