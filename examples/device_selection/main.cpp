// device_selection: shows which devices ONEAPI_DEVICE_SELECTOR lets through, and runs a kernel on each.
#include <zeal/zeal.hpp>

#include <cstdio>
#include <cstdlib>

int main() {
  const char *selector = std::getenv("ONEAPI_DEVICE_SELECTOR");
  std::printf("ONEAPI_DEVICE_SELECTOR=%s\n", selector != nullptr ? selector : "(unset)");
  try {
    auto devices = zeal::device::get_devices();
    std::printf("%zu device(s) visible\n", devices.size());
    for (const zeal::device &dev : devices) {
      zeal::queue q(dev);
      int *data = zeal::malloc_shared<int>(64, q);
      q.parallel_for(zeal::range<1>{64}, zeal::get_kernel_id("iota"), data).wait();
      bool ok = true;
      for (int i = 0; i < 64; ++i) ok = ok && data[i] == i;
      zeal::free(data, q);
      std::printf("[%s:%u] %s: %s\n", dev.backend().c_str(), dev.index(), dev.name().c_str(), ok ? "ran" : "WRONG");
      if (!ok) return 1;
    }
    zeal::device chosen;
    std::printf("default device: %s\n", chosen.name().c_str());
    return 0;
  } catch (const zeal::exception &e) {
    std::printf("error (%s): %s\n", zeal::errc_name(e.code()), e.what());
    return 1;
  }
}
