// Module build (SPIR-V -> runnable kernels) on the CPU driver vs PoCL's clBuildProgram, first and later builds,
// and native-binary loads vs SPIR-V builds. Each measurement runs in a child process so "first" means first.
#include "bench_support.hpp"
#include "bench/pocl_platform.hpp"

#include <CL/cl.h>

#include <cstring>
#include <sstream>

namespace {

constexpr int builds_per_child = 5; // the first, then 4 later ones
constexpr int children = 5;         // per side and kernel count, alternating zeal and PoCL

void print_times(const char *label, const std::vector<double> &times) {
  fmt::print("{}", label);
  for (double t : times) fmt::print(" {:.4f}", t);
  fmt::print("\n");
}

int zeal_child(int kernels) {
  bench::Ze ze;
  auto spirv = bench::read_file(fmt::format("{}/build_{}.spv", ZEAL_BENCH_KERNEL_DIR, kernels));
  std::vector<double> build, load;
  ze_module_handle_t last = nullptr;
  for (int b = 0; b < builds_per_child; ++b) {
    double t0 = bench::now_ms();
    ze_module_handle_t m = ze.module(spirv, ZE_MODULE_FORMAT_IL_SPIRV);
    bench::Ze::make_kernels(m);
    build.push_back(bench::now_ms() - t0);
    if (last != nullptr) zeModuleDestroy(last);
    last = m;
  }
  std::vector<uint8_t> blob = bench::Ze::native(last);
  for (int b = 0; b < builds_per_child; ++b) {
    double t0 = bench::now_ms();
    ze_module_handle_t m = ze.module(blob, ZE_MODULE_FORMAT_NATIVE);
    bench::Ze::make_kernels(m);
    load.push_back(bench::now_ms() - t0);
    zeModuleDestroy(m);
  }
  print_times("build", build);
  print_times("native", load);
  return 0;
}

void cl_check(cl_int r, const char *what) {
  if (r == CL_SUCCESS) return;
  fmt::print(stderr, "{} failed: {}\n", what, r);
  std::exit(1);
}

cl_device_id pocl_device() {
  cl_platform_id pocl = nullptr;
  cl_check(bench::find_pocl_platform(pocl), "clGetPlatformIDs");
  if (pocl != nullptr) {
    cl_device_id device = nullptr;
    cl_check(clGetDeviceIDs(pocl, CL_DEVICE_TYPE_CPU, 1, &device, nullptr), "clGetDeviceIDs");
    return device;
  }
  fmt::print(stderr, "PoCL is not installed (scripts/bench.sh installs pocl-opencl-icd)\n");
  std::exit(1);
}

int pocl_child(int kernels) {
  setenv("POCL_KERNEL_CACHE", "0", 1); // every build compiles
  cl_device_id device = pocl_device();
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_check(err, "clCreateContext");
  auto source_bytes = bench::read_file(std::string(ZEAL_BENCH_SOURCE_DIR) + "/build_kernels.cl");
  std::string source(source_bytes.begin(), source_bytes.end());
  std::string options = fmt::format("-DCOUNT={}", kernels);
  std::vector<double> build;
  for (int b = 0; b < builds_per_child; ++b) {
    double t0 = bench::now_ms();
    const char *text = source.c_str();
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    cl_check(err, "clCreateProgramWithSource");
    cl_check(clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr), "clBuildProgram");
    std::vector<cl_kernel> made(kernels);
    cl_uint n = 0;
    cl_check(clCreateKernelsInProgram(program, cl_uint(kernels), made.data(), &n), "clCreateKernelsInProgram");
    for (cl_uint k = 0; k < n; ++k) clReleaseKernel(made[k]);
    build.push_back(bench::now_ms() - t0);
    clReleaseProgram(program);
  }
  clReleaseContext(context);
  print_times("build", build);
  return 0;
}

struct ChildTimes {
  std::vector<double> build, native;
};

ChildTimes run_child(const char *side, int kernels) {
  std::string command = fmt::format("/proc/{}/exe --child {} {}", getpid(), side, kernels);
  FILE *pipe = popen(command.c_str(), "r");
  ChildTimes times;
  char line[4096];
  while (pipe != nullptr && std::fgets(line, sizeof(line), pipe) != nullptr) {
    std::istringstream in(line);
    std::string label;
    in >> label;
    auto &into = label == "build" ? times.build : times.native;
    for (double t; in >> t;) into.push_back(t);
  }
  if (pipe == nullptr || pclose(pipe) != 0 || times.build.size() != builds_per_child) {
    fmt::print(stderr, "the {} child failed\n", side);
    std::exit(1);
  }
  return times;
}

struct Summary {
  std::vector<double> first, later, native_later;
  void add(const ChildTimes &t) {
    first.push_back(t.build[0]);
    later.insert(later.end(), t.build.begin() + 1, t.build.end());
    if (!t.native.empty()) native_later.insert(native_later.end(), t.native.begin() + 1, t.native.end());
  }
};

} // namespace

int main(int argc, char **argv) {
  if (argc == 4 && std::strcmp(argv[1], "--child") == 0) {
    int kernels = std::atoi(argv[3]);
    return std::strcmp(argv[2], "zeal") == 0 ? zeal_child(kernels) : pocl_child(kernels);
  }
  fmt::print("Module build, SPIR-V -> runnable kernels (zeModuleCreate + zeKernelCreate), zeal CPU driver vs PoCL 3.1\n"
             "clBuildProgram + clCreateKernelsInProgram from OpenCL C with POCL_KERNEL_CACHE=0; {} child processes\n"
             "per side, alternating; first = first build in a process, later = builds 2..{}; medians in ms.\n\n",
             children, builds_per_child);
  fmt::print("| kernels | build | zeal (ms) | PoCL (ms) | zeal / PoCL | zeal native load (ms) | SPIR-V build / native load |\n");
  fmt::print("|---:|---|---:|---:|---:|---:|---:|\n");
  for (int kernels : {1, 50}) {
    Summary zeal, pocl;
    for (int c = 0; c < children; ++c) {
      zeal.add(run_child("zeal", kernels));
      pocl.add(run_child("pocl", kernels));
    }
    double native = bench::median(zeal.native_later);
    double zf = bench::median(zeal.first), pf = bench::median(pocl.first);
    double zl = bench::median(zeal.later), pl = bench::median(pocl.later);
    fmt::print("| {} | first | {:.2f} | {:.1f} | {:.3f} | | |\n", kernels, zf, pf, zf / pf);
    fmt::print("| {} | later | {:.2f} | {:.1f} | {:.3f} | {:.3f} | {:.0f}x |\n", kernels, zl, pl, zl / pl, native,
               zl / native);
  }
  return 0;
}
