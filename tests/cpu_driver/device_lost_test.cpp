// Kernels that fault or hang (issue 22; runtime/fault.hpp says what the driver does). A fault loses the device
// for the rest of the process, so each DeviceLost case runs in a process of its own (one ctest entry each).
#include "tests/cpu_driver/test_support.hpp"

#include <csetjmp>
#include <csignal>
#include <cstring>
#include <string>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace zeal::cpu::test {
namespace {

constexpr uint64_t unmapped_address = 0x10; // the first page is never mapped
constexpr uint64_t ten_ms = 10'000'000;

class DeviceLost : public CpuDriver {
protected:
  ze_kernel_handle_t kernel(const char *name, const char *flags = "") {
    ze_module_handle_t module = nullptr;
    std::string log;
    EXPECT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("faults.spv"), module, &log, flags)) << log;
    return module != nullptr ? CpuDriver::kernel(module, name) : nullptr;
  }
  template <class... Args>
  void set_args(ze_kernel_handle_t k, const Args &...args) {
    uint32_t i = 0;
    auto set = [&](size_t size, const void *value) {
      EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, i, size, value)) << "argument " << i;
      ++i;
    };
    (set(sizeof(args), &args), ...);
  }
  // After the fault: every report on the device's work says it is lost, and the process goes on.
  void expect_lost() {
    EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeDeviceGetStatus(device));
    ze_command_list_handle_t list = immediate_list();
    ze_kernel_handle_t k = kernel("ids");
    int *out = shared_array<int>(64);
    set_args(k, out);
    ze_group_count_t one{1, 1, 1};
    EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeCommandListAppendLaunchKernel(list, k, &one, nullptr, 0, nullptr))
        << "nothing more runs on a lost device";
    for (int i = 0; i < 64; ++i) EXPECT_EQ(0, out[i]);
  }
  // Work-items between barriers, built with `flags`: run as fibers (the work-group's other work-items are
  // suspended when one faults) or as the loops of barrier regions; 32 groups over the device's threads.
  void fault_after_barrier(const char *flags, bool cooperative = false) {
    ze_kernel_handle_t k = kernel("fault_after_barrier", flags);
    ASSERT_NE(nullptr, k);
    constexpr uint32_t group = 64;
    int *out = shared_array<int>(32 * group);
    uint64_t address = unmapped_address;
    int which = 37;
    ZE_EXPECT_OK(zeKernelSetArgumentValue(k, 0, sizeof(out), &out));
    ZE_EXPECT_OK(zeKernelSetArgumentValue(k, 1, group * sizeof(int), nullptr));
    ZE_EXPECT_OK(zeKernelSetArgumentValue(k, 2, sizeof(address), &address));
    ZE_EXPECT_OK(zeKernelSetArgumentValue(k, 3, sizeof(which), &which));
    ZE_ASSERT_OK(zeKernelSetGroupSize(k, group, 1, 1));
    ze_command_list_handle_t list = immediate_list();
    ze_event_handle_t done = event();
    ze_group_count_t groups{32, 1, 1};
    if (cooperative) {
      uint32_t at_once = 0;
      ZE_ASSERT_OK(zeKernelSuggestMaxCooperativeGroupCount(k, &at_once));
      ASSERT_GE(at_once, 32u) << "groups of 64 on 4 threads: 1024 work-items per thread";
      ZE_ASSERT_OK(zeCommandListAppendLaunchCooperativeKernel(list, k, &groups, done, 0, nullptr));
    } else {
      ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &groups, done, 0, nullptr));
    }
    EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeEventHostSynchronize(done, UINT64_MAX));
  }
};

TEST_F(DeviceLost, AWriteToUnmappedMemoryLosesTheDeviceNotTheProcess) {
  ze_kernel_handle_t bad = kernel("fault_write");
  ze_kernel_handle_t good = kernel("ids");
  constexpr uint32_t n = 4096;
  int *out = shared_array<int>(n), *after = shared_array<int>(n), *copied = shared_array<int>(n);
  set_args(bad, out, unmapped_address, int(n / 2));
  set_args(good, after);
  ZE_ASSERT_OK(zeKernelSetGroupSize(bad, 64, 1, 1));
  ZE_ASSERT_OK(zeKernelSetGroupSize(good, 64, 1, 1));
  ze_command_list_handle_t list = regular_list();
  ze_event_handle_t faulted = event(), skipped = event(), copy_skipped = event();
  ze_group_count_t groups{n / 64, 1, 1};
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, bad, &groups, faulted, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, good, &groups, skipped, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListAppendMemoryCopy(list, copied, after, n * sizeof(int), copy_skipped, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListClose(list));
  ze_command_queue_handle_t q = make_queue();
  ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeCommandQueueSynchronize(q, UINT64_MAX));
  // Every event of the batch is signalled (no wait hangs) and says the device was lost.
  for (ze_event_handle_t e : {faulted, skipped, copy_skipped}) {
    EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeEventHostSynchronize(e, UINT64_MAX));
    EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeEventQueryStatus(e));
  }
  // The commands after the fault did not run.
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(0, after[i]) << i;
    ASSERT_EQ(0, copied[i]) << i;
  }
  EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr));
  // A reset event is an ordinary unsignalled event again.
  ZE_EXPECT_OK(zeEventHostReset(skipped));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(skipped));
  expect_lost();
}

