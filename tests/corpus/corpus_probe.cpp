// corpus_probe [--no-codegen] <module.spv>: what the CPU driver does with one real module, as a Level Zero user
// meets it. zeModuleCreate from IL, zeKernelCreate for every kernel, then (unless --no-codegen)
// zeModuleGetNativeBinary, which makes the driver generate code for every kernel it can. Prints one line:
//   built <n> kernels                     everything created and compiled
//   built <n> of <m> kernels; refused: <kernel>: <why> | ...
//   refused: <first line of the build log>
// and exits 0, so that a signal, an abort or a hang is the only way this program fails: corpus_test runs
// it once per module in a child process. Exit 2 means the driver answered inconsistently.
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

std::string build_log(ze_module_build_log_handle_t log) {
  if (log == nullptr) return {};
  size_t size = 0;
  if (zeModuleBuildLogGetString(log, &size, nullptr) != ZE_RESULT_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  if (zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS) return {};
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
  uint32_t count = 1;
  ze_driver_handle_t driver = nullptr;
  if (ze_result_t r = zeDriverGet(&count, &driver); r != ZE_RESULT_SUCCESS) return inconsistent("zeDriverGet", r);
  ze_device_handle_t device = nullptr;
  count = 1;
  if (ze_result_t r = zeDeviceGet(driver, &count, &device); r != ZE_RESULT_SUCCESS) {
    return inconsistent("zeDeviceGet", r);
  }
  ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context = nullptr;
  if (ze_result_t r = zeContextCreate(driver, &context_desc, &context); r != ZE_RESULT_SUCCESS) {
    return inconsistent("zeContextCreate", r);
  }

  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, il.size(),
                        reinterpret_cast<const uint8_t *>(il.data()), "", nullptr};
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t created = zeModuleCreate(context, device, &desc, &module, &log);
  std::string log_text = build_log(log);
  if (log != nullptr) zeModuleBuildLogDestroy(log);
  if (created != ZE_RESULT_SUCCESS) {
    if (module != nullptr) return inconsistent("zeModuleCreate (a module with its failure)", created);
    std::string why = first_line(log_text);
    if (why.empty()) return inconsistent("zeModuleCreate (a failure without a build log)", created);
    std::printf("refused: %s\n", why.c_str());
    zeContextDestroy(context);
    return 0;
  }

  count = 0;
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
