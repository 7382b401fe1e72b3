// One application x library split-mode combination: every kernel runs and is checked on the host.
#include <zeal/zeal.hpp>

#include <cstdio>

extern "C" int split_lib_present();

namespace {

bool run(zeal::queue &q, const char *kernel, float in, float (*expected)(float)) {
  float *data = zeal::malloc_shared<float>(256, q);
  for (int i = 0; i < 256; ++i) data[i] = in + static_cast<float>(i);
  q.parallel_for(zeal::range<1>{256}, zeal::get_kernel_id(kernel), data).wait();
  bool ok = true;
  for (int i = 0; i < 256 && ok; ++i) {
    float x = in + static_cast<float>(i);
    float want = expected(x);
    if (data[i] != want) {
      std::printf("%s: data[%d] = %g, expected %g\n", kernel, i, static_cast<double>(data[i]),
                  static_cast<double>(want));
      ok = false;
    }
  }
  zeal::free(data, q);
  return ok;
}

} // namespace

int main() {
  if (split_lib_present() != 1) return 1;
  try {
    zeal::queue q;
    bool ok = run(q, "split_app_uses_lib", 1.0f, [](float x) { return 3.0f * x; }) &&
              run(q, "split_lib_kernel", 2.0f, [](float x) { return 3.0f * x + 1.0f; }) &&
              run(q, "split_app_uses_app", 3.0f, [](float x) { return x + 100.0f; });
    std::printf("%s: %s\n", SPLIT_COMBINATION, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
  } catch (const zeal::exception &e) {
    std::printf("%s: error (%s): %s\n", SPLIT_COMBINATION, zeal::errc_name(e.code()), e.what());
    return 1;
  }
}
