// shared_libraries: device code from two shared libraries: the application's kernel calls a device
// function of a library it links, and a library loaded with dlopen runs its kernel through its host function.
#include <zeal/zeal.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <string>

extern "C" const char *linked_lib_name();

namespace {

constexpr size_t n = 1024;

bool check(const char *what, const float *got, float (*expected)(size_t)) {
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    if (got[i] != expected(i) && wrong++ < 3)
      std::fprintf(stderr, "%s[%zu] = %g, expected %g\n", what, i, static_cast<double>(got[i]),
                   static_cast<double>(expected(i)));
  std::printf("%s: %s (%zu elements)\n", what, wrong == 0 ? "OK" : "FAILED", n);
  return wrong == 0;
}

} // namespace

int main() {
  try {
    zeal::queue q;
    std::printf("device: %s\n", q.get_device().name().c_str());
    float *x = zeal::malloc_shared<float>(n, q);
    float *y = zeal::malloc_shared<float>(n, q);
    for (size_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i);
      y[i] = 1.0f;
    }

    // 1. The application's kernel app_axpy calls linked_axpy, device code of the library it links.
    std::printf("linked library: %s\n", linked_lib_name());
    q.parallel_for(zeal::nd_range<1>{{n}, {64}}, zeal::get_kernel_id("app_axpy"), 2.0f, x, y).wait();
    bool ok = check("app_axpy -> linked_axpy", y, [](size_t i) { return 2.0f * static_cast<float>(i) + 1.0f; });

    // 2. A library loaded at run time: its images register when it loads, and its host function runs its kernel.
    // It lives beside the linked library; a full path, because a bare name is searched
    // with the run path of dlopen's caller, which a sanitizer's interceptor replaces.
    Dl_info info{};
    dladdr(reinterpret_cast<const void *>(&linked_lib_name), &info);
    std::string folder = info.dli_fname != nullptr ? info.dli_fname : "";
    folder = folder.substr(0, folder.find_last_of('/') + 1);
    void *plugin = dlopen((folder + "libshared_libraries_plugin.so").c_str(), RTLD_NOW | RTLD_LOCAL);
    if (plugin == nullptr) {
      std::fprintf(stderr, "shared_libraries: dlopen failed: %s\n", dlerror());
      return 1;
    }
    using squares_fn = int (*)(zeal::queue *, const float *, float *, size_t);
    auto squares = reinterpret_cast<squares_fn>(dlsym(plugin, "plugin_squares"));
    if (squares == nullptr) {
      std::fprintf(stderr, "shared_libraries: dlsym failed: %s\n", dlerror());
      return 1;
    }
    std::printf("dlopen'ed library: libshared_libraries_plugin.so\n");
    ok = squares(&q, x, y, n) == 0 &&
         check("plugin_squares (through the library's host function)", y,
               [](size_t i) { return static_cast<float>(i) * static_cast<float>(i); }) &&
         ok;
    dlclose(plugin);

    zeal::free(x, q);
    zeal::free(y, q);
    std::printf("shared_libraries: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
  } catch (const zeal::exception &e) {
    std::fprintf(stderr, "shared_libraries: error (%s): %s\n", zeal::errc_name(e.code()), e.what());
    return 1;
  }
}
