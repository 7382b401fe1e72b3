// The CUDA driver while a stream waits for the host (issue 49): lists longer than a CUDA stream holds pending, played
// against each other through events (level-zero-tests' ping-pongs), and modules built, launched and destroyed before
// the host signals. They run on the GPU and, in CI, on the fake CUDA library (cuda_driver_test.fake), which keeps
// the rules that made them hang: a stream's bounded pending operations, waits on words, loads that wait.
#include "cuda_driver_fixture.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

namespace zeal::test {
namespace {

// Two events of a host-visible pool and a queue with a regular list, for the tests that play lists against each
// other (and the host) through events.
class CudaDriverTwoEvents : public CudaDriver {
protected:
  void SetUp() override {
    CudaDriver::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event_pool(context, 2, pool));
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event(pool, 0, ev0));
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event(pool, 1, ev1));
    ASSERT_NO_FATAL_FAILURE(queue_and_regular_list(queue, regular));
  }
  void TearDown() override {
    if (regular != nullptr) zeCommandListDestroy(regular);
    if (queue != nullptr) zeCommandQueueDestroy(queue);
    for (ze_event_handle_t e : {ev1, ev0})
      if (e != nullptr) zeEventDestroy(e);
    if (pool != nullptr) zeEventPoolDestroy(pool);
    CudaDriver::TearDown();
  }

  // vector_add's arrays (shared memory), and a launch of it over them in groups of 256 signalling `signal`.
  template <class Arrays>
  void vector_add_arrays(Arrays &v) {
    for (float **p : {&v.a, &v.b, &v.c}) {
      *p = static_cast<float *>(shared_memory(v.n * sizeof(float)));
      ASSERT_NE(nullptr, *p);
    }
    for (uint32_t i = 0; i < v.n; ++i) v.a[i] = float(i), v.b[i] = float(2 * i), v.c[i] = -1;
  }
  template <class Arrays>
  void free_vector_add_arrays(Arrays &v) {
    for (float *p : {v.a, v.b, v.c}) zeMemFree(context, p);
  }
  template <class Arrays>
  void set_vector_add_arguments(ze_kernel_handle_t kernel, const Arrays &v) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, 8, &v.a));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 1, 8, &v.b));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 2, 8, &v.c));
  }
  template <class Arrays>
  void append_vector_add(ze_command_list_handle_t to, ze_kernel_handle_t kernel, const Arrays &v,
                         ze_event_handle_t signal) {
    ASSERT_NO_FATAL_FAILURE(set_vector_add_arguments(kernel, v));
    const ze_group_count_t groups{v.n / 256, 1, 1}; // groups of 256, which the tests set
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(to, kernel, &groups, signal, 0, nullptr));
  }

  // The end of a ping-pong of `rounds` through ev0 and ev1 whose regular list is on `queue`: the queue finishes, the
  // last signal is ev0's and ev1 is reset. When it stopped instead, both sides are released so that the test ends.
  void expect_ping_pong_ended(int rounds) {
    const ze_result_t finished = zeCommandQueueSynchronize(queue, 60'000'000'000ull);
    EXPECT_EQ(ZE_RESULT_SUCCESS, finished) << "the ping-pong stopped";
    if (finished == ZE_RESULT_SUCCESS) {
      EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(ev0, 60'000'000'000ull));
      EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(ev1));
      return;
    }
    for (int i = 0; i < 2 * rounds; ++i) {
      zeEventHostSignal(ev0);
      zeEventHostSignal(ev1);
    }
  }

  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t ev0 = nullptr, ev1 = nullptr;
  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t regular = nullptr;
};

// How many rounds the ping-pongs below play: level-zero-tests' 10,000, 30,000 commands a side, more than a CUDA
// stream holds pending.
constexpr int ping_pong_rounds = 10'000;

// A ping-pong of two lists through two events (level-zero-tests' mixed-list case): a regular list executed first
// waits for ev0, resets it and signals ev1, many times over, before the immediate list that answers (waits for ev1,
// resets it, signals ev0) is even appended. Each wait must be released by the other side's next signal, not its
// last: a CUDA event recorded for every signal stands for the latest record only, so only a slot's first signal
// (with no reset since) is recorded, and the later ones write the event's word. The regular list's 30,000 commands
// are more than a CUDA stream holds pending: its queue's feeder thread enqueues them while the stream waits for
// the host, so that zeCommandQueueExecuteCommandLists returns and the host can signal. The host signals ev0 before
// the feeder has enqueued the regular list's first wait, and the immediate list's first signal of ev0 then must not
// be a CUDA event that the wait would wait for (ev0 is signalled already).
TEST_F(CudaDriverTwoEvents, TwoListsPingPongThroughTwoEventsARegularOneExecutedFirst) {
  constexpr int rounds = ping_pong_rounds;
  for (int i = 0; i < rounds; ++i) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(regular, 1, &ev0));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendEventReset(regular, ev0));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendSignalEvent(regular, ev1));
  }
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(ev0));
  for (int i = 0; i < rounds; ++i) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(list, 1, &ev1));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendEventReset(list, ev1));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendSignalEvent(list, ev0));
  }
  expect_ping_pong_ended(rounds);
}

