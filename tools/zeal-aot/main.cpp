// zeal-aot: compiles SPIR-V device images ahead of time into native binaries for zeal's CPU driver.
#include "cpu_driver/compiler/compiler.hpp"
#include "cpu_driver/runtime/profile.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr const char *kUsage =
    "usage: zeal-aot [--profile host|pvc|dg2] --output-dir <folder> <image.spv|folder>...\n"
    "Compiles each SPIR-V image, as a library (imports allowed, exports kept), into the native\n"
    "binary zeal's CPU driver loads (ZE_MODULE_FORMAT_NATIVE), written as <folder>/<stem>.native.\n"
    "A folder stands for the .spv files in it. The binary holds code for this machine's CPU and\n"
    "this driver version only; kernels without a required sub-group size get the profile's\n"
    "primary size (default profile: host).\n";

struct Options {
  std::string output_dir;
  std::string profile = "host";
  std::vector<std::filesystem::path> images;
};

bool parse_args(int argc, char **argv, Options &opts) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--output-dir" || arg == "-o") && i + 1 < argc) opts.output_dir = argv[++i];
    else if (arg == "--profile" && i + 1 < argc) opts.profile = argv[++i];
    else if (arg == "--help" || arg == "-h") return false;
    else if (arg.starts_with("-")) {
      std::fprintf(stderr, "zeal-aot: unknown option '%s'\n", arg.c_str());
      return false;
    } else if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> found;
      for (const auto &f : std::filesystem::directory_iterator(arg))
        if (f.path().extension() == ".spv") found.push_back(f.path());
      std::sort(found.begin(), found.end());
      opts.images.insert(opts.images.end(), found.begin(), found.end());
    } else opts.images.emplace_back(arg);
  }
  return !opts.output_dir.empty() && !opts.images.empty();
}

// The checks and sub-group size the CPU driver applies under `profile`, so a
// kernel the profile cannot run fails here, at build time, not at first launch.
zeal::cpu::CompileOptions aot_options(const zeal::cpu::Profile &profile) {
  zeal::cpu::CompileOptions options;
  options.library_compilation = true;
  options.subgroup_sizes.assign(profile.subgroup_sizes.begin(), profile.subgroup_sizes.end());
  options.primary_subgroup_size = profile.primary_subgroup_size;
  options.device_name = std::string("the ") + profile.name + " profile";
  return options;
}

bool compile_image(const std::filesystem::path &path, const Options &opts, const zeal::cpu::CompileOptions &options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "zeal-aot: cannot read device image '%s'\n", path.c_str());
    return false;
  }
  std::vector<uint8_t> spirv(std::istreambuf_iterator<char>(in), {});
  auto program = zeal::cpu::compile_spirv(spirv, options);
  if (!program) {
    const zeal::Error &e = program.error();
    std::fprintf(stderr, "zeal-aot: compiling '%s' failed:\n%s\n", path.c_str(),
                 (e.log.empty() ? e.message : e.log).c_str());
    return false;
  }
  auto compiled = program.value()->native_binary();
  if (!compiled) {
    std::fprintf(stderr, "zeal-aot: generating code for '%s' failed: %s\n", path.c_str(),
                 compiled.error().message.c_str());
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
  if (!parse_args(argc, argv, opts)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const zeal::cpu::Profile *profile = zeal::cpu::find_profile(opts.profile);
  if (profile == nullptr) {
    std::fprintf(stderr, "zeal-aot: unknown profile '%s' (profiles: %s)\n", opts.profile.c_str(),
                 zeal::cpu::profile_names().c_str());
    return 2;
  }
  std::error_code ec;
  std::filesystem::create_directories(opts.output_dir, ec);
  const zeal::cpu::CompileOptions options = aot_options(*profile);
  for (const auto &image : opts.images)
    if (!compile_image(image, opts, options)) return 1;
  return 0;
}
