// The registry of device images that executables and shared libraries register as they load.
#pragma once

#include <zeal/zeal_device_image.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace zeal::detail {

struct RegisteredImage {
  uint64_t id = 0;                 // unique for the life of the process, never reused
  const zeal_device_image_t *image = nullptr;
  const zeal_device_image_set_t *set = nullptr;
  std::string origin;              // the shared object or executable that registered it
  std::vector<std::string> kernels;
  std::vector<std::string> exports; // symbols it defines for others (kernels included)
  std::vector<std::string> imports; // symbols it needs from other images

  std::string describe() const;    // "'name.spv' of /path/libx.so"
  bool exports_symbol(std::string_view symbol) const;
};

class ImageRegistry {
public:
  static ImageRegistry &instance();

  void add(const zeal_device_image_set_t *set);
  void remove(const zeal_device_image_set_t *set);

  // Whether the image with this id is still registered (its library still loaded).
  bool holds(uint64_t id) const;
  // The image holding kernel `name`, or null. If several do, the one registered first.
  std::shared_ptr<const RegisteredImage> find_kernel(std::string_view name) const;
  std::vector<std::string> kernel_names() const;
  // Every image exporting `symbol`, in registration order.
  std::vector<std::shared_ptr<const RegisteredImage>> find_exporters(std::string_view symbol) const;
  // The shared objects and executables that registered images, in order, for messages.
  std::vector<std::string> origins() const;
  // Names of the registered sets and where they came from, for messages.
  std::string describe() const;
  // Changes whenever a set is added or removed: what was resolved against an older one may be stale.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

private:
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const RegisteredImage>> images_;
  // symbol -> the images exporting it, in registration order; kernel name -> images holding it.
  std::unordered_map<std::string, std::vector<std::shared_ptr<const RegisteredImage>>> exporters_;
  std::unordered_map<std::string, std::vector<std::shared_ptr<const RegisteredImage>>> kernel_index_;
  uint64_t next_id_ = 1;
  std::atomic<uint64_t> generation_{1};
};

// The text of a metadata entry, or empty.
std::string_view metadata_text(const zeal_device_image_t &image, std::string_view key);

} // namespace zeal::detail
