// Proof that a steady-state launch allocates nothing in the adapter: operator new counted per thread and
// attributed to adapter or driver by its callers; the same driver work done by hand is shown beside it.
#include "adapter_fixture.hpp"
#include "tests/support/allocation_counter.hpp"
#include "tests/support/ze_setup.hpp"

#include <level_zero/ze_api.h>

using namespace zeal_test;

namespace {

constexpr int kWarmUp = 300;
constexpr int kCounted = 2000;

using Counts = zeal::test::AllocationCounts;
using zeal::test::count_allocations;

// The driver work of one adapter launch, by hand: arguments, group size, and an
// append that signals an event and waits for the previous one (the in-order chain).
struct RawLevelZero {
  zeal::test::ZeLaunchObjects ze;
  ze_kernel_handle_t kernel = nullptr;

  void create() {
    auto spirv = read_kernel("vector_add.spv");
    zeal::test::ZeCall opened = ze.open(spirv, 3);
    ASSERT_EQ(opened.result, ZE_RESULT_SUCCESS) << opened.name;
    ASSERT_EQ(zeal::test::create_kernel(ze.module, "scale", kernel), ZE_RESULT_SUCCESS);
  }
  void destroy() {
    zeKernelDestroy(kernel);
    ze.close();
  }
  // One launch: waits for the previous launch's event, signals its own. Three
  // events rotate: the one signalled three launches ago is reset once the launch
  // that waited for it (two ago) is complete, as the adapter's recycling does.
  void launch(int i, int *out, const int &factor) {
    const std::vector<ze_event_handle_t> &events = ze.events;
    ze_event_handle_t signal = events[i % 3], previous = events[(i + 2) % 3];
    if (i >= 2) zeEventHostSynchronize(events[(i + 1) % 3], UINT64_MAX);
    if (i >= 3) zeEventHostReset(signal);
    zeKernelSetArgumentValue(kernel, 0, sizeof(out), &out);
    zeKernelSetArgumentValue(kernel, 1, sizeof(int), &factor);
    zeKernelSetGroupSize(kernel, 64, 1, 1);
    ze_group_count_t groups{4, 1, 1};
    zeCommandListAppendLaunchKernel(ze.list, kernel, &groups, signal, i == 0 ? 0 : 1, i == 0 ? nullptr : &previous);
  }
};

} // namespace

TEST_F(AdapterTest, SteadyStateLaunchAndFinishAllocateNothingInTheAdapter) {
  Scale scale;
  ASSERT_NO_FATAL_FAILURE(make_scale(scale, 256, 3));
  const auto launch = launch_1d(256, 64, 2, scale.args);
  auto adapter_launches = [&](int n) {
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(d.enqueueKernelLaunch(queue, scale.kernel, &launch, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS);
  };
  adapter_launches(kWarmUp);
  ASSERT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
  adapter_launches(kWarmUp);
  Counts by_adapter = count_allocations([&] { adapter_launches(kCounted); });
  Counts finish = count_allocations([&] { ASSERT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS); });
  EXPECT_EQ(scale.out[255], 255 * scale.factor);

  RawLevelZero raw;
  raw.create();
  ASSERT_FALSE(HasFatalFailure());
  for (int i = 0; i < kWarmUp; ++i) raw.launch(i, scale.out, scale.factor);
  Counts by_hand = count_allocations([&] {
    for (int i = kWarmUp; i < kWarmUp + kCounted; ++i) raw.launch(i, scale.out, scale.factor);
  });
  zeEventHostSynchronize(raw.ze.events[(kWarmUp + kCounted - 1) % 3], UINT64_MAX);
  raw.destroy();

  std::printf("allocations per launch: %.3f through the adapter (%zu of them by the adapter in %d launches), "
              "%.3f for the same driver work by hand; queueFinish: %zu (%zu by the adapter)\n",
              static_cast<double>(by_adapter.all) / kCounted, by_adapter.adapter, kCounted,
              static_cast<double>(by_hand.all) / kCounted, finish.all, finish.adapter);
  EXPECT_EQ(by_adapter.adapter, 0u) << "the adapter allocates on the launch path";
  EXPECT_EQ(finish.adapter, 0u) << "the adapter allocates in queueFinish";
  EXPECT_EQ(by_hand.adapter, 0u);
  release_scale(scale);
}
