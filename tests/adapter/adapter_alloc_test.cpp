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
  ze_context_handle_t context = nullptr;
  ze_device_handle_t device = nullptr;
  ze_command_list_handle_t list = nullptr;
  ze_module_handle_t module = nullptr;
  ze_kernel_handle_t kernel = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t events[3] = {};

  void create() {
    ze_driver_handle_t driver = nullptr;
    zeal::test::ZeCall opened = zeal::test::open_first_device(driver, device, context);
    ASSERT_EQ(opened.result, ZE_RESULT_SUCCESS) << opened.name;
    ASSERT_EQ(zeal::test::create_immediate_list(context, device, list), ZE_RESULT_SUCCESS);
    auto spirv = read_kernel("vector_add.spv");
    ASSERT_EQ(zeal::test::create_module(context, device, spirv, module), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeal::test::create_kernel(module, "scale", kernel), ZE_RESULT_SUCCESS);
    zeal::test::ZeCall events_made = zeal::test::create_host_events(context, pool, events);
    ASSERT_EQ(events_made.result, ZE_RESULT_SUCCESS) << events_made.name;
  }
  void destroy() {
    for (auto e : events) zeEventDestroy(e);
    zeEventPoolDestroy(pool);
    zeKernelDestroy(kernel);
    zeModuleDestroy(module);
    zeCommandListDestroy(list);
    zeContextDestroy(context);
  }
  // One launch: waits for the previous launch's event, signals its own. Three
  // events rotate: the one signalled three launches ago is reset once the launch
  // that waited for it (two ago) is complete, as the adapter's recycling does.
  void launch(int i, int *out, const int &factor) {
    ze_event_handle_t signal = events[i % 3], previous = events[(i + 2) % 3];
    if (i >= 2) zeEventHostSynchronize(events[(i + 1) % 3], UINT64_MAX);
    if (i >= 3) zeEventHostReset(signal);
    zeKernelSetArgumentValue(kernel, 0, sizeof(out), &out);
    zeKernelSetArgumentValue(kernel, 1, sizeof(int), &factor);
    zeKernelSetGroupSize(kernel, 64, 1, 1);
    ze_group_count_t groups{4, 1, 1};
    zeCommandListAppendLaunchKernel(list, kernel, &groups, signal, i == 0 ? 0 : 1, i == 0 ? nullptr : &previous);
  }
};

} // namespace

TEST_F(AdapterTest, SteadyStateLaunchAndFinishAllocateNothingInTheAdapter) {
  zeal_program_handle_t program = build("vector_add.spv");
  ASSERT_NE(program, nullptr);
  zeal_kernel_handle_t k = kernel_of(program, "scale");
  int *out = alloc<int>(256);
  const int factor = 3;
  const zeal_kernel_arg_t args[] = {usm_arg(0, out), {1, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &factor}};
  const auto launch = launch_1d(256, 64, 2, args);
  auto adapter_launches = [&](int n) {
    for (int i = 0; i < n; ++i) ASSERT_EQ(d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS);
  };
  adapter_launches(kWarmUp);
  ASSERT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
  adapter_launches(kWarmUp);
  Counts by_adapter = count_allocations([&] { adapter_launches(kCounted); });
  Counts finish = count_allocations([&] { ASSERT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS); });
  EXPECT_EQ(out[255], 255 * factor);

  RawLevelZero raw;
  raw.create();
  ASSERT_FALSE(HasFatalFailure());
  for (int i = 0; i < kWarmUp; ++i) raw.launch(i, out, factor);
  Counts by_hand = count_allocations([&] {
    for (int i = kWarmUp; i < kWarmUp + kCounted; ++i) raw.launch(i, out, factor);
  });
  zeEventHostSynchronize(raw.events[(kWarmUp + kCounted - 1) % 3], UINT64_MAX);
  raw.destroy();

  std::printf("allocations per launch: %.3f through the adapter (%zu of them by the adapter in %d launches), "
              "%.3f for the same driver work by hand; queueFinish: %zu (%zu by the adapter)\n",
              static_cast<double>(by_adapter.all) / kCounted, by_adapter.adapter, kCounted,
              static_cast<double>(by_hand.all) / kCounted, finish.all, finish.adapter);
  EXPECT_EQ(by_adapter.adapter, 0u) << "the adapter allocates on the launch path";
  EXPECT_EQ(finish.adapter, 0u) << "the adapter allocates in queueFinish";
  EXPECT_EQ(by_hand.adapter, 0u);
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, out), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
}
