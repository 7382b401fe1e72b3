// Launches through UR's loader with urEnqueueKernelLaunchWithArgsExp, as libsycl makes them: value, pointer,
// buffer and local arguments (null values of each kind included), specialization constants reaching the code, a
// kernel the device cannot honour refused while its neighbour runs, UR's codes for bad launches, and eight
// threads launching one kernel with arguments of their own.
#include "ur_program_fixture.hpp"

#include "tests/support/null_args_outputs.hpp"

#include <algorithm>
#include <mutex>

namespace zeal_ur_test {
namespace {

class UrLaunch : public UrPrograms {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(UrPrograms::SetUp());
    UR_ASSERT_OK(urQueueCreate(context, device, nullptr, &queue));
  }
  void TearDown() override {
    if (queue != nullptr) {
      UR_EXPECT_OK(urQueueRelease(queue));
    }
    UrPrograms::TearDown();
  }
  ur_result_t launch(ur_kernel_handle_t k, size_t global, size_t local,
                     const std::vector<ur_exp_kernel_arg_properties_t> &args, ur_queue_handle_t q = nullptr) {
    ur_event_handle_t done = nullptr;
    ur_result_t r = urEnqueueKernelLaunchWithArgsExp(q ? q : queue, k, 1, nullptr, &global, local ? &local : nullptr,
                                                     static_cast<uint32_t>(args.size()), args.data(), nullptr, 0,
                                                     nullptr, &done);
    if (r != UR_RESULT_SUCCESS) return r;
    r = urEventWait(1, &done);
    urEventRelease(done);
    return r;
  }

