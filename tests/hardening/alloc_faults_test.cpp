// Host allocation failures (issue 22). tests/support/allocation_counter.cpp replaces the global operator new, so
// every C++ allocation of the adapter and the CPU driver goes through it, and can make one of them fail: the k-th
// allocation the calling thread makes from now on. Each zeal call below is made again and again with k = 1, 2, ...
// until a call makes fewer than k allocations: each time it must succeed or return
// ZEAL_RESULT_ERROR_OUT_OF_HOST_MEMORY with a sentence, the process must go on, and afterwards the context must work
// and the allocations still live must be no more than before (nothing leaked). Building a program is left out:
// LLVM, the compiler inside the driver, treats a failed allocation as fatal.
#include "tests/support/allocation_counter.hpp"
#include "tests/support/launch_1d.hpp"
#include "tests/support/zeal_launch_objects.hpp"

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

using zeal::test::end_failing_allocation;
using zeal::test::fail_allocation;
using zeal::test::live_allocations;

namespace {

class AllocationFaults : public ::testing::Test {
protected:
  // The driver's persistent code cache writes what a build compiled on a thread of its own, whenever that thread
  // gets a core: its allocations would come and go while the test counts. The cache has tests of its own
  // (cache_faults_test, code_cache_test); here it is off, before the driver is loaded.
  static void SetUpTestSuite() { setenv("ZEAL_CACHE_PERSISTENT", "0", 1); }

  void SetUp() override {
    d_ = &dev_.dispatch();
    std::ifstream in(ZEAL_TEST_TAGGED_SPIRV, std::ios::binary);
    std::vector<uint8_t> spirv{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    zeal_test::ZealLaunchObjects::Call made = z_.create(*d_, dev_.native_handle(), spirv, "tagged", 256 * sizeof(int));
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, made.result) << made.name << ": " << d_->getLastErrorMessage();
  }
  void TearDown() override { z_.release(); }

  // Replaces the queue with a new one. A command's event is signalled before the driver's submission thread lets go
  // of the command (its arguments, its wait list), so after queueFinish those may still be live for a moment, and
  // longer on a busy machine. Releasing the queue ends that thread once it has run everything: the live count is
  // then what the calls left behind and nothing in flight.
  void renew_queue() {
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d_->queueRelease(z_.queue));
    z_.queue = nullptr;
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d_->queueCreate(z_.context, z_.device, ZEAL_QUEUE_FLAG_IN_ORDER, &z_.queue));
  }

  // A launch of `tagged` over 256 items whose result is checked: the context still works.
  void expect_context_works() {
    for (int i = 0; i < 256; ++i) static_cast<int *>(z_.out)[i] = 0;
    const zeal_launch_desc_t launch = tagged_launch();
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d_->enqueueKernelLaunch(z_.queue, z_.kernel, &launch, 0, nullptr, nullptr))
        << d_->getLastErrorMessage();
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d_->queueFinish(z_.queue)) << d_->getLastErrorMessage();
    EXPECT_EQ(3 * 255 + 0x5EED0000, static_cast<int *>(z_.out)[255]);
  }

  // `tagged` over 256 items writing to z_.out.
  zeal_launch_desc_t tagged_launch() {
    arg_ = {0, ZEAL_KERNEL_ARG_USM_POINTER, 0, z_.out};
    return zeal_test::launch_1d(256, 0, 1, &arg_);
  }

  // Runs `call` with its k-th allocation failing, for k = 1, 2, ... until it makes fewer than k; `undo` releases
  // what a successful call made. Returns how many allocations were made to fail.
  long fail_each_allocation(const char *what, const std::function<zeal_result_t()> &call,
                            const std::function<void()> &undo) {
    // Once without failures first, so that lazily made state (loggers, caches) exists before counting.
    EXPECT_EQ(ZEAL_RESULT_SUCCESS, call()) << what << ": " << d_->getLastErrorMessage();
    undo();
    // Twice: the first pass may grow what lives on (a table's buckets, a thread's message buffer); a leak grows
    // again with every failed call of the second. Each pass gets a queue of its own, and the counts are taken
    // with none of the driver's submission threads at work (renew_queue).
    long k = 0, live_after_first = 0;
    for (int pass = 0; pass < 2; ++pass) {
      renew_queue();
      if (pass == 1) live_after_first = live_allocations();
      for (k = 1; k < 100000; ++k) {
        const long live_at_start = live_allocations();
        fail_allocation(k);
        zeal_result_t r = call();
        if (!end_failing_allocation()) {
          EXPECT_EQ(ZEAL_RESULT_SUCCESS, r) << what << " with no failure injected: " << d_->getLastErrorMessage();
          undo();
          break;
        }
        if (r == ZEAL_RESULT_SUCCESS) {
          undo(); // the failure was absorbed (a fallback, or an allocation whose failure only costs speed)
          continue;
        }
        EXPECT_EQ(ZEAL_RESULT_ERROR_OUT_OF_HOST_MEMORY, r) << what << ", allocation " << k << " failing: "
                                                           << zealResultName(r) << ": " << d_->getLastErrorMessage();
        EXPECT_STRNE("", d_->getLastErrorMessage()) << what << ", allocation " << k << ": no sentence";
        if (pass == 1 && std::getenv("ZEAL_TEST_SHOW_GROWTH") != nullptr && live_allocations() > live_at_start)
          std::printf("%s: allocation %ld failing left %ld more live\n", what, k, live_allocations() - live_at_start);
      }
    }
    renew_queue();
    EXPECT_LE(live_allocations(), live_after_first) << what << ": allocations leaked by failed calls";
    expect_context_works();
    return k - 1;
  }

  zeal::device dev_;
  const zeal_adapter_dispatch_t *d_ = nullptr;
  zeal_test::ZealLaunchObjects z_; // device, context, in-order queue, `tagged` and its 256 ints of output
  zeal_kernel_arg_t arg_{};
};

