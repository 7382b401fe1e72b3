// bench_adapter_graph: host time to submit a small SYCL-Graph-like graph (three kernels and a USM copy) through
// UR, enqueued command by command versus replayed from a command buffer recorded once (issue 46's target:
// replay at most 0.5x the host time). Medians of interleaved rounds and the median of the paired ratios; the
// device time is not measured (each round's wait is outside the timing), and every result is checked.
#include "tests/support/ur_kernel_args.hpp"
#include "tests/support/ur_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kGraphs = 25; // graphs a round submits: 100 commands, under the queue's in-flight bound
constexpr int kRounds = 101;
constexpr size_t kItems = 256;

ur_exp_kernel_arg_properties_t pointer(uint32_t index, const void *p) {
  return zeal::test::ur_kernel_arg(UR_EXP_KERNEL_ARG_TYPE_POINTER, index, sizeof(void *), p);
}
ur_exp_kernel_arg_properties_t value(uint32_t index, const int *v) {
  return zeal::test::ur_kernel_arg(UR_EXP_KERNEL_ARG_TYPE_VALUE, index, sizeof(int), v);
}

struct Graph {
  zeal::test::UrSession ur{"bench_adapter_graph"};
  ur_kernel_handle_t init = nullptr, square = nullptr, accumulate = nullptr;
  int *a = nullptr, *b = nullptr, *c = nullptr;
  int64_t *sum = nullptr;
  const int seed = 3, k = 5;
  ur_exp_command_buffer_handle_t buffer = nullptr;
  int64_t runs = 0;

