// Follows the imported symbols of device images to the images that export them, across libraries.
#pragma once

#include "common/result.hpp"
#include "kernel_bundle/image_registry.hpp"

#include <memory>
#include <string>
#include <vector>

namespace zeal::detail {

using ImageRef = std::shared_ptr<const RegisteredImage>;

struct Resolution {
  std::string symbol;
  ImageRef importer;
  ImageRef provider;
};

struct Closure {
  std::vector<ImageRef> images;          // the roots first, then providers in the order found
  std::vector<Resolution> resolutions;
};

// The images `roots` need, transitively. A symbol is taken, in this order, from
// (1) the roots and `members` (images the caller already put in the link), then
// (2) registered images of the importer's own executable or library, then
// (3) the registered image registered first. The rule is deterministic and
// prefers what the importer was built with. An import no image exports is
// ZEAL_RESULT_ERROR_LINK_FAILURE naming the symbol, the importing image and its
// library, and every library searched.
Result<Closure> resolve_imports(const std::vector<ImageRef> &roots, const std::vector<ImageRef> &members,
                                const ImageRegistry &registry);

} // namespace zeal::detail