  ur_queue_handle_t queue = nullptr;
};

struct WrappedPtr {
  int *ptr;
  int count;
};

// issue 24 through UR: a null VALUE is `size` zero bytes (a struct wrapping a pointer reads as a null pointer), a
// null POINTER a null pointer, and LOCAL takes its size alone.
TEST_F(UrLaunch, NullValuesOfEachKindReadAsNull) {
  constexpr size_t kGroup = 8, kItems = 4 * kGroup;
  ur_kernel_handle_t k = kernel(built("null_args.spv"), "null_args");
  ASSERT_NE(nullptr, k);
  int *out = shared<int>(5 * kItems), *in = shared<int>(kItems), *other = shared<int>(kItems);
  for (size_t i = 0; i < kItems; ++i) {
    in[i] = 100 + static_cast<int>(i);
    other[i] = 200 + static_cast<int>(i);
  }
  const WrappedPtr wrapped{in, 7};
  const int scalar = 5;
  const auto local = arg(UR_EXP_KERNEL_ARG_TYPE_LOCAL, 4, kGroup * sizeof(int), nullptr);
  UR_ASSERT_OK(launch(k, kItems, kGroup, {pointer(0, out), value(1, &wrapped), value(2, &scalar), pointer(3, other), local}))
      << error();
  zeal::test::expect_null_args_outputs(out, in, other, kItems, kGroup, {false, 7, 5, false});
  const auto null_wrapped = arg(UR_EXP_KERNEL_ARG_TYPE_VALUE, 1, sizeof(WrappedPtr), nullptr);
  const auto null_scalar = arg(UR_EXP_KERNEL_ARG_TYPE_VALUE, 2, sizeof(int), nullptr);
  UR_ASSERT_OK(launch(k, kItems, kGroup, {pointer(0, out), null_wrapped, null_scalar, pointer(3, nullptr), local}))
      << error();
  zeal::test::expect_null_args_outputs(out, in, other, kItems, kGroup, {true, 0, 0, true});
  // A VALUE of size 0 is still refused, naming the argument.
  const auto empty = arg(UR_EXP_KERNEL_ARG_TYPE_VALUE, 2, 0, nullptr);
  EXPECT_NE(UR_RESULT_SUCCESS, launch(k, kItems, kGroup, {pointer(0, out), value(1, &wrapped), empty, pointer(3, other), local}));
}

TEST_F(UrLaunch, BuffersAreArgumentsToo) {
  constexpr size_t n = 256;
  ur_kernel_handle_t k = kernel(built("vector_add.spv"), "vector_add");
  ASSERT_NE(nullptr, k);
  std::vector<int> a(n), b(n), c(n, -1);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<int>(i);
    b[i] = 1000;
  }
  ur_mem_handle_t bufs[3] = {};
  for (int i = 0; i < 3; ++i) {
    ur_buffer_properties_t props{UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, nullptr, i == 0 ? a.data() : b.data()};
    UR_ASSERT_OK(urMemBufferCreate(context, UR_MEM_FLAG_READ_WRITE | (i < 2 ? UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER : 0),
                                   n * sizeof(int), i < 2 ? &props : nullptr, &bufs[i]));
  }
  UR_ASSERT_OK(launch(k, n, 64, {buffer_arg(0, bufs[0]), buffer_arg(1, bufs[1]), buffer_arg(2, bufs[2])})) << error();
  UR_ASSERT_OK(urEnqueueMemBufferRead(queue, bufs[2], true, 0, n * sizeof(int), c.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(static_cast<int>(i) + 1000, c[i]) << "element " << i;
  ur_exp_kernel_arg_properties_t not_a_buffer = buffer_arg(2, reinterpret_cast<ur_mem_handle_t>(queue));
  if (zeal_sees_bad_input()) { // the validation layer would dereference the wrong handle first
    EXPECT_EQ(UR_RESULT_ERROR_INVALID_MEM_OBJECT,
              launch(k, n, 64, {buffer_arg(0, bufs[0]), buffer_arg(1, bufs[1]), not_a_buffer}));
  }
  for (ur_mem_handle_t m : bufs) UR_EXPECT_OK(urMemRelease(m));
}

TEST_F(UrLaunch, ASpecializationConstantReachesTheCode) {
  ur_program_handle_t p = with_il("spec_constant.spv");
  const uint32_t v = 1234;
  const ur_specialization_constant_info_t constant{3, sizeof v, &v};
  UR_ASSERT_OK(urProgramSetSpecializationConstants(p, 1, &constant));
  UR_ASSERT_OK(urProgramBuild(context, p, nullptr)) << error();
  ur_kernel_handle_t k = kernel(p, "store_constant");
  ASSERT_NE(nullptr, k);
  uint32_t *out = shared<uint32_t>(1);
  *out = 0;
  UR_ASSERT_OK(launch(k, 1, 1, {pointer(0, out)})) << error();
  EXPECT_EQ(1234u, *out) << "the default is 11";
}

// The kernel whose required sub-group size the device lacks is refused before the driver sees it, with the zeal
// sentence through urAdapterGetLastError; the other kernel of its program runs.
TEST_F(UrLaunch, AKernelTheDeviceCannotHonourIsRefusedAndItsNeighbourRuns) {
  ur_program_handle_t p = built("mixed_sub_groups.spv");
  ur_kernel_handle_t refused = kernel(p, "needs_two"), fine = kernel(p, "runs_anyway");
  ASSERT_NE(nullptr, refused);
  ASSERT_NE(nullptr, fine);
  int *out = shared<int>(64);
  // The logger callback hears the sentence too (UR's other channel for it).
  struct Heard {
    std::mutex mutex;
    std::vector<std::string> messages;
  } heard;
  auto listen = [](ur_logger_level_t level, const char *message, void *user) {
    auto *h = static_cast<Heard *>(user);
    std::lock_guard lock(h->mutex);
    if (level == UR_LOGGER_LEVEL_ERROR) h->messages.emplace_back(message);
  };
  UR_ASSERT_OK(urAdapterSetLoggerCallback(adapter, listen, &heard, UR_LOGGER_LEVEL_WARN));
  EXPECT_EQ(UR_RESULT_ERROR_ADAPTER_SPECIFIC, launch(refused, 64, 16, {pointer(0, out)}));
  UR_ASSERT_OK(urAdapterSetLoggerCallbackLevel(adapter, UR_LOGGER_LEVEL_QUIET));
  {
    std::lock_guard lock(heard.mutex);
    ASSERT_EQ(1u, heard.messages.size());
    EXPECT_NE(std::string::npos, heard.messages[0].find("required by kernel 'needs_two'")) << heard.messages[0];
  }
  const char *message = nullptr;
  int32_t code = 0;
  UR_ASSERT_OK(urAdapterGetLastError(adapter, &message, &code));
  ASSERT_NE(nullptr, message);
  const std::string sentence = message;
  EXPECT_NE(std::string::npos, sentence.find("sub-group size 2 required by kernel 'needs_two'")) << sentence;
  EXPECT_NE(std::string::npos, sentence.find("(supported: 4, 8, 16, 32, 64)")) << sentence;
  const int seven = 7;
  UR_ASSERT_OK(launch(fine, 64, 16, {pointer(0, out), value(1, &seven)})) << error();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(7, out[i]) << "element " << i;
}

TEST_F(UrLaunch, BadLaunchesGetTheSpecsCodes) {
  ur_kernel_handle_t k = kernel(built("vector_add.spv"), "scale");
  ASSERT_NE(nullptr, k);
  int *out = shared<int>(64);
  const int two = 2;
  const std::vector<ur_exp_kernel_arg_properties_t> args = {pointer(0, out), value(1, &two)};
  UR_ASSERT_OK(launch(k, 64, 0, args)) << "no local size: the adapter chooses";
  EXPECT_EQ(126, out[63]);
  const size_t global = 64, zero = 0, odd = 7;
  auto enqueue = [&](uint32_t dim, const size_t *g, const size_t *l, const ur_kernel_launch_ext_properties_t *props,
                     const std::vector<ur_exp_kernel_arg_properties_t> &a) {
    return urEnqueueKernelLaunchWithArgsExp(queue, k, dim, nullptr, g, l, static_cast<uint32_t>(a.size()), a.data(),
                                            props, 0, nullptr, nullptr);
  };
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_WORK_DIMENSION, enqueue(4, &global, nullptr, nullptr, args));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, enqueue(1, &global, &zero, nullptr, args));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, enqueue(1, &global, &odd, nullptr, args));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, enqueue(1, nullptr, nullptr, nullptr, args));
  ur_exp_kernel_arg_properties_t bad_type = value(1, &two);
  const int32_t t = 99;
  std::memcpy(&bad_type.type, &t, sizeof t);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, enqueue(1, &global, nullptr, nullptr, {pointer(0, out), bad_type}));
  const ur_kernel_launch_ext_properties_t unknown_flags{UR_STRUCTURE_TYPE_KERNEL_LAUNCH_EXT_PROPERTIES, nullptr,
                                                        UR_KERNEL_LAUNCH_FLAG_FORCE_UINT32};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, enqueue(1, &global, nullptr, &unknown_flags, args));
  const ur_kernel_launch_ext_properties_t serialise{UR_STRUCTURE_TYPE_KERNEL_LAUNCH_EXT_PROPERTIES, nullptr,
                                                    UR_KERNEL_LAUNCH_FLAG_OPPORTUNISTIC_QUEUE_SERIALIZE};
  EXPECT_EQ(UR_RESULT_SUCCESS, enqueue(1, &global, nullptr, &serialise, args)) << "a hint";
  // An int argument given 8 bytes: taken when the upper 4 only extend the value (as UR's own tests pass a size_t
  // for a uint32_t), refused when they would be lost.
  const int64_t wide = 2;
  EXPECT_EQ(UR_RESULT_SUCCESS, enqueue(1, &global, nullptr, nullptr, {pointer(0, out), value(1, &wide)})) << error();
  const int64_t lossy = (int64_t{1} << 40) | 2;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
            enqueue(1, &global, nullptr, nullptr, {pointer(0, out), value(1, &lossy)}));
  EXPECT_NE(std::string::npos, error().find("argument 1 (8 bytes)")) << error();
  UR_EXPECT_OK(urQueueFinish(queue));
}