TEST_F(AllocationFaults, ContextAndQueueCreation) {
  zeal_context_handle_t context = nullptr;
  long n = fail_each_allocation(
      "contextCreate", [&] { return d_->contextCreate(1, &z_.device, &context); },
      [&] { d_->contextRelease(context); });
  zeal_queue_handle_t queue = nullptr;
  n += fail_each_allocation(
      "queueCreate", [&] { return d_->queueCreate(z_.context, z_.device, ZEAL_QUEUE_FLAG_OUT_OF_ORDER, &queue); },
      [&] { d_->queueRelease(queue); });
  EXPECT_GT(n, 0) << "the calls should allocate";
}

TEST_F(AllocationFaults, UsmAllocations) {
  for (zeal_usm_kind_t kind : {ZEAL_USM_KIND_HOST, ZEAL_USM_KIND_DEVICE, ZEAL_USM_KIND_SHARED}) {
    void *p = nullptr;
    fail_each_allocation(
        "usmAlloc",
        [&] { return d_->usmAlloc(z_.context, kind == ZEAL_USM_KIND_HOST ? nullptr : z_.device, kind, 4096, 0, &p); },
        [&] { d_->usmFree(z_.context, p); });
  }
}

TEST_F(AllocationFaults, LaunchesCopiesAndEvents) {
  const zeal_launch_desc_t launch = tagged_launch();
  zeal_event_handle_t event = nullptr;
  fail_each_allocation(
      "enqueueKernelLaunch", [&] { return d_->enqueueKernelLaunch(z_.queue, z_.kernel, &launch, 0, nullptr, &event); },
      [&] {
        d_->eventWait(1, &event);
        d_->eventRelease(event);
      });
  std::vector<int> host(256);
  fail_each_allocation(
      "enqueueMemcpy",
      [&] { return d_->enqueueMemcpy(z_.queue, host.data(), z_.out, 256 * sizeof(int), 0, nullptr, &event); },
      [&] {
        d_->eventWait(1, &event);
        d_->eventRelease(event);
      });
  zeal_kernel_handle_t kernel = nullptr;
  fail_each_allocation(
      "kernelCreate", [&] { return d_->kernelCreate(z_.program, "tagged", &kernel); },
      [&] { d_->kernelRelease(kernel); });
}

} // namespace
