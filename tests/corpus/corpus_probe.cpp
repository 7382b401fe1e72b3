// corpus_probe [--no-codegen] <module.spv>: what the CPU driver does with one real module, as a Level Zero user
// meets it. zeModuleCreate from IL, zeKernelCreate for every kernel, then (unless --no-codegen)
// zeModuleGetNativeBinary, which makes the driver generate code for every kernel it can. Prints one line:
//   built <n> kernels                     everything created and compiled
//   built <n> of <m> kernels; refused: <kernel>: <why> | ...
//   refused: <first line of the build log>
// and exits 0, so that a signal, an abort or a hang is the only way this program fails: corpus_test runs
// it once per module in a child process. Exit 2 means the driver answered inconsistently.
#include "tests/support/ze_setup.hpp"

#include <level_zero/ze_api.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

int inconsistent(const char *what, ze_result_t result) {
  std::printf("inconsistent: %s returned 0x%x\n", what, unsigned(result));
  return 2;
}

std::string first_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  if (size_t end = text.find('\n'); end != std::string::npos) text.resize(end);
  return text;
}

// The build log's line refusing `kernel`, after the kernel's name: what it calls that the driver lacks.
std::string refusal_reason(const std::string &log, const std::string &kernel) {
  std::string marker = "kernel '" + kernel + "' ";
  size_t at = log.find(marker);
  if (at == std::string::npos) return {};
  size_t end = std::min(log.find('\n', at), log.find(':', at + marker.size())); // up to the reason's detail
  return " (" + log.substr(at + marker.size(), end == std::string::npos ? std::string::npos : end - at - marker.size()) + ")";
}

} // namespace

int main(int argc, char **argv) {
  bool codegen = !(argc == 3 && std::string(argv[1]) == "--no-codegen");
  if (argc != (codegen ? 2 : 3)) {
    std::fprintf(stderr, "usage: corpus_probe [--no-codegen] <module.spv>\n");
    return 64;
  }
  const char *path = argv[argc - 1];
  std::ifstream in(path, std::ios::binary);
  std::vector<char> il{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.eof() && !in) {
    std::fprintf(stderr, "corpus_probe: cannot read '%s'\n", path);
    return 66;
  }
  if (ze_result_t r = zeInit(0); r != ZE_RESULT_SUCCESS) return inconsistent("zeInit", r);
  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;
  if (zeal::test::ZeCall c = zeal::test::open_first_device(driver, device, context); c.result != ZE_RESULT_SUCCESS) {
    return inconsistent(c.name, c.result);
  }

  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t created = zeal::test::create_module(
      context, device, {reinterpret_cast<const uint8_t *>(il.data()), il.size()}, module, "",
      ZE_MODULE_FORMAT_IL_SPIRV, &log);
  // A log that cannot be read is an empty one: a failure without a build log is reported below.
  std::string log_text;
  if (log != nullptr) zeal::test::read_build_log(log, log_text);
  if (created != ZE_RESULT_SUCCESS) {
    if (module != nullptr) return inconsistent("zeModuleCreate (a module with its failure)", created);
    std::string why = first_line(log_text);
    if (why.empty()) return inconsistent("zeModuleCreate (a failure without a build log)", created);
    std::printf("refused: %s\n", why.c_str());
    zeContextDestroy(context);
    return 0;
  }

  uint32_t count = 0;
  if (ze_result_t r = zeModuleGetKernelNames(module, &count, nullptr); r != ZE_RESULT_SUCCESS) {
    return inconsistent("zeModuleGetKernelNames", r);
  }
  std::vector<const char *> names(count);
  if (ze_result_t r = zeModuleGetKernelNames(module, &count, names.data()); r != ZE_RESULT_SUCCESS) {
    return inconsistent("zeModuleGetKernelNames", r);
  }
  std::string refusals;
  uint32_t created_kernels = 0;
  for (const char *name : names) {
    ze_kernel_desc_t kernel_desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t kernel = nullptr;
    ze_result_t r = zeKernelCreate(module, &kernel_desc, &kernel);
    if (r == ZE_RESULT_SUCCESS) {
      ++created_kernels;
      zeKernelDestroy(kernel);
      continue;
    }
    char code[16];
    std::snprintf(code, sizeof code, "0x%08x", unsigned(r));
    refusals += std::string(refusals.empty() ? "" : " | ") + name + ": " + code + refusal_reason(log_text, name);
  }
  if (codegen) {
    size_t size = 0;
    ze_result_t native = zeModuleGetNativeBinary(module, &size, nullptr);
    std::vector<uint8_t> binary(size);
    if (native == ZE_RESULT_SUCCESS) native = zeModuleGetNativeBinary(module, &size, binary.data());
    if (native != ZE_RESULT_SUCCESS && refusals.empty()) return inconsistent("zeModuleGetNativeBinary", native);
  }
  if (refusals.empty()) std::printf("built %u kernels\n", created_kernels);
  else std::printf("built %u of %zu kernels; refused: %s\n", created_kernels, names.size(), refusals.c_str());
  zeModuleDestroy(module);
  zeContextDestroy(context);
  return 0;
}