  void check(ur_result_t r, const char *call) const { ur.check(r, call); }
  void create(const std::vector<uint8_t> &spirv) {
    ur.open(ZEAL_UR_ADAPTER_PATH, spirv);
    init = ur.kernel("graph_init");
    square = ur.kernel("graph_square");
    accumulate = ur.kernel("graph_accumulate");
    a = static_cast<int *>(ur.shared(kItems * sizeof(int)));
    b = static_cast<int *>(ur.shared(kItems * sizeof(int)));
    c = static_cast<int *>(ur.shared(kItems * sizeof(int)));
    sum = static_cast<int64_t *>(ur.shared(kItems * sizeof(int64_t)));
    std::fill(sum, sum + kItems, 0);
    record();
  }
  // SYCL Graph's way: each command after the one it depends on, by sync point.
  void record() {
    ur_exp_command_buffer_desc_t desc{UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, nullptr, false, false, false};
    check(urCommandBufferCreateExp(ur.context, ur.device, &desc, &buffer), "urCommandBufferCreateExp");
    const size_t global = kItems;
    uint32_t s0 = 0, s1 = 0, s2 = 0;
    const ur_exp_kernel_arg_properties_t init_args[] = {pointer(0, a), value(1, &seed)};
    const ur_exp_kernel_arg_properties_t square_args[] = {pointer(0, a), pointer(1, b)};
    const ur_exp_kernel_arg_properties_t acc_args[] = {pointer(0, c), pointer(1, sum), value(2, &k)};
    check(urCommandBufferAppendKernelLaunchWithArgsExp(buffer, init, 1, nullptr, &global, nullptr, 2, init_args, 0,
                                                       nullptr, 0, nullptr, 0, nullptr, &s0, nullptr, nullptr),
          "urCommandBufferAppendKernelLaunchWithArgsExp");
    check(urCommandBufferAppendKernelLaunchWithArgsExp(buffer, square, 1, nullptr, &global, nullptr, 2, square_args, 0,
                                                       nullptr, 1, &s0, 0, nullptr, &s1, nullptr, nullptr),
          "urCommandBufferAppendKernelLaunchWithArgsExp");
    check(urCommandBufferAppendUSMMemcpyExp(buffer, c, b, kItems * sizeof(int), 1, &s1, 0, nullptr, &s2, nullptr,
                                            nullptr),
          "urCommandBufferAppendUSMMemcpyExp");
    check(urCommandBufferAppendKernelLaunchWithArgsExp(buffer, accumulate, 1, nullptr, &global, nullptr, 3, acc_args,
                                                       0, nullptr, 1, &s2, 0, nullptr, nullptr, nullptr, nullptr),
          "urCommandBufferAppendKernelLaunchWithArgsExp");
    check(urCommandBufferFinalizeExp(buffer), "urCommandBufferFinalizeExp");
  }
  // The same four commands enqueued one by one on the in-order queue.
  void one_by_one() {
    const size_t global = kItems;
    const ur_exp_kernel_arg_properties_t init_args[] = {pointer(0, a), value(1, &seed)};
    const ur_exp_kernel_arg_properties_t square_args[] = {pointer(0, a), pointer(1, b)};
    const ur_exp_kernel_arg_properties_t acc_args[] = {pointer(0, c), pointer(1, sum), value(2, &k)};
    check(urEnqueueKernelLaunchWithArgsExp(ur.queue, init, 1, nullptr, &global, nullptr, 2, init_args, nullptr, 0,
                                           nullptr, nullptr),
          "urEnqueueKernelLaunchWithArgsExp");
    check(urEnqueueKernelLaunchWithArgsExp(ur.queue, square, 1, nullptr, &global, nullptr, 2, square_args, nullptr, 0,
                                           nullptr, nullptr),
          "urEnqueueKernelLaunchWithArgsExp");
    check(urEnqueueUSMMemcpy(ur.queue, false, c, b, kItems * sizeof(int), 0, nullptr, nullptr), "urEnqueueUSMMemcpy");
    check(urEnqueueKernelLaunchWithArgsExp(ur.queue, accumulate, 1, nullptr, &global, nullptr, 3, acc_args, nullptr, 0,
                                           nullptr, nullptr),
          "urEnqueueKernelLaunchWithArgsExp");
  }
  void replay() { check(urEnqueueCommandBufferExp(ur.queue, buffer, 0, nullptr, nullptr), "urEnqueueCommandBufferExp"); }
  // Host nanoseconds per graph for one round of kGraphs, then the wait (not timed) and the check.
  double round(bool replayed) {
    const auto t0 = Clock::now();
    for (int g = 0; g < kGraphs; ++g) replayed ? replay() : one_by_one();
    const auto t1 = Clock::now();
    check(urQueueFinish(ur.queue), "urQueueFinish");
    runs += kGraphs;
    for (size_t i = 0; i < kItems; ++i) {
      const int64_t x = seed + static_cast<int64_t>(i);
      if (sum[i] != runs * (x * x + k)) ur.die(fmt::format("item {}: {} after {} graphs", i, sum[i], runs));
    }
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / kGraphs;
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main() {
  Graph g;
  std::ifstream in(ZEAL_BENCH_GRAPH_KERNEL, std::ios::binary);
  if (!in) g.ur.die("cannot read " ZEAL_BENCH_GRAPH_KERNEL);
  const std::vector<uint8_t> spirv{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  g.create(spirv);
  // Warm both paths (first launches choose local sizes, first replays create the run's events).
  for (int i = 0; i < 5; ++i) {
    g.round(false);
    g.round(true);
  }
  std::vector<double> each, replayed, ratio;
  for (int r = 0; r < kRounds; ++r) {
    // Alternate which goes first, so neither always follows the other's wait.
    const bool replay_first = r % 2 == 1;
    const double first = g.round(replay_first);
    const double second = g.round(!replay_first);
    const double e = replay_first ? second : first, p = replay_first ? first : second;
    each.push_back(e);
    replayed.push_back(p);
    ratio.push_back(p / e);
  }
  std::printf("graph of 3 kernels + 1 USM copy, %zu items, %d rounds of %d graphs (host time per graph)\n", kItems,
              kRounds, kGraphs);
  std::printf("  enqueued one by one: %8.2f us (median)\n", median(each) / 1000);
  std::printf("  command buffer replay: %6.2f us (median)\n", median(replayed) / 1000);
  std::printf("  replay / one by one: %7.3f (median of paired ratios; target <= 0.5)\n", median(ratio));
  std::printf("  results checked after every round: %lld graphs\n", static_cast<long long>(g.runs));
  return 0;
}