// The same ping-pong with the immediate list appended first: its stream waits for ev0, which the host signals only
// after all 30,000 appends (and the regular list's, interleaved), so the appends past what a stream holds go to the
// list's feeder instead of waiting in CUDA for a stream that cannot move; then the host signals and the queue
// executes the regular list.
TEST_F(CudaDriverTwoEvents, TwoListsPingPongThroughTwoEventsAnImmediateOneAppendedFirst) {
  constexpr int rounds = ping_pong_rounds;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds; ++i) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(list, 1, &ev0));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendEventReset(list, ev0));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendSignalEvent(list, ev1));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(regular, 1, &ev1));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendEventReset(regular, ev1));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendSignalEvent(regular, ev0));
  }
  const double append_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(append_seconds, 30.0) << "the appends waited for a stream that waits for the host";
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(ev0));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));
  expect_ping_pong_ended(rounds);
}

// Signals `event` from the host after 20 s unless disarmed first: a test that would hang waiting for its own
// thread's signal fails instead.
class Watchdog {
public:
  explicit Watchdog(ze_event_handle_t event)
      : thread_([this, event] {
          for (int i = 0; i < 2000 && !disarmed_.load(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
          if (!disarmed_.load()) {
            fired_ = true;
            zeEventHostSignal(event);
          }
        }) {}
  ~Watchdog() { disarm(); }
  // Whether it had to signal; it will not from now on.
  bool disarm() {
    disarmed_ = true;
    if (thread_.joinable()) thread_.join();
    return fired_.load();
  }
  bool fired() const { return fired_.load(); }

private:
  std::atomic<bool> disarmed_{false}, fired_{false};
  std::thread thread_;
};

// Three arrays for vector_add: a[i] = i, b[i] = 2i, c[i] = -1 until the kernel writes 3i.
struct VectorAddArrays {
  static constexpr uint32_t n = 1 << 16;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  bool added() const {
    for (uint32_t i = 0; i < n; ++i)
      if (c[i] != float(3 * i)) return false;
    return true;
  }
};

// CUDA loads and unloads code only when no stream waits: with a queue waiting for an event the host signals later,
// zeModuleCreate, zeKernelCreate, the group-size suggestion, a launch's append and zeModuleDestroy all return on the
// application's thread before the host signals (the code loader loads the module meanwhile, and the immediate
// list's feeder enqueues the launch once it is loaded); then the host signals and everything runs.
TEST_F(CudaDriverTwoEvents, AModuleBuiltWhileAQueueWaitsForTheHostIsMadeBeforeTheSignalAndRunsAfterIt) {
  const std::vector<uint8_t> spirv = read_kernel("vector_add");
  ze_module_handle_t earlier = nullptr;
  ASSERT_NO_FATAL_FAILURE(build(spirv, earlier)); // loaded before the queue waits; destroyed while it does
  ze_event_handle_t go = ev0, done = ev1;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(regular, 1, &go));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));

  Watchdog watchdog(go);
  VectorAddArrays v{};
  ASSERT_NO_FATAL_FAILURE(vector_add_arrays(v));
  ze_module_handle_t module = nullptr;
  ze_kernel_handle_t kernel = nullptr;
  const ze_result_t built = create_module(context, device, spirv, module);
  const ze_result_t made = built == ZE_RESULT_SUCCESS ? create_kernel(module, "vector_add", kernel) : built;
  uint32_t x = 0, y = 0, z = 0;
  if (made == ZE_RESULT_SUCCESS) {
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSuggestGroupSize(kernel, v.n, 1, 1, &x, &y, &z));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, x, y, z));
    EXPECT_NO_FATAL_FAILURE(append_vector_add(list, kernel, v, done));
  }
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleDestroy(earlier));
  const bool before_signal = !watchdog.fired();
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(go));
  watchdog.disarm();
  EXPECT_TRUE(before_signal) << "zeModuleCreate, zeKernelCreate or an append waited for the host's signal";
  ASSERT_EQ(ZE_RESULT_SUCCESS, built);
  ASSERT_EQ(ZE_RESULT_SUCCESS, made);
  EXPECT_EQ(256u, x) << "the suggestion while the module loads is the one after";
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, 20'000'000'000ull));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(queue, 20'000'000'000ull));
  EXPECT_TRUE(v.added());
  auto properties = ze_desc<ze_kernel_properties_t>();
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelGetProperties(kernel, &properties));
  EXPECT_EQ(3u, properties.numKernelArgs);
  free_vector_add_arrays(v);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

