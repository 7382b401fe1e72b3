// Compiled kernels run work-group by work-group: results checked per element and per work-item.
#include "test_support.hpp"

#include <cmath>
#include <cstring>
#include <numeric>
#include <thread>

namespace zeal::cpu::test {
namespace {

constexpr size_t id_fields = 26; // the record work_item_ids writes per work-item

void check_vector_add(const KernelInfo &kernel) {
  constexpr size_t n = 1000; // 125 groups of 8: the x loop's vector body and remainder both run
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i) * 0.5f;
    b[i] = 3.0f - float(i);
  }
  float *pa = a.data(), *pb = b.data(), *pc = c.data();
  const void *args[] = {&pa, &pb, &pc};
  run(kernel, args, Range{1, {125, 1, 1}, {8, 1, 1}});
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
}

TEST(CpuCompilerRuns, VectorAddElementByElement) {
  auto program = build("vector_add");
  ASSERT_NE(program, nullptr);
  const KernelInfo *kernel = program->find_kernel("vector_add");
  ASSERT_NE(kernel, nullptr);
  ASSERT_TRUE(program->entry(*kernel).ok());
  check_vector_add(*kernel);
}

TEST(CpuCompilerRuns, VectorAddWithOptimisationDisabled) {
  std::string log;
  auto program = build("vector_add", compile_options_of("-ze-opt-disable", log));
  ASSERT_NE(program, nullptr);
  check_vector_add(*program->find_kernel("vector_add"));
}

// Checks the record of every work-item of `range` against the OpenCL definitions.
void check_ids(const std::vector<uint64_t> &out, const Range &range) {
  uint64_t global[3], total = 1;
  for (int d = 0; d < 3; ++d) total *= global[d] = uint64_t(range.groups[d]) * range.local[d];
  for (uint64_t linear = 0; linear < total; ++linear) {
    uint64_t g[3] = {linear % global[0], linear / global[0] % global[1], linear / global[0] / global[1]};
    const uint64_t *r = out.data() + linear * id_fields;
    for (int d = 0; d < 3; ++d) {
      SCOPED_TRACE(::testing::Message() << "work-item " << linear << " dimension " << d);
      ASSERT_EQ(r[0 + d], g[d] + range.offset[d]) << "global id";
      ASSERT_EQ(r[3 + d], g[d] % range.local[d]) << "local id";
      ASSERT_EQ(r[6 + d], g[d] / range.local[d]) << "group id";
      ASSERT_EQ(r[9 + d], global[d]) << "global size";
      ASSERT_EQ(r[12 + d], range.local[d]) << "local size";
      ASSERT_EQ(r[15 + d], range.groups[d]) << "num groups";
      ASSERT_EQ(r[18 + d], range.offset[d]) << "global offset";
    }
    uint64_t l[3] = {g[0] % range.local[0], g[1] % range.local[1], g[2] % range.local[2]};
    ASSERT_EQ(r[21], range.work_dim) << "work dim of " << linear;
    ASSERT_EQ(r[22], (l[2] * range.local[1] + l[1]) * range.local[0] + l[0]) << "local linear id of " << linear;
    ASSERT_EQ(r[23], range.local[0]) << "enqueued local size of " << linear;
    ASSERT_EQ(r[24], 0u) << "out-of-range ids of " << linear;
    ASSERT_EQ(r[25], 111u) << "out-of-range sizes of " << linear;
  }
}

void run_ids(const Range &range) {
  auto program = build("work_item_ids");
  ASSERT_NE(program, nullptr);
  uint64_t total = 1;
  for (int d = 0; d < 3; ++d) total *= uint64_t(range.groups[d]) * range.local[d];
  std::vector<uint64_t> out(total * id_fields, ~0ull);
  uint64_t *pout = out.data();
  uint32_t runtime_dim = 5; // out of range, and not a constant the optimiser can see
  const void *args[] = {&pout, &runtime_dim};
  run(*program->find_kernel("work_item_ids"), args, range);
  check_ids(out, range);
}

