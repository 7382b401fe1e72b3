// Import resolution across registered images (see resolver.hpp for the provider rule).
#include "kernel_bundle/resolver.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <deque>
#include <set>

namespace zeal::detail {
namespace {

ImageRef choose_provider(const std::string &symbol, const ImageRef &importer, const std::vector<ImageRef> &members,
                         const ImageRegistry &registry) {
  for (const ImageRef &m : members)
    if (m->exports_symbol(symbol) && m != importer) return m;
  std::vector<ImageRef> exporters = registry.find_exporters(symbol);
  std::erase(exporters, importer);
  auto same_origin = std::find_if(exporters.begin(), exporters.end(),
                                  [&](const ImageRef &e) { return e->origin == importer->origin; });
  if (same_origin != exporters.end()) return *same_origin;
  return exporters.empty() ? nullptr : exporters.front();
}

} // namespace

Result<Closure> resolve_imports(const std::vector<ImageRef> &roots, const std::vector<ImageRef> &members,
                                const ImageRegistry &registry) {
  Closure closure;
  std::vector<ImageRef> link_members = roots;
  for (const ImageRef &m : members)
    if (std::find(link_members.begin(), link_members.end(), m) == link_members.end()) link_members.push_back(m);

  std::set<uint64_t> seen;
  std::deque<ImageRef> pending;
  for (const ImageRef &r : link_members)
    if (seen.insert(r->id).second) {
      closure.images.push_back(r);
      pending.push_back(r);
    }
  while (!pending.empty()) {
    ImageRef importer = pending.front();
    pending.pop_front();
    for (const std::string &symbol : importer->imports) {
      // An import the importer itself defines is not an import at all.
      if (importer->exports_symbol(symbol)) continue;
      ImageRef provider = choose_provider(symbol, importer, link_members, registry);
      if (!provider)
        return make_error(ZEAL_RESULT_ERROR_LINK_FAILURE,
                          fmt::format("device function '{}' imported by image {} is not exported by any registered "
                                      "device image (libraries searched: {})",
                                      symbol, importer->describe(), fmt::join(registry.origins(), ", ")));
      closure.resolutions.push_back({symbol, importer, provider});
      if (seen.insert(provider->id).second) {
        closure.images.push_back(provider);
        pending.push_back(provider);
      }
    }
  }
  return closure;
}

} // namespace zeal::detail
