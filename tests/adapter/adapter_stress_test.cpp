// Thread-safety stress: one kernel launched from several threads and queues, objects created and released at once.
#include "adapter_fixture.hpp"

#include <atomic>
#include <thread>

using namespace zeal_test;

namespace {
constexpr int kThreads = 4;
} // namespace

// Each thread has its own queue and output, all share one kernel; half the
// threads pass arguments with the launch, half through kernelSetArg on a kernel of
// their own, so both paths race with each other.
TEST_F(AdapterTest, ManyThreadsLaunchingOneKernelEachGetTheirOwnArguments) {
  zeal_program_handle_t program = build("vector_add.spv");
  ASSERT_NE(program, nullptr);
  zeal_kernel_handle_t shared = kernel_of(program, "scale");
  constexpr size_t n = 1024;
  constexpr int rounds = 40;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      zeal_queue_handle_t q = nullptr;
      if (d.queueCreate(context, device, t % 2 ? ZEAL_QUEUE_FLAG_OUT_OF_ORDER : 0, &q) != ZEAL_RESULT_SUCCESS) {
        ++failures;
        return;
      }
      int *out = nullptr;
      d.usmAlloc(context, device, ZEAL_USM_KIND_SHARED, n * sizeof(int), 0, reinterpret_cast<void **>(&out));
      zeal_kernel_handle_t own = nullptr;
      d.kernelCreate(program, "scale", &own);
      for (int round = 0; round < rounds; ++round) {
        const int factor = t * 1000 + round;
        const zeal_kernel_arg_t args[] = {usm_arg(0, out), {1, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &factor}};
        zeal_event_handle_t done = nullptr;
        zeal_result_t r;
        if (t % 2 == 0) {
          auto launch = launch_1d(n, round % 2 ? 0 : 64, 2, args);
          r = d.enqueueKernelLaunch(q, shared, &launch, 0, nullptr, &done);
        } else {
          d.kernelSetArg(own, &args[0]);
          d.kernelSetArg(own, &args[1]);
          auto launch = launch_1d(n, 32);
          r = d.enqueueKernelLaunch(q, own, &launch, 0, nullptr, &done);
        }
        if (r != ZEAL_RESULT_SUCCESS || d.eventWait(1, &done) != ZEAL_RESULT_SUCCESS) {
          ++failures;
          continue;
        }
        d.eventRelease(done);
        for (size_t i = 0; i < n; ++i)
          if (out[i] != static_cast<int>(i) * factor) {
            ++failures;
            break;
          }
      }
      d.kernelRelease(own);
      d.usmFree(context, out);
      d.queueRelease(q);
    });
  for (auto &th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(d.kernelRelease(shared), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
}

// Contexts, queues, programs, kernels and events made and dropped from several
// threads at once, with links of shared objects in between.
TEST_F(AdapterTest, ObjectsCreatedAndReleasedConcurrentlyStayConsistent) {
  auto spirv = read_kernel("link_other.spv");
  zeal_program_handle_t shared_object = nullptr;
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 0, nullptr};
  ASSERT_EQ(d.programCreate(context, device, &desc, &shared_object), ZEAL_RESULT_SUCCESS);
  ASSERT_EQ(d.programCompile(shared_object, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int round = 0; round < 3; ++round) {
        zeal_context_handle_t c = nullptr;
        zeal_queue_handle_t q = nullptr;
        zeal_program_handle_t linked = nullptr;
        zeal_kernel_handle_t k = nullptr;
        zeal_event_handle_t e = nullptr;
        int *out = nullptr;
        bool ok = d.contextCreate(1, &device, &c) == ZEAL_RESULT_SUCCESS &&
                  d.queueCreate(context, device, 0, &q) == ZEAL_RESULT_SUCCESS &&
                  d.programLink(context, device, 1, &shared_object, nullptr, &linked) == ZEAL_RESULT_SUCCESS &&
                  d.kernelCreate(linked, "other_kernel", &k) == ZEAL_RESULT_SUCCESS &&
                  d.usmAlloc(context, device, ZEAL_USM_KIND_SHARED, 64 * sizeof(int), 0,
                             reinterpret_cast<void **>(&out)) == ZEAL_RESULT_SUCCESS;
        if (ok) {
          const zeal_kernel_arg_t args[] = {usm_arg(0, out)};
          auto launch = launch_1d(64, 0, 1, args);
          ok = d.enqueueKernelLaunch(q, k, &launch, 0, nullptr, &e) == ZEAL_RESULT_SUCCESS &&
               d.programRelease(linked) == ZEAL_RESULT_SUCCESS; // the kernel keeps the program alive
          linked = nullptr;
          ok = ok && d.eventWait(1, &e) == ZEAL_RESULT_SUCCESS && out[63] == 5;
        }
        if (!ok) ++failures;
        if (e) d.eventRelease(e);
        if (k) d.kernelRelease(k);
        if (linked) d.programRelease(linked);
        if (out) d.usmFree(context, out);
        if (q) d.queueRelease(q);
        if (c) d.contextRelease(c);
      }
    });
  for (auto &th : threads) th.join();
  EXPECT_EQ(failures.load(), 0) << last_error();
  EXPECT_EQ(d.programRelease(shared_object), ZEAL_RESULT_SUCCESS);
}