TEST_F(DeviceLost, AnIntegerDivisionByZeroLosesTheDevice) {
  ze_kernel_handle_t k = kernel("fault_divide");
  constexpr uint32_t n = 1024;
  int *out = shared_array<int>(n), *num = shared_array<int>(n), *den = shared_array<int>(n);
  for (uint32_t i = 0; i < n; ++i) {
    num[i] = int(i) * 6;
    den[i] = i == 700 ? 0 : 3;
  }
  set_args(k, out, num, den);
  ZE_ASSERT_OK(zeKernelSetGroupSize(k, 16, 1, 1));
  ze_command_list_handle_t list = nullptr;
  ZE_ASSERT_OK(zeal::test::create_immediate_list(context, device, list, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS));
  lists.push_back(list);
  ze_group_count_t groups{n / 16, 1, 1};
  EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr));
  expect_lost();
}

TEST_F(DeviceLost, AFaultOfAWorkItemRunningAsAFiberLosesTheDevice) {
  fault_after_barrier("-zeal-barriers=fibers");
  expect_lost();
}

TEST_F(DeviceLost, AFaultInABarrierRegionLosesTheDevice) {
  fault_after_barrier("-zeal-barriers=regions");
  expect_lost();
}

// Each group of a cooperative launch runs on a thread of its own, made for the launch: a fault there is caught too.
TEST_F(DeviceLost, AFaultInACooperativeLaunchLosesTheDevice) {
  fault_after_barrier("-zeal-barriers=fibers", true);
  expect_lost();
}

// The driver's handlers pass on what is not a kernel's fault: a segmentation fault of the application's own
// code, after the driver ran kernels, still reaches the handler the application installed.
sigjmp_buf application_landing;
volatile sig_atomic_t application_saw = 0;
void application_handler(int signal) {
  application_saw = signal;
  siglongjmp(application_landing, 1);
}

TEST_F(DeviceLost, TheApplicationsOwnFaultsStillReachItsHandler) {
  struct sigaction mine {}, before {};
  mine.sa_handler = application_handler;
  sigemptyset(&mine.sa_mask);
  ASSERT_EQ(0, sigaction(SIGSEGV, &mine, &before));
  // zeInit ran in SetUp; the driver installs its handlers at the first launch, which chain to this one.
  int *out = shared_array<int>(64);
  ze_kernel_handle_t k = kernel("ids");
  set_args(k, out);
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t done = event();
  ze_group_count_t one{1, 1, 1};
  ZE_ASSERT_OK(zeKernelSetGroupSize(k, 64, 1, 1));
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &one, done, 0, nullptr));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  EXPECT_EQ(63, out[63]);
  if (sigsetjmp(application_landing, 1) == 0) {
    volatile uintptr_t address = unmapped_address; // opaque to the compiler
    *reinterpret_cast<volatile int *>(address) = 1; // the application's own bug
    ADD_FAILURE() << "the write to an unmapped address should have faulted";
  }
  EXPECT_EQ(SIGSEGV, application_saw);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetStatus(device)) << "the application's fault is not the device's";
  sigaction(SIGSEGV, &before, nullptr);
}

// ---- hung kernels ----

using HungKernel = DeviceLost;

