// Keeps the device images of loaded executables and shared libraries, and finds kernels in them.
#include "kernel_bundle/image_registry.hpp"

#include "common/log.hpp"
#include "common/metadata_list.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

#include <algorithm>

namespace zeal::detail {
namespace {

std::string origin_of(const void *address, const char *fallback) {
  Dl_info info{};
  if (dladdr(address, &info) != 0 && info.dli_fname != nullptr && info.dli_fname[0] != '\0') return info.dli_fname;
  return fallback != nullptr ? fallback : "(unknown)";
}

} // namespace

std::string_view metadata_text(const zeal_device_image_t &image, std::string_view key) {
  for (uint32_t i = 0; i < image.num_metadata; ++i) {
    const zeal_metadata_entry_t &entry = image.metadata[i];
    if (entry.key != nullptr && key == entry.key)
      return {static_cast<const char *>(entry.value), entry.size};
  }
  return {};
}

std::string RegisteredImage::describe() const { return fmt::format("'{}' of {}", image->name, origin); }

bool RegisteredImage::exports_symbol(std::string_view symbol) const {
  return std::find(exports.begin(), exports.end(), symbol) != exports.end();
}

ImageRegistry &ImageRegistry::instance() {
  // Leaked on purpose: registrars unregister from static destructors that may
  // run after this translation unit's statics are gone.
  static auto *registry = new ImageRegistry();
  return *registry;
}

void ImageRegistry::add(const zeal_device_image_set_t *set) {
  auto &log = logger("zeal");
  if (set == nullptr || set->version != ZEAL_DEVICE_IMAGE_VERSION) {
    log.error("ignoring a device image set of version {} (this runtime reads version {})",
              set != nullptr ? set->version : 0, ZEAL_DEVICE_IMAGE_VERSION);
    return;
  }
  std::string origin = origin_of(set, set->name);
  std::lock_guard lock(mutex_);
  for (uint32_t i = 0; i < set->num_images; ++i) {
    auto image = std::make_shared<RegisteredImage>();
    image->id = next_id_++;
    image->image = &set->images[i];
    image->set = set;
    image->origin = origin;
    image->kernels = split_metadata_list(metadata_text(set->images[i], ZEAL_METADATA_KERNELS));
    image->exports = split_metadata_list(metadata_text(set->images[i], ZEAL_METADATA_EXPORTS));
    image->imports = split_metadata_list(metadata_text(set->images[i], ZEAL_METADATA_IMPORTS));
    log.debug("registered image '{}' of {} with {} kernel(s)", set->images[i].name, origin, image->kernels.size());
    for (const std::string &symbol : image->exports) exporters_[symbol].push_back(image);
    for (const std::string &kernel : image->kernels) kernel_index_[kernel].push_back(image);
    images_.push_back(std::move(image));
  }
  generation_.fetch_add(1, std::memory_order_release);
}

void ImageRegistry::remove(const zeal_device_image_set_t *set) {
  std::lock_guard lock(mutex_);
  auto of_set = [&](const auto &image) { return image->set == set; };
  // Names no image offers any more go too: a library loaded and unloaded for hours leaves nothing behind.
  auto drop = [&](auto &index, const std::string &name) {
    auto it = index.find(name);
    if (it == index.end()) return;
    std::erase_if(it->second, of_set);
    if (it->second.empty()) index.erase(it);
  };
  for (const auto &image : images_) {
    if (!of_set(image)) continue;
    for (const std::string &symbol : image->exports) drop(exporters_, symbol);
    for (const std::string &kernel : image->kernels) drop(kernel_index_, kernel);
  }
  std::erase_if(images_, of_set);
  generation_.fetch_add(1, std::memory_order_release);
}

bool ImageRegistry::holds(uint64_t id) const {
  std::lock_guard lock(mutex_);
  return std::any_of(images_.begin(), images_.end(), [&](const auto &image) { return image->id == id; });
}

std::shared_ptr<const RegisteredImage> ImageRegistry::find_kernel(std::string_view name) const {
  std::lock_guard lock(mutex_);
  auto it = kernel_index_.find(std::string(name));
  return it == kernel_index_.end() || it->second.empty() ? nullptr : it->second.front();
}

std::vector<std::string> ImageRegistry::kernel_names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const auto &image : images_)
    for (const std::string &k : image->kernels)
      if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
  return names;
}

std::vector<std::shared_ptr<const RegisteredImage>> ImageRegistry::find_exporters(std::string_view symbol) const {
  std::lock_guard lock(mutex_);
  auto it = exporters_.find(std::string(symbol));
  return it == exporters_.end() ? std::vector<std::shared_ptr<const RegisteredImage>>{} : it->second;
}

std::vector<std::string> ImageRegistry::origins() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto &image : images_)
    if (std::find(out.begin(), out.end(), image->origin) == out.end()) out.push_back(image->origin);
  return out;
}

std::string ImageRegistry::describe() const {
  std::lock_guard lock(mutex_);
  if (images_.empty()) return "no device images are registered";
  std::string out;
  for (const auto &image : images_)
    out += fmt::format("{}'{}' of {}", out.empty() ? "" : ", ", image->image->name, image->origin);
  return out;
}

} // namespace zeal::detail

extern "C" ZEAL_EXPORT void zealRegisterDeviceImages(const zeal_device_image_set_t *set) {
  zeal::detail::ImageRegistry::instance().add(set);
}

extern "C" ZEAL_EXPORT void zealUnregisterDeviceImages(const zeal_device_image_set_t *set) {
  zeal::detail::ImageRegistry::instance().remove(set);
}
