// C ABI entry points of kernels and kernel launches.
#include "adapter/zeal/entry_points.hpp"
#include "adapter/core/kernel.hpp"
#include "adapter/core/queue.hpp"

namespace zeal::adapter {
namespace {

zeal_result_t ZEAL_APICALL kernel_create(zeal_program_handle_t program, const char *name,
                                         zeal_kernel_handle_t *kernel) {
  return run_entry(
      "kernelCreate",
      [&] { return fmt::format("program={}, name='{}'", fmt::ptr(program), name ? name : "(null)"); },
      [&]() -> Status {
        auto p = from_handle<Program>(program, "program");
        if (!p.ok()) return std::move(p).error();
        if (Status s = require(name != nullptr && kernel != nullptr, "kernelCreate: name or kernel is null");
            !s.ok())
          return s;
        auto k = Kernel::create(*p.value(), name);
        if (!k.ok()) return std::move(k).error();
        *kernel = to_handle<Kernel, zeal_kernel_handle_t>(k.value());
        return {};
      });
}

zeal_result_t ZEAL_APICALL kernel_set_arg(zeal_kernel_handle_t kernel, const zeal_kernel_arg_t *arg) {
  return run_entry(
      "kernelSetArg",
      [&] {
        return fmt::format("kernel={}, index={}, kind={}, size={}", fmt::ptr(kernel), arg ? arg->index : 0,
                           arg ? abi_value(arg->kind) : 0, arg ? arg->size : 0);
      },
      [&]() -> Status {
        auto k = from_handle<Kernel>(kernel, "kernel");
        if (!k.ok()) return std::move(k).error();
        if (Status s = require(arg != nullptr, "kernelSetArg: arg is null"); !s.ok()) return s;
        return k.value()->set_arg(*arg);
      });
}

zeal_result_t ZEAL_APICALL kernel_get_info(zeal_kernel_handle_t kernel, zeal_kernel_info_t key, size_t size,
                                           void *value, size_t *size_ret) {
  return get_info<Kernel>("kernelGetInfo", "kernel", kernel, key, size, value, size_ret,
                          [](const Kernel &k) { return "kernel '" + k.name() + "'"; });
}

zeal_result_t ZEAL_APICALL kernel_get_sub_group_info(zeal_kernel_handle_t kernel, zeal_device_handle_t device,
                                                     zeal_kernel_sub_group_info_t key, const size_t *local_size,
                                                     size_t size, void *value, size_t *size_ret) {
  return run_entry(
      "kernelGetSubGroupInfo",
      [&] { return fmt::format("kernel={}, device={}, key={}", fmt::ptr(kernel), fmt::ptr(device), abi_value(key)); },
      [&]() -> Status {
        auto k = from_handle<Kernel>(kernel, "kernel");
        if (!k.ok()) return std::move(k).error();
        auto d = from_handle<Device>(device, "device");
        if (!d.ok()) return std::move(d).error();
        const Kernel &kern = *k.value();
        if (Status s = kern.check_device(*d.value()); !s.ok()) return s;
        return write_answer(kern.sub_group_info(abi_value(key), local_size, "kernelGetSubGroupInfo"), size, value,
                            size_ret, "kernel '" + kern.name() + "'");
      });
}

zeal_result_t ZEAL_APICALL enqueue_kernel_launch(zeal_queue_handle_t queue, zeal_kernel_handle_t kernel,
                                                 const zeal_launch_desc_t *launch, uint32_t num_wait,
                                                 const zeal_event_handle_t *wait, zeal_event_handle_t *event) {
  return run_entry(
      "enqueueKernelLaunch",
      [&] {
        if (launch == nullptr) return fmt::format("queue={}, kernel={}, launch=null", fmt::ptr(queue), fmt::ptr(kernel));
        return fmt::format("queue={}, kernel={}, dim={}, global={{{}, {}, {}}}, local={{{}, {}, {}}}, "
                           "num_args={}, num_wait={}",
                           fmt::ptr(queue), fmt::ptr(kernel), launch->work_dim, launch->global_size[0],
                           launch->global_size[1], launch->global_size[2], launch->local_size[0],
                           launch->local_size[1], launch->local_size[2], launch->num_args, num_wait);
      },
      [&]() -> Status {
        auto q = from_handle<Queue>(queue, "queue");
        if (!q.ok()) return std::move(q).error();
        auto k = from_handle<Kernel>(kernel, "kernel");
        if (!k.ok()) return std::move(k).error();
        if (Status s = require(launch != nullptr, "enqueueKernelLaunch: launch is null"); !s.ok()) return s;
        if (Status s = require(launch->num_args == 0 || launch->args != nullptr,
                               "enqueueKernelLaunch: args is null but num_args is not 0");
            !s.ok())
          return s;
        WaitList waits;
        if (Status s = wait_list(num_wait, wait, waits); !s.ok()) return s;
        auto e = k.value()->launch(*q.value(), *launch, waits.events());
        if (!e.ok()) return std::move(e).error();
        return_event(std::move(e).value(), event);
        return {};
      });
}

} // namespace

void fill_kernel_entries(zeal_adapter_dispatch_t &t) {
  t.kernelCreate = kernel_create;
  t.kernelRetain = [](zeal_kernel_handle_t k) { return retain_or_release<Kernel>("kernelRetain", "kernel", k, true); };
  t.kernelRelease = [](zeal_kernel_handle_t k) {
    return retain_or_release<Kernel>("kernelRelease", "kernel", k, false);
  };
  t.kernelSetArg = kernel_set_arg;
  t.kernelGetInfo = kernel_get_info;
  t.kernelGetSubGroupInfo = kernel_get_sub_group_info;
  t.enqueueKernelLaunch = enqueue_kernel_launch;
}

} // namespace zeal::adapter
