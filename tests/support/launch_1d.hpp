// A one-dimensional launch description of zeal's C ABI, for the tests and programs that launch through it.
#pragma once

#include <zeal/zeal_adapter.h>

#include <cstddef>
#include <cstdint>

namespace zeal_test {

// `global` work-items in groups of `local` (0: the adapter chooses), with `num_args` arguments at `args`.
inline zeal_launch_desc_t launch_1d(size_t global, size_t local, uint32_t num_args = 0,
                                    const zeal_kernel_arg_t *args = nullptr) {
  zeal_launch_desc_t l{};
  l.work_dim = 1;
  l.global_size[0] = global;
  l.global_size[1] = l.global_size[2] = 1;
  l.local_size[0] = local;
  l.num_args = num_args;
  l.args = args;
  return l;
}

} // namespace zeal_test
