// ur_vector_add: c[i] = a[i] + b[i] over 1,048,576 floats, driven as a SYCL runtime's backend code drives
// Unified Runtime: loader init, adapter, platform, device, context, queue, program from SPIR-V, kernel, USM,
// a launch that carries its arguments, and a wait. Every element is checked.
//
// Run it with zeal's UR adapter: UR_ADAPTERS_FORCE_LOAD=<build>/lib/libur_adapter_zeal.so.0 ur_vector_add
// (or install the adapter where UR's loader looks). An optional argument names another SPIR-V file.
#include <unified-runtime/ur_api.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

// Stops at the first failing call, saying which and the adapter's sentence.
bool check(ur_result_t result, const char *call, ur_adapter_handle_t adapter = nullptr) {
  if (result == UR_RESULT_SUCCESS) return true;
  const char *message = nullptr;
  int32_t code = 0;
  if (adapter != nullptr) urAdapterGetLastError(adapter, &message, &code);
  std::fprintf(stderr, "%s failed with UR result %d%s%s\n", call, static_cast<int>(result), message ? ": " : "",
               message ? message : "");
  return false;
}

std::vector<char> read_file(const char *path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

// The first CPU or GPU device of any platform of the adapter.
ur_device_handle_t first_device(ur_adapter_handle_t adapter, ur_platform_handle_t &platform) {
  uint32_t count = 0;
  if (!check(urPlatformGet(adapter, 0, nullptr, &count), "urPlatformGet") || count == 0) return nullptr;
  std::vector<ur_platform_handle_t> platforms(count);
  urPlatformGet(adapter, count, platforms.data(), nullptr);
  for (ur_platform_handle_t p : platforms) {
    ur_device_handle_t device = nullptr;
    uint32_t n = 0;
    if (urDeviceGet(p, UR_DEVICE_TYPE_ALL, 1, &device, &n) == UR_RESULT_SUCCESS && n > 0) {
      platform = p;
      return device;
    }
  }
  return nullptr;
}

int run(ur_adapter_handle_t adapter, const std::vector<char> &il) {
  ur_platform_handle_t platform = nullptr;
  ur_device_handle_t device = first_device(adapter, platform);
  if (device == nullptr) {
    std::fprintf(stderr, "ur_vector_add: the adapter has no device\n");
    return 1;
  }
  std::string name(256, '\0');
  size_t name_size = 0;
  urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, name.size(), name.data(), &name_size);
  name.resize(name_size > 0 ? name_size - 1 : 0);
  std::printf("device: %s\n", name.c_str());

  constexpr size_t n = 1 << 20;
  ur_context_handle_t context = nullptr;
  ur_queue_handle_t queue = nullptr;
  ur_program_handle_t program = nullptr;
  ur_kernel_handle_t kernel = nullptr;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  int status = 1;
  do {
    if (!check(urContextCreate(1, &device, nullptr, &context), "urContextCreate", adapter)) break;
    if (!check(urQueueCreate(context, device, nullptr, &queue), "urQueueCreate", adapter)) break;
    if (!check(urProgramCreateWithIL(context, il.data(), il.size(), nullptr, &program), "urProgramCreateWithIL",
               adapter))
      break;
    if (!check(urProgramBuild(context, program, nullptr), "urProgramBuild", adapter)) break;
    if (!check(urKernelCreate(program, "vector_add", &kernel), "urKernelCreate", adapter)) break;
    bool allocated = true;
    for (float **p : {&a, &b, &c})
      allocated = allocated && check(urUSMSharedAlloc(context, device, nullptr, nullptr, n * sizeof(float),
                                                      reinterpret_cast<void **>(p)),
                                     "urUSMSharedAlloc", adapter);
    if (!allocated) break;
    for (size_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i);
      b[i] = 2.0f * static_cast<float>(i) + 1.0f;
      c[i] = -1.0f;
    }
    // The arguments travel with the launch, as libsycl passes them.
    ur_exp_kernel_arg_properties_t args[3] = {};
    float *pointers[3] = {a, b, c};
    for (uint32_t i = 0; i < 3; ++i) {
      args[i].stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
      args[i].type = UR_EXP_KERNEL_ARG_TYPE_POINTER;
      args[i].index = i;
      args[i].size = sizeof(void *);
      args[i].value.pointer = pointers[i];
    }
    const size_t global = n, local = 256;
    ur_event_handle_t done = nullptr;
    if (!check(urEnqueueKernelLaunchWithArgsExp(queue, kernel, 1, nullptr, &global, &local, 3, args, nullptr, 0,
                                                nullptr, &done),
               "urEnqueueKernelLaunchWithArgsExp", adapter))
      break;
    bool waited = check(urEventWait(1, &done), "urEventWait", adapter);
    urEventRelease(done);
    if (!waited) break;
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) {
      const float expected = 3.0f * static_cast<float>(i) + 1.0f;
      if (c[i] != expected && wrong++ < 5)
        std::fprintf(stderr, "c[%zu] = %g, expected %g\n", i, static_cast<double>(c[i]),
                     static_cast<double>(expected));
    }
    if (wrong == 0) status = 0;
    else std::fprintf(stderr, "ur_vector_add: %zu of %zu elements wrong\n", wrong, n);
  } while (false);

  for (float *p : {a, b, c})
    if (p != nullptr) urUSMFree(context, p);
  if (kernel != nullptr) urKernelRelease(kernel);
  if (program != nullptr) urProgramRelease(program);
  if (queue != nullptr) urQueueRelease(queue);
  if (context != nullptr) urContextRelease(context);
  return status;
}

} // namespace

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : ZEAL_UR_VECTOR_ADD_SPV;
  std::vector<char> il = read_file(path);
  if (il.empty()) {
    std::fprintf(stderr, "ur_vector_add: cannot read SPIR-V from '%s'\n", path);
    return 1;
  }
  if (!check(urLoaderInit(0, nullptr), "urLoaderInit")) return 1;
  uint32_t count = 0;
  ur_adapter_handle_t adapter = nullptr;
  int status = 1;
  if (check(urAdapterGet(1, &adapter, &count), "urAdapterGet") && count > 0) {
    status = run(adapter, il);
    urAdapterRelease(adapter);
  } else {
    std::fprintf(stderr, "ur_vector_add: UR's loader found no adapter (set UR_ADAPTERS_FORCE_LOAD)\n");
  }
  urLoaderTearDown();
  if (status == 0) std::printf("ur_vector_add: OK\n");
  return status;
}