TEST(CpuCompilerRuns, IdsAndSizesIn1DWithAGlobalOffset) { run_ids(Range{1, {3, 1, 1}, {5, 1, 1}, {7, 0, 0}}); }

TEST(CpuCompilerRuns, IdsAndSizesIn2DWithAGlobalOffset) { run_ids(Range{2, {2, 3, 1}, {4, 3, 1}, {11, 5, 0}}); }

TEST(CpuCompilerRuns, IdsAndSizesIn3DWithAGlobalOffset) { run_ids(Range{3, {2, 2, 3}, {3, 2, 2}, {1, 2, 3}}); }

// One call runs a chunk of groups that starts anywhere (mid-row, mid-slice)
// and counts their ids itself, carrying x into y into z; the groups before
// the chunk run a call each.
TEST(CpuCompilerRuns, AChunkOfGroupsInOneCallCountsItsGroupIds) {
  auto program = build("work_item_ids");
  ASSERT_NE(program, nullptr);
  const Range range{3, {3, 2, 3}, {2, 2, 1}, {0, 0, 0}};
  const uint32_t groups = 3 * 2 * 3;
  for (uint32_t first : {1u, 4u, 7u, 17u}) {
    SCOPED_TRACE(::testing::Message() << "chunk from group " << first);
    std::vector<uint64_t> out(uint64_t(groups) * 4 * id_fields, ~0ull);
    uint64_t *pout = out.data();
    uint32_t runtime_dim = 5;
    const void *args[] = {&pout, &runtime_dim};
    const KernelInfo &kernel = *program->find_kernel("work_item_ids");
    for (uint32_t g = 0; g < first; ++g) run_groups(kernel, args, range, g, groups);
    run_groups(kernel, args, range, first, 1);
    check_ids(out, range);
  }
}

TEST(CpuCompilerRuns, IdsFlowThroughANonInlinedDeviceFunction) {
  auto program = build("work_item_ids");
  ASSERT_NE(program, nullptr);
  std::vector<uint64_t> out(6 * 4);
  uint64_t *pout = out.data();
  const void *args[] = {&pout};
  run(*program->find_kernel("ids_through_call"), args, Range{2, {2, 2, 1}, {3, 2, 1}});
  for (uint64_t y = 0; y < 4; ++y) {
    for (uint64_t x = 0; x < 6; ++x) ASSERT_EQ(out[y * 6 + x], x * 1000 + y) << x << "," << y;
  }
}

struct Params {
  float scale;
  int32_t offset;
  int64_t big;
  char tag;
};

TEST(CpuCompilerRuns, AStructPassedByValueKeepsTheCallersBytes) {
  auto program = build("struct_arg");
  ASSERT_NE(program, nullptr);
  const KernelInfo *kernel = program->find_kernel("struct_arg");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(kernel->args[0].size, sizeof(Params));
  Params params{2.5f, -3, int64_t(1) << 40, 'z'};
  std::vector<float> in(64), out(64);
  std::iota(in.begin(), in.end(), 1.0f);
  int64_t echo[2] = {};
  float *pin = in.data(), *pout = out.data();
  int64_t *pecho = echo;
  const void *args[] = {&params, &pin, &pout, &pecho};
  run(*kernel, args, Range{1, {4, 1, 1}, {16, 1, 1}});
  for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], in[i] * 2.5f - 3.0f) << "element " << i;
  EXPECT_EQ(echo[0], int64_t(1) << 40);
  EXPECT_EQ(echo[1], 'z');
  EXPECT_EQ(params.scale, 2.5f) << "the kernel's change to its copy leaked into the argument bytes";
}

