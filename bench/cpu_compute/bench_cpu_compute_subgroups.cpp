// Sub-groups on zeal's CPU driver: a work-group reduction by sub_group_reduce_add vs a local-memory tree and vs the
// triad's bandwidth in the same run, a shuffle_xor butterfly, and a copy by sub-group block reads and writes.
#include "ze_session.hpp"

#include <fmt/format.h>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint32_t group = 256, subgroup = 16;
constexpr size_t reduce_n = size_t{64} << 20; // ints (256 MiB)
constexpr size_t triad_n = size_t{64} << 20;  // floats per array
constexpr size_t copy_n = size_t{64} << 20;   // uints
constexpr size_t shuffle_n = size_t{1} << 18; // uints
constexpr float triad_scalar = 3.0f;
constexpr uint32_t shuffle_steps = 32;
constexpr int rounds = 7;

using bench::fail;
using bench::median;
using bench::ze;

// The CPU driver's session, with kernels checked to run with the sub-group size measured.
class Driver {
public:
  Driver() : session_(ZEAL_BENCH_SPIRV) {}

  template <class T>
  T *alloc(size_t n) {
    return session_.alloc<T>(n);
  }

  ze_kernel_handle_t kernel(const char *name, std::vector<std::pair<size_t, const void *>> args) {
    ze_kernel_handle_t k = session_.kernel(name, group, args);
    ze_kernel_properties_t props{};
    props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    ze(zeKernelGetProperties(k, &props), "zeKernelGetProperties");
    if (props.maxSubgroupSize != subgroup) fail(fmt::format("{} runs with sub-group size {}", name, props.maxSubgroupSize));
    return k;
  }

  ze_kernel_handle_t plain_kernel(const char *name, std::vector<std::pair<size_t, const void *>> args) {
    return session_.kernel(name, group, args);
  }

  double launch(ze_kernel_handle_t k, size_t groups) { return session_.launch(k, groups); }

private:
  bench::ZeSession session_;
};

// Runs the kernels in a rotating order, `rounds` times after one warm-up each; returns per-kernel times.
std::vector<std::vector<double>> alternate(Driver &d, const std::vector<std::pair<ze_kernel_handle_t, size_t>> &runs) {
  std::vector<std::vector<double>> times(runs.size());
  for (const auto &[k, groups] : runs) d.launch(k, groups);
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < runs.size(); ++i) {
      size_t s = (i + size_t(r)) % runs.size();
      times[s].push_back(d.launch(runs[s].first, runs[s].second));
    }
  }
  return times;
}

// Median of the per-round ratios slow/fast.
double paired_ratio(const std::vector<double> &fast, const std::vector<double> &slow) {
  std::vector<double> ratios;
  for (size_t i = 0; i < fast.size(); ++i) ratios.push_back(slow[i] / fast[i]);
  return median(ratios);
}

void check(bool ok, const std::string &what) {
  if (!ok) fail(fmt::format("wrong result: {}", what));
}

// The butterfly kernel on the host, one sub-group of 16 at a time.
std::vector<uint32_t> butterfly_reference(const uint32_t *in) {
  std::vector<uint32_t> x(in, in + shuffle_n), next(shuffle_n);
  for (uint32_t k = 0; k < shuffle_steps; ++k) {
    for (size_t i = 0; i < shuffle_n; ++i) next[i] = x[i] * 3u + x[i ^ (size_t{1} << (k % 4))];
    x.swap(next);
  }
  return x;
}

void row(const char *what, double seconds, double elements, const std::string &note = "") {
  std::printf("%-44s %9.3f ms %10.1f M elem/s  %s\n", what, seconds * 1e3, elements / seconds / 1e6, note.c_str());
}

std::string gbs(double bytes, double seconds) { return fmt::format("{:.1f} GB/s", bytes / seconds / 1e9); }

} // namespace