// The suggestion is the local size a launch without one gets: it divides the global size, and a kernel with a
// required work-group size gets exactly that.
TEST_F(UrLaunch, TheSuggestedLocalSizeIsTheOneALaunchWouldUse) {
  ur_program_handle_t p = built("vector_add.spv");
  ur_kernel_handle_t scale = kernel(p, "scale"), fixed = kernel(p, "fixed_group");
  ASSERT_NE(nullptr, scale);
  ASSERT_NE(nullptr, fixed);
  const size_t global = 96, offset = 0;
  size_t local = 0;
  UR_ASSERT_OK(urKernelGetSuggestedLocalWorkSize(scale, queue, 1, &offset, &global, &local)) << error();
  EXPECT_GE(local, 1u);
  EXPECT_EQ(0u, global % local);
  UR_ASSERT_OK(urKernelGetSuggestedLocalWorkSize(fixed, queue, 1, &offset, &global, &local)) << error();
  EXPECT_EQ(8u, local);
  int *out = shared<int>(global);
  UR_ASSERT_OK(launch(fixed, global, 0, {pointer(0, out)}));
  EXPECT_EQ(8, out[0]) << "the launch without a local size used the suggestion";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_WORK_DIMENSION,
            urKernelGetSuggestedLocalWorkSize(scale, queue, 0, &offset, &global, &local));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urKernelGetSuggestedLocalWorkSize(scale, queue, 1, &offset, nullptr, &local));
}

