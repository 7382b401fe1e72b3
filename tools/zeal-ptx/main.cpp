// zeal-ptx: SPIR-V to the PTX the CUDA driver would load, for reading and for checking a module without a GPU.
// usage: zeal-ptx [--sm=N] [-O0|-O1|-O2|-O3] [--library] <module.spv> [-o <out.ptx>]
#include "cuda_driver/compiler/ptx_compiler.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

int usage() {
  std::fprintf(stderr, "usage: zeal-ptx [--sm=N] [-O0|-O1|-O2|-O3] [--library] <module.spv> [-o <out.ptx>]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  zeal::cuda::PtxOptions options;
  const char *input = nullptr, *output = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--sm=", 0) == 0) options.sm = unsigned(std::stoul(arg.substr(5)));
    else if (arg.size() == 3 && arg.rfind("-O", 0) == 0 && arg[2] >= '0' && arg[2] <= '3') options.opt_level = unsigned(arg[2] - '0');
    else if (arg == "--library") options.library_compilation = true;
    else if (arg == "-o" && i + 1 < argc) output = argv[++i];
    else if (arg[0] != '-' && input == nullptr) input = argv[i];
    else return usage();
  }
  if (input == nullptr) return usage();
  std::ifstream in(input, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "zeal-ptx: cannot open %s\n", input);
    return 1;
  }
  std::vector<uint8_t> spirv{std::istreambuf_iterator<char>(in), {}};
  auto program = zeal::cuda::compile_ptx(spirv, options);
  if (!program) {
    std::fprintf(stderr, "zeal-ptx: %s\n", program.error().message.c_str());
    return 1;
  }
  if (!program->log.empty()) std::fprintf(stderr, "%s", program->log.c_str());
  if (output == nullptr) {
    std::fwrite(program->ptx.data(), 1, program->ptx.size(), stdout);
    return 0;
  }
  std::ofstream out(output, std::ios::binary);
  out << program->ptx;
  return out ? 0 : 1;
}