TEST_F(HungKernel, SynchronizeWithATimeoutReturnsNotReadyUntilTheKernelEnds) {
  ze_kernel_handle_t k = kernel("spin");
  int *flag = shared_array<int>(1), *out = shared_array<int>(1);
  set_args(k, flag, out);
  ZE_ASSERT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
  ze_command_list_handle_t list = regular_list();
  ze_event_handle_t done = event();
  ze_group_count_t one{1, 1, 1};
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &one, done, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListClose(list));
  ze_command_queue_handle_t q = make_queue();
  ze_fence_desc_t fence_desc{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
  ze_fence_handle_t fence = nullptr;
  ZE_ASSERT_OK(zeFenceCreate(q, &fence_desc, &fence));
  ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, fence));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeCommandQueueSynchronize(q, ten_ms));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, ten_ms));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, ten_ms));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetStatus(device)) << "a slow kernel is not a lost device";
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(q, UINT64_MAX));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, 0));
  EXPECT_EQ(1, out[0]);
  ZE_EXPECT_OK(zeFenceDestroy(fence));
}

// The child of the next test: launches a kernel that never ends, sees that a synchronization with a timeout
// says so, and returns from main with the kernel still spinning.
int spin_and_exit() {
  if (zeInit(0) != ZE_RESULT_SUCCESS) return 2;
  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;
  if (zeal::test::open_first_device(driver, device, context).result != ZE_RESULT_SUCCESS) return 2;
  ze_module_handle_t module = nullptr;
  ze_kernel_handle_t k = nullptr;
  if (zeal::test::create_module(context, device, read_kernel("faults.spv"), module) != ZE_RESULT_SUCCESS ||
      zeal::test::create_kernel(module, "spin", k) != ZE_RESULT_SUCCESS)
    return 2;
  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void *memory = nullptr;
  if (zeMemAllocShared(context, &device_desc, &host_desc, 64, 0, device, &memory) != ZE_RESULT_SUCCESS) return 2;
  int *flag = static_cast<int *>(memory), *out = flag + 1;
  zeKernelSetArgumentValue(k, 0, sizeof(flag), &flag);
  zeKernelSetArgumentValue(k, 1, sizeof(out), &out);
  zeKernelSetGroupSize(k, 1, 1, 1);
  ze_command_list_desc_t list_desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
  ze_command_list_handle_t list = nullptr;
  ze_command_queue_desc_t queue_desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                     ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_queue_handle_t queue = nullptr;
  ze_group_count_t one{1, 1, 1};
  if (zeCommandListCreate(context, device, &list_desc, &list) != ZE_RESULT_SUCCESS ||
      zeCommandListAppendLaunchKernel(list, k, &one, nullptr, 0, nullptr) != ZE_RESULT_SUCCESS ||
      zeCommandListClose(list) != ZE_RESULT_SUCCESS ||
      zeCommandQueueCreate(context, device, &queue_desc, &queue) != ZE_RESULT_SUCCESS ||
      zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr) != ZE_RESULT_SUCCESS)
    return 2;
  if (zeCommandQueueSynchronize(queue, ten_ms) != ZE_RESULT_NOT_READY) return 3;
  std::printf("spin_and_exit: the kernel spins; returning from main\n");
  std::fflush(stdout);
  return 0; // static destructors run while the kernel spins
}

TEST(HungKernelAtExit, TheProcessExitsCleanlyWhileAKernelSpins) {
  int pipe_fds[2];
  ASSERT_EQ(0, pipe(pipe_fds));
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], 1);
    close(pipe_fds[0]);
    setenv("ASAN_OPTIONS", "detect_leaks=0", 1); // the spinning kernel's objects are never destroyed
    execl("/proc/self/exe", "device_lost_test", "--spin-and-exit", static_cast<char *>(nullptr));
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string output;
  char buffer[512];
  pollfd pfd{pipe_fds[0], POLLIN, 0};
  // Sixty seconds for the child to say its piece and end.
  for (int waited_ms = 0; waited_ms < 60'000;) {
    int ready = poll(&pfd, 1, 100);
    if (ready > 0) {
      ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
      if (got <= 0) break; // the child closed its end: it has ended
      output.append(buffer, size_t(got));
    } else {
      waited_ms += 100;
    }
  }
  close(pipe_fds[0]);
  int status = 0;
  pid_t ended = waitpid(pid, &status, WNOHANG);
  for (int i = 0; ended == 0 && i < 50; ++i) {
    usleep(100'000);
    ended = waitpid(pid, &status, WNOHANG);
  }
  if (ended == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL() << "the process did not end while its kernel spun\n" << output;
  }
  EXPECT_NE(output.find("returning from main"), std::string::npos) << output;
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status) << "\n" << output;
  EXPECT_EQ(0, WEXITSTATUS(status)) << output;
}

} // namespace
} // namespace zeal::cpu::test

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--spin-and-exit") == 0) return zeal::cpu::test::spin_and_exit();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
