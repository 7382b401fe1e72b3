// The stress program's Unified Runtime face: zeal's UR adapter through the UR loader (UR_ADAPTERS_FORCE_LOAD), as
// DPC++'s runtime drives it: a program and kernel per thread from one shared program, launches with their
// arguments (urEnqueueKernelLaunchWithArgsExp), USM copies chained by events, own and shared queues.
#include "tests/stress/stress.hpp"
#include "tests/support/ur_kernel_args.hpp"

#include <unified-runtime/ur_api.h>

#include <string>
#include <thread>
#include <vector>

namespace zeal::stress {
namespace {

bool ok(ur_result_t r, const char *call) {
  if (r == UR_RESULT_SUCCESS) return true;
  failures().add(std::string("ur: ") + call + " returned " + std::to_string(int(r)));
  return false;
}

// zeal's CPU device through the loader, or null (a failure said why).
ur_device_handle_t zeal_device(ur_adapter_handle_t adapter) {
  uint32_t count = 0;
  if (!ok(urPlatformGet(adapter, 0, nullptr, &count), "urPlatformGet") || count == 0) return nullptr;
  std::vector<ur_platform_handle_t> platforms(count);
  if (!ok(urPlatformGet(adapter, count, platforms.data(), nullptr), "urPlatformGet")) return nullptr;
  for (ur_platform_handle_t p : platforms) {
    uint32_t n = 0;
    if (urDeviceGet(p, UR_DEVICE_TYPE_ALL, 0, nullptr, &n) != UR_RESULT_SUCCESS || n == 0) continue;
    std::vector<ur_device_handle_t> devices(n);
    if (ok(urDeviceGet(p, UR_DEVICE_TYPE_ALL, n, devices.data(), nullptr), "urDeviceGet")) return devices.front();
  }
  failures().add("ur: the UR loader found no device (is UR_ADAPTERS_FORCE_LOAD set to zeal's UR adapter?)");
  return nullptr;
}

void run_threads(ur_context_handle_t context, ur_device_handle_t device, ur_program_handle_t program,
                 unsigned threads, unsigned rounds) {
  ur_queue_properties_t out_of_order{UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, nullptr,
                                     UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
  ur_queue_handle_t shared[2] = {};
  if (!ok(urQueueCreate(context, device, &out_of_order, &shared[0]), "urQueueCreate") ||
      !ok(urQueueCreate(context, device, &out_of_order, &shared[1]), "urQueueCreate"))
    return;
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      ur_queue_handle_t own = nullptr;
      ur_kernel_handle_t kernel = nullptr;
      void *in = nullptr, *out = nullptr, *back = nullptr;
      const size_t bytes = elements * sizeof(int);
      std::vector<int> host_in(elements);
      for (size_t i = 0; i < elements; ++i) host_in[i] = input_value(t, i);
      if (ok(urQueueCreate(context, device, t % 2 ? &out_of_order : nullptr, &own), "urQueueCreate") &&
          ok(urKernelCreate(program, "affine", &kernel), "urKernelCreate") &&
          ok(urUSMDeviceAlloc(context, device, nullptr, nullptr, bytes, &in), "urUSMDeviceAlloc") &&
          ok(urUSMDeviceAlloc(context, device, nullptr, nullptr, bytes, &out), "urUSMDeviceAlloc") &&
          ok(urUSMHostAlloc(context, nullptr, nullptr, bytes, &back), "urUSMHostAlloc")) {
        for (unsigned round = 0; round < rounds && failures().none(); ++round) {
          const Round r = make_round(t, round);
          ur_queue_handle_t q = r.on_shared ? shared[round % 2] : own;
          const ur_exp_kernel_arg_properties_t args[] = {
              zeal::test::ur_kernel_arg(UR_EXP_KERNEL_ARG_TYPE_POINTER, 0, sizeof(void *), in),
              zeal::test::ur_kernel_arg(UR_EXP_KERNEL_ARG_TYPE_POINTER, 1, sizeof(void *), out),
              zeal::test::ur_kernel_arg(UR_EXP_KERNEL_ARG_TYPE_VALUE, 2, sizeof(int), &r.a),
              zeal::test::ur_kernel_arg(UR_EXP_KERNEL_ARG_TYPE_VALUE, 3, sizeof(int), &r.b)};
          const size_t global = elements, local = 64;
          ur_event_handle_t copied = nullptr, ran = nullptr, returned = nullptr;
          if ((round == 0 || r.recopy) &&
              !ok(urEnqueueUSMMemcpy(q, false, in, host_in.data(), bytes, 0, nullptr, &copied), "urEnqueueUSMMemcpy"))
            break;
          if (!ok(urEnqueueKernelLaunchWithArgsExp(q, kernel, 1, nullptr, &global, round % 3 ? &local : nullptr, 4,
                                                   args, nullptr, copied ? 1 : 0, copied ? &copied : nullptr, &ran),
                  "urEnqueueKernelLaunchWithArgsExp"))
            break;
          if (!ok(urEnqueueUSMMemcpy(q, false, back, out, bytes, 1, &ran, &returned), "urEnqueueUSMMemcpy")) break;
          if (!ok(urEventWait(1, &returned), "urEventWait")) break;
          check_round(static_cast<int *>(back), r, "ur");
          for (ur_event_handle_t e : {copied, ran, returned})
            if (e != nullptr) urEventRelease(e);
          launches().fetch_add(1, std::memory_order_relaxed);
        }
      }
      for (void *p : {in, out, back})
        if (p != nullptr) urUSMFree(context, p);
      if (kernel != nullptr) urKernelRelease(kernel);
      if (own != nullptr) {
        urQueueFinish(own);
        urQueueRelease(own);
      }
    });
  for (std::thread &w : workers) w.join();
  for (ur_queue_handle_t q : shared) {
    urQueueFinish(q);
    urQueueRelease(q);
  }
}

} // namespace

bool run_ur(unsigned threads, unsigned rounds) {
  if (!ok(urLoaderInit(0, nullptr), "urLoaderInit")) return true;
  ur_adapter_handle_t adapter = nullptr;
  uint32_t adapters = 0;
  if (ok(urAdapterGet(1, &adapter, &adapters), "urAdapterGet") && adapter != nullptr) {
    if (ur_device_handle_t device = zeal_device(adapter)) {
      ur_context_handle_t context = nullptr;
      ur_program_handle_t program = nullptr;
      const std::vector<uint8_t> spirv = read_spirv("stress_kernels.spv");
      if (ok(urContextCreate(1, &device, nullptr, &context), "urContextCreate") &&
          ok(urProgramCreateWithIL(context, spirv.data(), spirv.size(), nullptr, &program), "urProgramCreateWithIL") &&
          ok(urProgramBuild(context, program, nullptr), "urProgramBuild"))
        run_threads(context, device, program, threads, rounds);
      if (program != nullptr) urProgramRelease(program);
      if (context != nullptr) urContextRelease(context);
    }
    urAdapterRelease(adapter);
  }
  urLoaderTearDown();
  return true;
}

} // namespace zeal::stress
