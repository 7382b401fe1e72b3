// The GNU build-id of a loaded object: which build of a driver made a cache entry, so that a rebuilt driver of the
// same version never reads code its predecessor generated.
#pragma once

#include <string>

namespace zeal {

// The GNU build-id note of the loaded object holding `address`, as lower-case hex; empty when it has none.
std::string build_id_of(const void *address);

} // namespace zeal