int main() try {
  Driver d;
  const size_t reduce_groups = reduce_n / group, shuffle_groups = shuffle_n / group;
  int *in = d.alloc<int>(reduce_n), *sg_out = d.alloc<int>(reduce_groups), *tree_out = d.alloc<int>(reduce_groups);
  uint32_t *bits = d.alloc<uint32_t>(shuffle_n), *shuffled = d.alloc<uint32_t>(shuffle_n);
  float *a = d.alloc<float>(triad_n), *b = d.alloc<float>(triad_n), *c = d.alloc<float>(triad_n);
  uint32_t *copy_in = d.alloc<uint32_t>(copy_n), *copy_out = d.alloc<uint32_t>(copy_n);
  for (size_t i = 0; i < reduce_n; ++i) in[i] = int(i % 13) - 6;
  for (size_t i = 0; i < shuffle_n; ++i) bits[i] = uint32_t(i * 2654435761u);
  for (size_t i = 0; i < triad_n; ++i) b[i] = float(i % 1000), c[i] = float(i % 7);
  for (size_t i = 0; i < copy_n; ++i) copy_in[i] = uint32_t(i * 7u + 1u);
  ze_kernel_handle_t sg = d.kernel("reduce_subgroup", {{sizeof(in), &in}, {sizeof(sg_out), &sg_out}});
  ze_kernel_handle_t tree = d.kernel("reduce_local", {{sizeof(in), &in}, {sizeof(tree_out), &tree_out},
                                                      {group * sizeof(int), nullptr}});
  ze_kernel_handle_t shuffle = d.kernel("shuffle_butterfly", {{sizeof(bits), &bits}, {sizeof(shuffled), &shuffled},
                                                              {sizeof(shuffle_steps), &shuffle_steps}});
  ze_kernel_handle_t triad = d.plain_kernel("triad", {{sizeof(a), &a}, {sizeof(b), &b}, {sizeof(c), &c},
                                                      {sizeof(triad_scalar), &triad_scalar}});
  ze_kernel_handle_t copy = d.kernel("block_copy", {{sizeof(copy_in), &copy_in}, {sizeof(copy_out), &copy_out}});
  auto times = alternate(d, {{sg, reduce_groups}, {tree, reduce_groups}, {shuffle, shuffle_groups},
                             {triad, triad_n / group}, {copy, copy_n / group}});

  for (size_t g = 0; g < reduce_groups; ++g) {
    int want = 0;
    for (size_t i = g * group; i < (g + 1) * group; ++i) want += in[i];
    check(sg_out[g] == want, fmt::format("sub-group reduction, work-group {}", g));
    check(tree_out[g] == want, fmt::format("local-memory reduction, work-group {}", g));
  }
  std::vector<uint32_t> want = butterfly_reference(bits);
  check(std::equal(want.begin(), want.end(), shuffled), "shuffle butterfly");
  for (size_t i = 0; i < triad_n; i += 4097) check(a[i] == b[i] + triad_scalar * c[i], fmt::format("triad, {}", i));
  check(std::equal(copy_in, copy_in + copy_n, copy_out), "block copy");

  std::printf("zeal CPU driver, %u hardware threads, sub-group size %u, work-group %u; median of %d rounds\n%s\n\n",
              std::max(1u, std::thread::hardware_concurrency()), subgroup, group, rounds,
              bench::machine_description().c_str());
  const double reduce_bytes = double(reduce_n) * sizeof(int), triad_bytes = 3.0 * double(triad_n) * sizeof(float);
  const double copy_bytes = 2.0 * double(copy_n) * sizeof(uint32_t);
  row("triad (bandwidth reference)", median(times[3]), double(triad_n), gbs(triad_bytes, median(times[3])));
  row("reduction, sub_group_reduce_add + local", median(times[0]), double(reduce_n), gbs(reduce_bytes, median(times[0])));
  row("reduction, local-memory tree + barriers", median(times[1]), double(reduce_n), gbs(reduce_bytes, median(times[1])));
  row("copy, sub_group_block_read + block_write", median(times[4]), double(copy_n), gbs(copy_bytes, median(times[4])));
  // Bandwidth ratios, per round (the kernels of a round run back to back): bytes/time of one over the triad's.
  std::vector<double> reduce_ratio, copy_ratio;
  for (int r = 0; r < rounds; ++r) {
    const double triad_bw = triad_bytes / times[3][size_t(r)];
    reduce_ratio.push_back(reduce_bytes / times[0][size_t(r)] / triad_bw);
    copy_ratio.push_back(copy_bytes / times[4][size_t(r)] / triad_bw);
  }
  std::printf("  bandwidth / triad's (median of per-round ratios): sub-group reduction %.2fx, block copy %.2fx\n",
              median(reduce_ratio), median(copy_ratio));
  std::printf("  ratio tree time / sub-group time (median of per-round ratios): %.2fx\n",
              paired_ratio(times[0], times[1]));
  row(fmt::format("shuffle_xor butterfly, {} steps", shuffle_steps).c_str(), median(times[2]), double(shuffle_n),
      fmt::format("{:.1f} M shuffles/s, {:.2f} ns per shuffle per work-item",
                  double(shuffle_n) * shuffle_steps / median(times[2]) / 1e6,
                  median(times[2]) * 1e9 / (double(shuffle_n) * shuffle_steps)));
  return 0;
} catch (const std::exception &error) {
  std::fprintf(stderr, "bench_cpu_compute_subgroups: %s\n", error.what());
  return 1;
}