TEST(CpuCompilerRuns, ALocalMemoryArgumentPointsAtTheGroupsBuffer) {
  auto program = build("local_arg");
  ASSERT_NE(program, nullptr);
  const KernelInfo *kernel = program->find_kernel("local_arg");
  ASSERT_EQ(kernel->args[1].kind, ArgKind::LocalPointer);
  std::vector<int> in(32), out(32), scratch(8, -1);
  std::iota(in.begin(), in.end(), 0);
  int *pin = in.data(), *pout = out.data(), *pscratch = scratch.data();
  const void *args[] = {&pin, &pscratch, &pout};
  run(*kernel, args, Range{1, {4, 1, 1}, {8, 1, 1}});
  for (int i = 0; i < 32; ++i) ASSERT_EQ(out[i], in[i] * 2 + i / 8 + 1) << "element " << i;
  for (int l = 0; l < 8; ++l) EXPECT_EQ(scratch[l], in[24 + l] * 2 + 3) << "local slot " << l;
}

template <class T>
void check_math(const T *out, T a, T b, T c, T tolerance) {
  const T expected[] = {std::sqrt(a), std::fabs(a), std::floor(b), std::ceil(b), std::fma(a, b, c), std::fmin(a, b),
                        std::fmax(a, b), std::exp(b), std::log(a), std::sin(b), std::cos(b), std::pow(a, b)};
  for (size_t i = 0; i < std::size(expected); ++i) {
    EXPECT_NEAR(out[i], expected[i], tolerance * std::fabs(expected[i])) << "slot " << i;
  }
}

TEST(CpuCompilerRuns, MathBuiltinsInFloatDoubleAndVectorForm) {
  auto program = build("math");
  ASSERT_NE(program, nullptr);
  float xf[3] = {2.25f, 1.75f, -0.5f}, of[12] = {};
  double xd[3] = {2.25, 1.75, -0.5}, od[12] = {};
  float *pxf = xf, *pof = of;
  double *pxd = xd, *pod = od;
  const void *fargs[] = {&pxf, &pof};
  const void *dargs[] = {&pxd, &pod};
  run(*program->find_kernel("math_float"), fargs, Range{});
  run(*program->find_kernel("math_double"), dargs, Range{});
  check_math(of, xf[0], xf[1], xf[2], 1e-6f);
  check_math(od, xd[0], xd[1], xd[2], 1e-14);

  float xv[16], ov[16] = {};
  for (int i = 0; i < 16; ++i) xv[i] = 0.25f * float(i);
  float *pxv = xv, *pov = ov;
  const void *vargs[] = {&pxv, &pov};
  run(*program->find_kernel("math_vector"), vargs, Range{1, {2, 1, 1}, {2, 1, 1}});
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(ov[i], std::sqrt(xv[i]) + std::exp(xv[i]), 1e-5f) << "lane " << i;
}

TEST(CpuCompilerRuns, WorkGroupsOfOneKernelConcurrentlyOnTwoThreads) {
  auto program = build("vector_add");
  ASSERT_NE(program, nullptr);
  const KernelInfo &kernel = *program->find_kernel("vector_add");
  constexpr size_t n = 1 << 16, local = 64;
  std::vector<float> a(n, 1.5f), b(n), c(n, 0.0f);
  std::iota(b.begin(), b.end(), 0.0f);
  float *pa = a.data(), *pb = b.data(), *pc = c.data();
  const void *args[] = {&pa, &pb, &pc};
  WorkGroupFn run = BuiltKernels::get().entry(kernel);
  ASSERT_NE(run, nullptr);
  auto worker = [&](uint32_t first) {
    GroupContext context; // one per thread, as the runtime keeps them
    context.num_groups[0] = n / local;
    context.local_size[0] = local;
    for (uint32_t g = first; g < n / local; g += 2) {
      context.group_id[0] = g;
      run(args, &context);
    }
  };
  std::thread other(worker, 1);
  worker(0);
  other.join();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
}

TEST(CpuCompilerRuns, ProgramsCompiledOnTwoThreadsAtOnce) {
  std::unique_ptr<Program> programs[2];
  std::thread other([&] { programs[1] = build("vector_add"); });
  programs[0] = build("work_item_ids");
  other.join();
  ASSERT_NE(programs[0], nullptr);
  ASSERT_NE(programs[1], nullptr);
  check_vector_add(*programs[1]->find_kernel("vector_add"));
  EXPECT_NE(programs[0]->find_kernel("ids_through_call"), nullptr);
}

} // namespace
} // namespace zeal::cpu::test
