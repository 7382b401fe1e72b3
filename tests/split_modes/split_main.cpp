// One application x library split-mode combination of the shared-library test plan: every case
// whose device code is split computes a vector sum, checked on the host; failures name the case
// and the combination.
#include "combination.hpp"
#include "lib.hpp"

#include <zeal/kernel_bundle.hpp>
#include <zeal/zeal.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

namespace {

constexpr size_t n = 256;

// Inputs a[i] = i and b[i] = 2i + 1, and the output c, in shared memory; every result is exact in float.
struct Vectors {
  explicit Vectors(zeal::queue &queue) : q(queue) {
    for (size_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i);
      b[i] = static_cast<float>(2 * i + 1);
    }
  }
  ~Vectors() {
    zeal::free(a, q);
    zeal::free(b, q);
    zeal::free(c, q);
  }
  Vectors(const Vectors &) = delete;
  Vectors &operator=(const Vectors &) = delete;

  zeal::queue &q;
  float *a = zeal::malloc_shared<float>(n, q);
  float *b = zeal::malloc_shared<float>(n, q);
  float *c = zeal::malloc_shared<float>(n, q);
};

// Sets c to NaN, so that nothing left by an earlier case can pass, runs `launch`, and checks
// c[i] == want(a[i], b[i]) for every i.
template <class Launch>
bool computes(const char *what, Vectors &v, Launch launch, float (*want)(float, float)) {
  std::fill(v.c, v.c + n, std::numeric_limits<float>::quiet_NaN());
  launch();
  for (size_t i = 0; i < n; ++i)
    if (!(v.c[i] == want(v.a[i], v.b[i]))) {
      std::printf("  %s: c[%zu] = %g, expected %g\n", what, i, static_cast<double>(v.c[i]),
                  static_cast<double>(want(v.a[i], v.b[i])));
      return false;
    }
  return true;
}

template <class... Extra>
auto kernel(Vectors &v, const char *name, Extra... extra) {
  return [&v, name, extra...] {
    v.q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id(name), v.a, v.b, v.c, extra...).wait();
  };
}

auto kernel(Vectors &v, const zeal::kernel &k) {
  return [&v, k] { v.q.parallel_for(zeal::range<1>{n}, k, v.a, v.b, v.c).wait(); };
}

bool same(const char *what, const std::string &have, const std::string &want) {
  if (have == want) return true;
  std::printf("  %s is '%s', expected '%s'\n", what, have.c_str(), want.c_str());
  return false;
}

std::string lib_build() { return std::string(combination.lib_mode) + " " + combination.lib_format; }

// Which side registered an image: a library of the matrix, else the application.
std::string side_of(const std::string &origin) {
  std::string file = origin.substr(origin.rfind('/') + 1);
  for (std::string lib : {"libsplit_lib_b_", "libsplit_lib_", "libsplit_plugin_"})
    if (file.starts_with(lib)) return lib.substr(0, lib.size() - 1);
  return "application";
}

// A side's images holding kernels: as many as its split mode makes of `kernels` kernels in
// `sources` sources, each in the format the side was built with ("aot" is native). An AOT build
// that embedded SPIR-V, or a side built with another mode than its name says, fails here.
bool images_as_built(const zeal::context &ctx, const char *side, const char *mode, const char *format,
                     size_t kernels, size_t sources) {
  bool ok = true;
  size_t count = 0;
  for (const zeal::device_image &image : zeal::get_kernel_bundle<zeal::bundle_state::input>(ctx).images()) {
    if (side_of(image.origin()) != side) continue;
    ++count;
    const char *have = image.format() == zeal::image_format::native ? "aot" : "spirv";
    if (std::strcmp(have, format) != 0) {
      std::printf("  image %s of %s is %s, expected %s\n", image.name().c_str(), image.origin().c_str(), have, format);
      ok = false;
    }
  }
  size_t want = std::strcmp(mode, "per_kernel") == 0 ? kernels : std::strcmp(mode, "off") == 0 ? 1 : sources;
  if (count != want) {
    std::printf("  %s has %zu images with kernels, expected %zu (split %s)\n", side, count, want, mode);
    ok = false;
  }
  return ok;
}

// 2.1: kernels and device functions on both sides; a library function called by kernels of both.
bool basic(Vectors &v) {
  zeal::context ctx = v.q.get_context();
  bool ok = same("libsplit_lib's build", split_lib_build(), lib_build());
  ok &= images_as_built(ctx, "application", combination.app_mode, combination.app_format, 4, 3);
  ok &= images_as_built(ctx, "libsplit_lib", combination.lib_mode, combination.lib_format, 2, 1);
  ok &= computes("split_app_uses_lib", v, kernel(v, "split_app_uses_lib"), [](float a, float b) { return 3 * a + b; });
  ok &= computes("split_app_uses_app", v, kernel(v, "split_app_uses_app"), [](float a, float b) { return a + 100 + b; });
  ok &= computes("split_lib_kernel", v, kernel(v, "split_lib_kernel"), [](float a, float b) { return 3 * a - b; });
  return ok;
}

// 2.2: application -> libsplit_lib -> libsplit_lib_b, the libraries in one mode.
bool dependent_libraries(Vectors &v) {
  bool ok = same("libsplit_lib_b's build", split_lib_b_build_seen_by_lib(), lib_build());
  ok &= computes("split_app_uses_libs", v, kernel(v, "split_app_uses_libs"), [](float a, float b) { return 2 * a + b; });
  return ok;
}

// 2.3.1: the application's function, called by the library's kernel through its address.
bool function_pointer_to_library(Vectors &v) {
  zeal::device_function_ptr fn = zeal::get_device_function_pointer(v.q, "split_app_square");
  return computes("split_lib_apply(split_app_square)", v, [&] { split_lib_run_apply(v.q, fn, v.a, v.b, v.c, n); },
                  [](float a, float b) { return a * a + b; });
}

