// Doubles 1000 integers on the default device through an installed zeal.
#include <zeal/zeal.hpp>

#include <cstdio>

int main() {
  try {
    zeal::queue q;
    int *data = zeal::malloc_shared<int>(1000, q);
    for (int i = 0; i < 1000; ++i) data[i] = i;
    q.parallel_for(zeal::range<1>{1000}, zeal::get_kernel_id("twice"), data).wait();
    for (int i = 0; i < 1000; ++i)
      if (data[i] != 2 * i) {
        std::printf("consumer: FAILED at %d\n", i);
        return 1;
      }
    zeal::free(data, q);
    std::printf("consumer: OK on %s\n", q.get_device().name().c_str());
    return 0;
  } catch (const zeal::exception &e) {
    std::printf("consumer: error: %s\n", e.what());
    return 1;
  }
}
