// zeal-aot: compiles SPIR-V device images ahead of time into native binaries for zeal's CPU driver.
#include "cpu_driver/compiler/compiler.hpp"
#include "common/device_profiles.hpp"
#include "tools/command_line.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr const char *kUsage =
    "usage: zeal-aot [--profile host|pvc|dg2] [--target CPU] --output-dir <folder> <image.spv|folder>...\n"
    "       zeal-aot --check-target CPU\n"
    "       zeal-aot [--target CPU] --print-target\n"
    "Compiles each SPIR-V image, as a library (imports allowed, exports kept), into the native\n"
    "binary zeal's CPU driver loads (ZE_MODULE_FORMAT_NATIVE), written as <folder>/<stem>.native.\n"
    "A folder stands for the .spv files in it. The binary holds code for one CPU target (default:\n"
    "ZEAL_CPU_TARGET, else native: this machine's CPU) and this driver version only, and loads where\n"
    "the driver's ZEAL_CPU_TARGET is that target; --target names another (x86-64-v3, znver3, ...),\n"
    "which this machine need not run. Kernels without a required sub-group size get the profile's\n"
    "primary size (default profile: host). --check-target exits 0 when this CPU runs code for CPU.\n"
    "--print-target prints the target code is generated for and LLVM's name for its CPU.\n";

struct Options {
  std::string output_dir;
  std::string profile = "host";
  std::string target;       // empty: the process's (ZEAL_CPU_TARGET)
  std::string check_target; // --check-target: only say whether this CPU runs it
  bool print_target = false; // --print-target: only say what code is generated for
  std::vector<std::filesystem::path> images;
};

bool parse_args(int argc, char **argv, Options &opts) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--output-dir" || arg == "-o") && i + 1 < argc) opts.output_dir = argv[++i];
    else if (arg == "--profile" && i + 1 < argc) opts.profile = argv[++i];
    else if (arg == "--target" && i + 1 < argc) opts.target = argv[++i];
    else if (arg == "--check-target" && i + 1 < argc) opts.check_target = argv[++i];
    else if (arg == "--print-target") opts.print_target = true;
    else if (arg == "--help" || arg == "-h") return false;
    else if (arg.starts_with("-")) {
      std::fprintf(stderr, "zeal-aot: unknown option '%s'\n", arg.c_str());
      return false;
    } else if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> found = zeal::tools::spv_files_in(arg);
      opts.images.insert(opts.images.end(), found.begin(), found.end());
    } else opts.images.emplace_back(arg);
  }
  return opts.print_target || !opts.check_target.empty() || (!opts.output_dir.empty() && !opts.images.empty());
}

// The checks and sub-group size the CPU driver applies under `profile`, so a
// kernel the profile cannot run fails here, at build time, not at first launch.
zeal::cpu::CompileOptions aot_options(const zeal::DeviceProfileRow &profile) {
  zeal::cpu::CompileOptions options;
  options.library_compilation = true;
  options.subgroup_sizes.assign(profile.sub_group_sizes.begin(), profile.sub_group_sizes.end());
  options.primary_subgroup_size = profile.primary_sub_group_size;
  options.device_name = std::string("the ") + profile.name + " profile";
  return options;
}

bool compile_image(const std::filesystem::path &path, const Options &opts, const zeal::cpu::CompileOptions &options,
                   const zeal::cpu::CpuTarget &target) {
  std::vector<uint8_t> spirv;
  if (!zeal::tools::read_device_image("zeal-aot", path, spirv)) return false;
  const zeal::cpu::CompileInput input{spirv, options};
  auto compiled = zeal::cpu::compile_native_binary({&input, 1}, target);
  if (!compiled) {
    const zeal::cpu::Error &e = compiled.error();
    std::fprintf(stderr, "zeal-aot: compiling '%s' failed:\n%s\n", path.c_str(),
                 (e.log.empty() ? e.message : e.log).c_str());
    return false;
  }
  const std::vector<uint8_t> &blob = *compiled;
  auto out_path = std::filesystem::path(opts.output_dir) / path.stem().concat(".native");
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(blob.data()), static_cast<std::streamsize>(blob.size()));
  if (!out.flush()) {
    std::fprintf(stderr, "zeal-aot: cannot write '%s'\n", out_path.c_str());
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options opts;
  if (!zeal::tools::parse_or_print_usage(argc, argv, parse_args, opts, kUsage)) return 2;
  if (opts.print_target) {
    // What benchmarks print beside their figures: LLVM 15's name for the CPU says which cost model and
    // instruction sets the code was generated with (a Zen 4 is "znver3" with AVX-512 features to it).
    auto target = opts.target.empty() ? zeal::cpu::process_cpu_target() : zeal::cpu::find_cpu_target(opts.target);
    if (!target) {
      std::fprintf(stderr, "zeal-aot: %s\n", target.error().message.c_str());
      return 2;
    }
    const bool avx512 = target->features.find("+avx512f") != std::string::npos;
    std::printf("target %s: LLVM 15 CPU '%s'%s\n", target->name.c_str(), target->cpu.c_str(),
                target->name == "native" ? (avx512 ? " with AVX-512" : " without AVX-512") : "");
    return 0;
  }
  if (!opts.check_target.empty()) {
    auto target = zeal::cpu::find_cpu_target(opts.check_target);
    if (!target) {
      std::fprintf(stderr, "zeal-aot: %s\n", target.error().message.c_str());
      return 2;
    }
    if (zeal::cpu::Status runnable = zeal::cpu::check_runnable(*target); !runnable) {
      std::printf("zeal-aot: %s\n", runnable.error().message.c_str());
      return 1;
    }
    std::printf("zeal-aot: this CPU runs code for %s\n", opts.check_target.c_str());
    return 0;
  }
  const zeal::DeviceProfileRow *profile = zeal::find_device_profile_row(opts.profile);
  if (profile == nullptr) {
    std::fprintf(stderr, "zeal-aot: unknown profile '%s' (profiles: %s)\n", opts.profile.c_str(),
                 zeal::device_profile_names().c_str());
    return 2;
  }
  std::error_code ec;
  std::filesystem::create_directories(opts.output_dir, ec);
  auto target = opts.target.empty() ? zeal::cpu::process_cpu_target() : zeal::cpu::find_cpu_target(opts.target);
  if (!target) {
    std::fprintf(stderr, "zeal-aot: %s\n", target.error().message.c_str());
    return 2;
  }
  const zeal::cpu::CompileOptions options = aot_options(*profile);
  for (const auto &image : opts.images)
    if (!compile_image(image, opts, options, *target)) return 1;
  return 0;
}