// 2.3.2: the library's function, at the address its host API returns, called by the application's kernel.
bool function_pointer_from_library(Vectors &v) {
  zeal::device_function_ptr fn = split_lib_cube_address(v.q);
  return computes("split_app_call_through(split_lib_cube)", v, kernel(v, "split_app_call_through", fn),
                  [](float a, float b) { return a * a * a + b; });
}

// 2.5.2: a library with device code, not linked but loaded with dlopen, used through its host
// functions; its kernels are registered while it is loaded only.
bool dlopen_library(Vectors &v) {
  using BuildFn = const char *(*)();
  using RunFn = int (*)(zeal::queue *, const float *, const float *, float *, size_t);
  void *lib = dlopen(combination.plugin, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::printf("  dlopen: %s\n", dlerror());
    return false;
  }
  auto build = reinterpret_cast<BuildFn>(dlsym(lib, "split_plugin_build"));
  auto add = reinterpret_cast<RunFn>(dlsym(lib, "split_plugin_weighted_add"));
  auto sub = reinterpret_cast<RunFn>(dlsym(lib, "split_plugin_biased_sub"));
  bool ok = build != nullptr && add != nullptr && sub != nullptr;
  if (!ok) std::printf("  libsplit_plugin lacks a host function: %s\n", dlerror());
  if (ok) {
    ok &= same("libsplit_plugin's build", build(), lib_build());
    ok &= images_as_built(v.q.get_context(), "libsplit_plugin", combination.lib_mode, combination.lib_format, 2, 1);
    ok &= computes("split_plugin_weighted_add", v, [&] { (void)add(&v.q, v.a, v.b, v.c, n); },
                   [](float a, float b) { return 5 * a + b; });
    ok &= computes("split_plugin_biased_sub", v, [&] { (void)sub(&v.q, v.a, v.b, v.c, n); },
                   [](float a, float b) { return a - 7 - b; });
  }
  if (dlclose(lib) != 0) {
    std::printf("  dlclose: %s\n", dlerror());
    return false;
  }
  for (const zeal::kernel_id &id : zeal::get_kernel_ids())
    if (std::string(id.get_name()).starts_with("split_plugin_")) {
      std::printf("  %s is still registered after dlclose\n", id.get_name());
      ok = false;
    }
  return ok;
}

// 2.7.1: the bundle of a kernel that calls a library function, built and run.
bool bundle_built(Vectors &v) {
  zeal::kernel_id id = zeal::get_kernel_id("split_app_uses_lib");
  auto input = zeal::get_kernel_bundle<zeal::bundle_state::input>(v.q.get_context(), {v.q.get_device()}, {id});
  auto exe = zeal::build(input);
  if (!exe.has_kernel(id)) {
    std::printf("  the built bundle has no split_app_uses_lib\n");
    return false;
  }
  return computes("split_app_uses_lib of the built bundle", v, kernel(v, exe.get_kernel(id)),
                  [](float a, float b) { return 3 * a + b; });
}

// 2.7.2: the compiled bundle of a kernel calling libsplit_lib (-> libsplit_lib_b), linked with the
// bundle of the library's kernels that its host API returns.
bool bundles_linked(Vectors &v) {
  zeal::context ctx = v.q.get_context();
  zeal::kernel_id app_id = zeal::get_kernel_id("split_app_uses_libs");
  zeal::kernel_id lib_id = zeal::get_kernel_id("split_lib_kernel");
  auto app = zeal::compile(zeal::get_kernel_bundle<zeal::bundle_state::input>(ctx, {v.q.get_device()}, {app_id}));
  auto exe = zeal::link({app, split_lib_bundle(ctx)});
  if (!exe.has_kernel(app_id) || !exe.has_kernel(lib_id)) {
    std::printf("  the linked bundle lacks split_app_uses_libs or split_lib_kernel\n");
    return false;
  }
  bool ok = computes("split_app_uses_libs of the linked bundle", v, kernel(v, exe.get_kernel(app_id)),
                     [](float a, float b) { return 2 * a + b; });
  ok &= computes("split_lib_kernel of the linked bundle", v, kernel(v, exe.get_kernel(lib_id)),
                 [](float a, float b) { return 3 * a - b; });
  return ok;
}

struct Case {
  const char *name;
  bool (*run)(Vectors &);
};

constexpr Case cases[] = {
    {"basic", basic},
    {"dependent_libraries", dependent_libraries},
    {"function_pointer_to_library", function_pointer_to_library},
    {"function_pointer_from_library", function_pointer_from_library},
    {"dlopen_library", dlopen_library},
    {"bundle_built", bundle_built},
    {"bundles_linked", bundles_linked},
};

} // namespace

int main() {
  char where[160];
  std::snprintf(where, sizeof(where), "app %s %s, library %s %s", combination.app_mode, combination.app_format,
                combination.lib_mode, combination.lib_format);
  int failed = 0;
  try {
    zeal::queue q;
    Vectors v(q);
    for (const Case &c : cases) {
      bool ok = false;
      try {
        ok = c.run(v);
      } catch (const zeal::exception &e) {
        std::printf("  error (%s): %s\n", zeal::errc_name(e.code()), e.what());
      }
      std::printf("%s [%s]: %s\n", c.name, where, ok ? "OK" : "FAILED");
      failed += ok ? 0 : 1;
    }
  } catch (const zeal::exception &e) {
    std::printf("[%s]: error (%s): %s\n", where, zeal::errc_name(e.code()), e.what());
    return 1;
  }
  return failed == 0 ? 0 : 1;
}
