// The adapter: Level Zero initialised once per process, its drivers as platforms.
#pragma once

#include "adapter/core/platform.hpp"

#include <memory>
#include <vector>

namespace zeal::adapter {

class Adapter : public Object {
public:
  static constexpr Kind kKind = Kind::Adapter;

  // The process-wide adapter, initialising Level Zero on first call; adds a reference.
  static Result<Adapter *> acquire();

  const std::vector<std::unique_ptr<Platform>> &platforms() const { return platforms_; }

private:
  Adapter() : Object(kKind) {}
  Status discover();

  std::vector<std::unique_ptr<Platform>> platforms_;
};

// Sets ZE_ENABLE_ALT_DRIVERS, unless the user did, so that the loader finds
// zeal's CPU driver beside the adapter and Intel's GPU driver where installed.
void configure_alt_drivers();

} // namespace zeal::adapter
