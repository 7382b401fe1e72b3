// One application x library split-mode combination: every kernel runs and is checked on the host.
#include <zeal/kernel_bundle.hpp>
#include <zeal/zeal.hpp>

#include <cstdio>
#include <cstring>

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

// Each image has the format its side was built with (APP_FORMAT, LIB_FORMAT: "spirv"
// or "native"): an AOT build that embedded SPIR-V, or a native image loaded as
// something else, fails here. Native images hold no SPIR-V, so nothing can JIT them.
bool formats_as_built(zeal::queue &q) {
  auto bundle = zeal::get_kernel_bundle<zeal::bundle_state::input>(q.get_context());
  bool ok = true;
  int libs = 0, apps = 0;
  for (const zeal::device_image &image : bundle.images()) {
    bool lib = image.origin().find("libsplit_lib") != std::string::npos;
    (lib ? libs : apps) += 1;
    const char *want = lib ? LIB_FORMAT : APP_FORMAT;
    const char *have = image.format() == zeal::image_format::native ? "native" : "spirv";
    if (std::strcmp(want, have) != 0) {
      std::printf("image %s of %s is %s, expected %s\n", image.name().c_str(), image.origin().c_str(), have, want);
      ok = false;
    }
  }
  if (libs == 0 || apps == 0) std::printf("expected images of both the application and the library\n");
  return ok && libs > 0 && apps > 0;
}

} // namespace

int main() {
  if (split_lib_present() != 1) return 1;
  try {
    zeal::queue q;
    bool ok = formats_as_built(q) && run(q, "split_app_uses_lib", 1.0f, [](float x) { return 3.0f * x; }) &&
              run(q, "split_lib_kernel", 2.0f, [](float x) { return 3.0f * x + 1.0f; }) &&
              run(q, "split_app_uses_app", 3.0f, [](float x) { return x + 100.0f; });
    std::printf("%s: %s\n", SPLIT_COMBINATION, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
  } catch (const zeal::exception &e) {
    std::printf("%s: error (%s): %s\n", SPLIT_COMBINATION, zeal::errc_name(e.code()), e.what());
    return 1;
  }
}
