// A USM pool (UR's urUSMPool*): allocations made through it are blocks of a size class, and a freed block is kept
// for the next allocation of the same kind, device and class instead of going back to the driver. Every kept
// block goes back to the driver when the pool goes; blocks still allocated then become the context's own.
#pragma once

#include "adapter/core/context.hpp"

#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace zeal::adapter {

class UsmPool : public Object {
public:
  static constexpr Kind kKind = Kind::UsmPool;
  // UR's default for the largest allocation a pool keeps.
  static constexpr size_t kDefaultMaxPoolable = size_t{2} << 20;
  struct Options {
    bool zero_initialize = false;             // every block handed out is zeroed
    size_t max_poolable = kDefaultMaxPoolable; // larger blocks go back to the driver when freed
  };

  static Result<UsmPool *> create(Context &context, Options options);
  ~UsmPool() override;

  Context &context() const { return *context_; }
  const Options &options() const { return options_; }
  // At least `size` bytes of `kind` (for `device`; null for host memory), aligned to `alignment` (0: the
  // driver's default): a kept block of the size class when one fits, else a new one.
  Result<void *> allocate(Device *device, zeal_usm_kind_t kind, size_t size, size_t alignment);
  // Whether a freed block of `block` bytes is kept (Context::usm_free asks), and keeping it: the context's
  // record of the block says its kind, device (null for host memory) and size.
  bool keeps(size_t block) const { return block <= options_.max_poolable; }
  void keep(void *ptr, zeal_usm_kind_t kind, Device *device, size_t block);

private:
  UsmPool(Context &context, Options options) : Object(kKind), context_(&context), options_(options) {}
  // The block a request of `size` bytes gets: small sizes rounded up to a power of two (64 bytes at least), so
  // that freed blocks serve later requests of nearby sizes.
  size_t block_size(size_t size) const;
  Status zero(void *ptr, size_t size, zeal_usm_kind_t kind, Device *device);

  using Class = std::tuple<zeal_usm_kind_t, Device *, size_t>;
  Ref<Context> context_;
  Options options_;
  mutable std::mutex mutex_;
  std::map<Class, std::vector<void *>> kept_;
};

} // namespace zeal::adapter
