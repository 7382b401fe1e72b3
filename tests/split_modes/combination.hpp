// What one program of the split-mode matrix was built with: defined per program by combination.cpp.
#pragma once

struct Combination {
  const char *app_mode;   // per_kernel, per_source, off or auto
  const char *app_format; // spirv or aot
  const char *lib_mode;   // of libsplit_lib, libsplit_lib_b and the dlopen'ed libsplit_plugin
  const char *lib_format;
  const char *plugin;     // the path of the libsplit_plugin to dlopen
};

extern const Combination combination;
