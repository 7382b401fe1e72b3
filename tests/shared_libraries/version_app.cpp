// An application linked against version 1 of libzeal_test_version; run as
//   version_app <expected version> [--all-from-cache]
// it checks that the library loaded (whichever the dynamic loader found) supplies both the host code and
// the device code: its own kernel's import and the library's kernel give i + 100 * version. With
// --all-from-cache every object must come from the persistent cache (for the multi-process test).
#include "version_lib.hpp"

#include "kernel_bundle/program_builder.hpp"

#include <zeal/zeal.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr size_t n = 512;

bool check(const char *what, const int *got, int version) {
  for (size_t i = 0; i < n; ++i)
    if (got[i] != static_cast<int>(i) + 100 * version) {
      std::fprintf(stderr, "version_app: %s[%zu] = %d, expected %d (version %d)\n", what, i, got[i],
                   static_cast<int>(i) + 100 * version, version);
      return false;
    }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: version_app <expected version> [--all-from-cache]\n");
    return 2;
  }
  int version = std::atoi(argv[1]);
  bool all_from_cache = argc > 2 && std::strcmp(argv[2], "--all-from-cache") == 0;
  try {
    if (version_host() != version) {
      std::fprintf(stderr, "version_app: the host code is version %d, expected %d\n", version_host(), version);
      return 1;
    }
    zeal::queue q;
    int *out = zeal::malloc_shared<int>(n, q);
    q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("app_version"), out).wait();
    bool ok = check("app_version", out, version);
    ok = version_run(&q, out, n) == 0 && check("version_fill", out, version) && ok;
    zeal::free(out, q);
    if (all_from_cache) {
      auto stats = zeal::detail::persistent_cache_stats();
      if (stats.misses != 0 || stats.rejected != 0 || stats.hits == 0) {
        std::fprintf(stderr, "version_app: expected every object from the cache: %llu hits, %llu misses, %llu refused\n",
                     static_cast<unsigned long long>(stats.hits), static_cast<unsigned long long>(stats.misses),
                     static_cast<unsigned long long>(stats.rejected));
        ok = false;
      }
    }
    std::printf("version_app: %s (version %d)\n", ok ? "OK" : "FAILED", version);
    return ok ? 0 : 1;
  } catch (const zeal::exception &e) {
    std::fprintf(stderr, "version_app: error (%s): %s\n", zeal::errc_name(e.code()), e.what());
    return 1;
  }
}
