// The host side of the image built-ins (image_sampling.hpp): the shared image library, called from the host.
#include "cpu_driver/compiler/builtins/image_sampling.hpp"

#include "ze_driver/image_sampling.hpp"

namespace zeal::cpu::detail {

void image_read(const ImageDescriptor *image, uint32_t sampler, uint32_t flags, const void *coord, void *out) {
  ze::image_sampling::image_read(image, sampler, flags, coord, out);
}

void image_write(const ImageDescriptor *image, uint32_t flags, const int32_t *coord, const void *color) {
  ze::image_sampling::image_write(image, flags, coord, color);
}

std::span<const RuntimeSymbol> image_symbols() {
  static const RuntimeSymbol symbols[] = {{image_read_symbol, reinterpret_cast<void *>(&image_read)},
                                          {image_write_symbol, reinterpret_cast<void *>(&image_write)}};
  return symbols;
}

} // namespace zeal::cpu::detail