// While a queue waits for the host: a regular list that launches a kernel of a module still loading is executed on
// a second queue without waiting (its queue's feeder enqueues it once the module is loaded), and a module destroyed
// before its load is done goes when the load is (the code loader unloads what it loaded for nobody). On the fake
// CUDA library each load takes 200 ms here, so that both happen while the loads are pending.
TEST_F(CudaDriverTwoEvents, ARegularListOfAModuleStillLoadingAndAModuleDestroyedWhileLoadingDoNotWaitForTheHost) {
  const std::vector<uint8_t> spirv = read_kernel("vector_add");
  ze_event_handle_t go = ev0, done = ev1;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(regular, 1, &go));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));
  ze_command_queue_handle_t second = nullptr;
  ze_command_list_handle_t launches = nullptr;
  ASSERT_NO_FATAL_FAILURE(queue_and_regular_list(second, launches));

  Watchdog watchdog(go);
  VectorAddArrays v{};
  ASSERT_NO_FATAL_FAILURE(vector_add_arrays(v));
  setenv("ZEAL_FAKE_CUDA_LOAD_MS", "200", 1);
  ze_module_handle_t module = nullptr, dropped = nullptr;
  ze_kernel_handle_t kernel = nullptr;
  const ze_result_t built = create_module(context, device, spirv, module);
  const ze_result_t made = built == ZE_RESULT_SUCCESS ? create_kernel(module, "vector_add", kernel) : built;
  if (made == ZE_RESULT_SUCCESS) {
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 256, 1, 1));
    EXPECT_NO_FATAL_FAILURE(append_vector_add(launches, kernel, v, done));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(launches));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(second, 1, &launches, nullptr));
  }
  EXPECT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, spirv, dropped));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleDestroy(dropped));
  unsetenv("ZEAL_FAKE_CUDA_LOAD_MS");
  const bool before_signal = !watchdog.fired();
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(go));
  watchdog.disarm();
  EXPECT_TRUE(before_signal) << "an execution, zeModuleCreate or zeModuleDestroy waited for the host's signal";
  ASSERT_EQ(ZE_RESULT_SUCCESS, made);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(second, 20'000'000'000ull));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(done));
  EXPECT_TRUE(v.added());
  free_vector_add_arrays(v);
  zeCommandListDestroy(launches);
  zeCommandQueueDestroy(second);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

// CUDA copies from and into pageable host memory (the application's own, or a fill's pattern) only once the stream
// has run what is before the copy, on the thread that enqueues it: after a wait for the host, a fill with an 8-byte
// pattern and a copy into a std::vector are appended on the immediate list before the host signals (its feeder
// enqueues them), and run after.
TEST_F(CudaDriverTwoEvents, AFillAndACopyIntoPageableMemoryAfterAWaitForTheHostAreAppendedBeforeTheSignal) {
  constexpr size_t bytes = 4096;
  void *on_device = device_memory(bytes);
  ASSERT_NE(nullptr, on_device);
  std::vector<uint8_t> pageable(bytes, 0);
  const uint64_t pattern = 0x0102030405060708ull;
  ze_event_handle_t go = ev0, done = ev1;
  Watchdog watchdog(go);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(list, 1, &go));
  EXPECT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendMemoryFill(list, on_device, &pattern, sizeof pattern, bytes, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendMemoryCopy(list, pageable.data(), on_device, bytes, done, 0, nullptr));
  const bool before_signal = !watchdog.fired();
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(go));
  watchdog.disarm();
  EXPECT_TRUE(before_signal) << "an append waited for the host's signal";
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, 20'000'000'000ull));
  for (size_t i = 0; i < bytes; ++i)
    ASSERT_EQ(uint8_t(pattern >> (8 * (i % 8))), pageable[i]) << "byte " << i;
  zeMemFree(context, on_device);
}