// Eight threads launch one kernel at once, each with its own output and factor, on its own queue and on a shared
// one; every element of every launch is checked.
TEST_F(UrLaunch, EightThreadsLaunchOneKernelWithTheirOwnArguments) {
  ur_kernel_handle_t k = kernel(built("vector_add.spv"), "scale");
  ASSERT_NE(nullptr, k);
  constexpr int kThreads = 8, kRounds = 40;
  constexpr size_t n = 128;
  std::vector<int *> outs;
  for (int t = 0; t < kThreads; ++t) outs.push_back(shared<int>(n));
  const int failures = failures_across_threads(kThreads, [&](int t, ur_queue_handle_t own) {
    int wrong = 0;
    for (int r = 0; r < kRounds; ++r) {
      const int factor = t * 100 + r;
      if (launch(k, n, 32, {pointer(0, outs[t]), value(1, &factor)}, r % 2 ? own : queue) != UR_RESULT_SUCCESS) {
        ++wrong;
        continue;
      }
      for (size_t i = 0; i < n; ++i)
        if (outs[t][i] != static_cast<int>(i) * factor) {
          ++wrong;
          break;
        }
    }
    return wrong;
  });
  EXPECT_EQ(0, failures);
}

// A cooperative launch (UR_KERNEL_LAUNCH_FLAG_COOPERATIVE) runs all its work-groups at once, up to the number
// urKernelSuggestMaxCooperativeGroupCount gives; each group here waits for all the others to arrive.
TEST_F(UrLaunch, CooperativeLaunchesRunEveryGroupAtOnce) {
  ur_kernel_launch_properties_flags_t caps = 0;
  UR_ASSERT_OK(urDeviceGetInfo(device, UR_DEVICE_INFO_KERNEL_LAUNCH_CAPABILITIES, sizeof caps, &caps, nullptr));
  EXPECT_NE(0u, caps & UR_KERNEL_LAUNCH_PROPERTIES_FLAG_COOPERATIVE);
  ur_kernel_handle_t k = kernel(built("cooperative.spv"), "all_arrive");
  ASSERT_NE(nullptr, k);
  const size_t local = 1;
  uint32_t most = 0;
  UR_ASSERT_OK(urKernelSuggestMaxCooperativeGroupCount(k, device, 1, &local, 0, &most)) << error();
  ASSERT_GE(most, 1u);
  uint64_t local_memory = 0;
  UR_ASSERT_OK(urDeviceGetInfo(device, UR_DEVICE_INFO_LOCAL_MEM_SIZE, sizeof local_memory, &local_memory, nullptr));
  uint32_t with_local = 0;
  UR_ASSERT_OK(urKernelSuggestMaxCooperativeGroupCount(k, device, 1, &local, local_memory / 2, &with_local));
  EXPECT_LE(with_local, most) << "groups that each take half the local memory fit fewer at once";

  const int groups = static_cast<int>(std::min<uint32_t>(most, 8));
  int *arrived = shared<int>(1), *seen = shared<int>(groups);
  *arrived = 0;
  std::fill(seen, seen + groups, 0);
  ur_kernel_launch_ext_properties_t props{UR_STRUCTURE_TYPE_KERNEL_LAUNCH_EXT_PROPERTIES, nullptr,
                                          UR_KERNEL_LAUNCH_FLAG_COOPERATIVE};
  const size_t global = static_cast<size_t>(groups) * local;
  const std::vector<ur_exp_kernel_arg_properties_t> args{pointer(0, arrived), pointer(1, seen), value(2, &groups)};
  UR_ASSERT_OK(urEnqueueKernelLaunchWithArgsExp(queue, k, 1, nullptr, &global, &local, 3, args.data(), &props, 0,
                                                nullptr, nullptr))
      << error();
  UR_ASSERT_OK(urQueueFinish(queue));
  for (int g = 0; g < groups; ++g) EXPECT_EQ(groups, seen[g]) << "group " << g;

  // More groups than can run at once are refused.
  const size_t too_many = (static_cast<size_t>(most) + 1) * local;
  EXPECT_NE(UR_RESULT_SUCCESS, urEnqueueKernelLaunchWithArgsExp(queue, k, 1, nullptr, &too_many, &local, 3,
                                                                args.data(), &props, 0, nullptr, nullptr));
  EXPECT_NE(std::string::npos, error().find("run at once")) << error();
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_WORK_DIMENSION, urKernelSuggestMaxCooperativeGroupCount(k, device, 4, &local, 0, &most));
}

} // namespace
} // namespace zeal_ur_test
