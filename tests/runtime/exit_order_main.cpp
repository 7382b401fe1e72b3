// A program whose zeal objects are static and destroyed at exit, after the runtime's own statics may be.
#include <zeal/zeal.hpp>

#include <cstdio>

namespace {
// Constructed on first use, destroyed by the C++ runtime at exit in an order zeal does not control.
zeal::queue &global_queue() {
  static zeal::queue q;
  return q;
}
zeal::kernel *global_kernel = nullptr;
int *global_data = nullptr;
} // namespace

int main() {
  try {
    zeal::queue &q = global_queue();
    static zeal::kernel k = q.get_kernel(zeal::get_kernel_id("scale"));
    global_kernel = &k;
    global_data = zeal::malloc_shared<int>(256, q);
    for (int i = 0; i < 256; ++i) global_data[i] = i;
    q.parallel_for(zeal::range<1>{256}, *global_kernel, global_data, 2);
    // Deliberately no wait and no free: the queue, the kernel and the allocation die at exit.
    std::printf("exit_order: submitted\n");
    return 0;
  } catch (const zeal::exception &e) {
    std::printf("exit_order: error: %s\n", e.what());
    return 1;
  }
}