// A stream never waits for a signal no stream holds yet: its feeder waits for it on the host. So while a queue's list
// waits for an event the host signals later, CUDA's loads do not wait either, and what needs a module loaded answers
// before the signal: a dynamic link and its variable's address, a function pointer (its module joins the joint
// module), a kernel's properties.
TEST_F(CudaDriverTwoEvents, LinkingFunctionPointersGlobalsAndKernelPropertiesAnswerWhileAQueueWaitsForTheHost) {
  ze_event_handle_t go = ev0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(regular, 1, &go));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));
  Watchdog watchdog(go);
  ze_module_handle_t library = nullptr, user = nullptr, pointers = nullptr;
  EXPECT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, read_kernel("link_library"), library,
                                             "-library-compilation"));
  EXPECT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, read_kernel("link_user"), user));
  ze_module_handle_t both[] = {user, library};
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleDynamicLink(2, both, nullptr));
  void *offset = nullptr;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleGetGlobalPointer(library, "link_offset", nullptr, &offset));
  EXPECT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, read_kernel("function_pointer_self"), pointers));
  void *add = nullptr;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleGetFunctionPointer(pointers, "add_int", &add));
  ze_kernel_handle_t kernel = nullptr;
  EXPECT_EQ(ZE_RESULT_SUCCESS, create_kernel(user, "use_helper", kernel));
  auto properties = ze_desc<ze_kernel_properties_t>();
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelGetProperties(kernel, &properties));
  const bool before_signal = !watchdog.fired();
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(go));
  watchdog.disarm();
  EXPECT_TRUE(before_signal) << "linking, a global's address, a function pointer or kernel properties waited for "
                                "the host's signal";
  EXPECT_NE(nullptr, offset);
  EXPECT_NE(nullptr, add);
  EXPECT_EQ(1u, properties.numKernelArgs);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(queue, 20'000'000'000ull));
  zeKernelDestroy(kernel);
  for (ze_module_handle_t m : {pointers, user, library}) zeModuleDestroy(m);
}


// Indirect launches after a wait for the host read their group counts (and how many kernels run) when the commands
// before them are done, not at the append: on the immediate list, after a wait for the host, a copy of the counts
// into device memory and two kernels' indirect launch of which the count lets one run are appended; the same again
// in a regular list executed on the queue. The host writes the counts only after the appends, then signals.
// Everything is appended before the signal (the streams' feeders make the launches), and only the first kernels run.
TEST_F(CudaDriverTwoEvents, IndirectLaunchesAfterAWaitForTheHostReadTheCountsTheCommandsBeforeThemWrote) {
  ze_module_handle_t module = nullptr;
  ASSERT_NO_FATAL_FAILURE(build(read_kernel("vector_add"), module));
  VectorAddArrays on_list{}, on_queue{}, never{};
  VectorAddArrays *arrays[3] = {&on_list, &on_queue, &never}; // kernels[k]'s
  ze_kernel_handle_t kernels[3] = {};
  for (int k = 0; k < 3; ++k) {
    ASSERT_NO_FATAL_FAILURE(vector_add_arrays(*arrays[k]));
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "vector_add", kernels[k]));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernels[k], 256, 1, 1));
    ASSERT_NO_FATAL_FAILURE(set_vector_add_arguments(kernels[k], *arrays[k]));
  }
  // What the host writes after the appends: a group count each for two kernels, and a kernel count of one.
  struct Counts {
    ze_group_count_t groups[2];
    uint32_t kernels;
  };
  auto *written = static_cast<Counts *>(shared_memory(sizeof(Counts)));
  ASSERT_NE(nullptr, written);
  *written = Counts{{{0, 0, 0}, {0, 0, 0}}, 0};
  auto *read = static_cast<Counts *>(device_memory(2 * sizeof(Counts))); // one for each list
  ASSERT_NE(nullptr, read);
  ze_event_handle_t go = ev0, done = ev1;
  Watchdog watchdog(go);
  ze_kernel_handle_t list_kernels[2] = {kernels[0], kernels[2]}, queue_kernels[2] = {kernels[1], kernels[2]};
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(list, 1, &go));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, &read[0], written, sizeof(Counts), nullptr, 0,
                                                             nullptr));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchMultipleKernelsIndirect(
                                   list, 2, list_kernels, &read[0].kernels, read[0].groups, done, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(regular, 1, &go));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(regular, &read[1], written, sizeof(Counts), nullptr, 0,
                                                             nullptr));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchMultipleKernelsIndirect(
                                   regular, 2, queue_kernels, &read[1].kernels, read[1].groups, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));
  const bool before_signal = !watchdog.fired();
  *written = Counts{{{VectorAddArrays::n / 256, 1, 1}, {VectorAddArrays::n / 256, 1, 1}}, 1};
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(go));
  watchdog.disarm();
  EXPECT_TRUE(before_signal) << "an append or the execution waited for the host's signal";
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, 20'000'000'000ull));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(queue, 20'000'000'000ull));
  EXPECT_TRUE(on_list.added()) << "the immediate list's kernel did not run over the counts the host wrote";
  EXPECT_TRUE(on_queue.added()) << "the regular list's kernel did not run over the counts the host wrote";
  EXPECT_EQ(-1.0f, never.c[0]) << "a kernel past the kernel count ran";
  for (VectorAddArrays *v : arrays) free_vector_add_arrays(*v);
  zeMemFree(context, written);
  zeMemFree(context, read);
  for (ze_kernel_handle_t k : kernels) zeKernelDestroy(k);
  zeModuleDestroy(module);
}

} // namespace
} // namespace zeal::test
