// Host API of the versioned library; both versions share the soname and these symbols.
#pragma once

#include <cstddef>

namespace zeal {
class queue;
}

extern "C" {
// The version the host code was built as.
int version_host();
// Fills out[i] with the library kernel's version_offset(i); 0 on success.
int version_run(zeal::queue *q, int *out, size_t n);
}
