// One kernel ready to launch through zeal's C ABI, as the launch benchmark and the allocation-fault tests set it up.
#pragma once

#include <zeal/zeal_adapter.h>

#include <cstddef>
#include <cstdint>
#include <span>

namespace zeal_test {

// On one device: a context, an in-order queue, a program built from SPIR-V, one of its kernels and a shared USM
// allocation for the kernel to write.
struct ZealLaunchObjects {
  // The first call of create() that failed (its result and name), or success.
  struct Call {
    zeal_result_t result = ZEAL_RESULT_SUCCESS;
    const char *name = "";
  };

  const zeal_adapter_dispatch_t *d = nullptr;
  zeal_device_handle_t device = nullptr;
  zeal_context_handle_t context = nullptr;
  zeal_queue_handle_t queue = nullptr;
  zeal_program_handle_t program = nullptr;
  zeal_kernel_handle_t kernel = nullptr;
  void *out = nullptr;

  Call create(const zeal_adapter_dispatch_t &dispatch, zeal_device_handle_t on, std::span<const uint8_t> spirv,
              const char *kernel_name, size_t out_bytes) {
    d = &dispatch;
    device = on;
    if (zeal_result_t r = d->contextCreate(1, &device, &context); r != ZEAL_RESULT_SUCCESS) return {r, "contextCreate"};
    if (zeal_result_t r = d->queueCreate(context, device, ZEAL_QUEUE_FLAG_IN_ORDER, &queue); r != ZEAL_RESULT_SUCCESS)
      return {r, "queueCreate"};
    zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 0, nullptr};
    if (zeal_result_t r = d->programCreate(context, device, &desc, &program); r != ZEAL_RESULT_SUCCESS)
      return {r, "programCreate"};
    if (zeal_result_t r = d->programBuild(program, nullptr); r != ZEAL_RESULT_SUCCESS) return {r, "programBuild"};
    if (zeal_result_t r = d->kernelCreate(program, kernel_name, &kernel); r != ZEAL_RESULT_SUCCESS)
      return {r, "kernelCreate"};
    if (zeal_result_t r = d->usmAlloc(context, device, ZEAL_USM_KIND_SHARED, out_bytes, 0, &out);
        r != ZEAL_RESULT_SUCCESS)
      return {r, "usmAlloc"};
    return {};
  }

  // Releases whatever create() made, last first.
  void release() {
    if (d == nullptr) return;
    if (out != nullptr) d->usmFree(context, out);
    if (queue != nullptr) d->queueRelease(queue);
    if (kernel != nullptr) d->kernelRelease(kernel);
    if (program != nullptr) d->programRelease(program);
    if (context != nullptr) d->contextRelease(context);
    out = nullptr, queue = nullptr, kernel = nullptr, program = nullptr, context = nullptr;
  }
};

} // namespace zeal_test
