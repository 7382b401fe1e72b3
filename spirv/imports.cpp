// Which imports a driver provides itself (imports.hpp).
#include "spirv/imports.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <vector>

namespace zeal::spirv {

bool is_spirv_builtin_name(std::string_view name) { return name.starts_with("__spirv_"); }

namespace {

// The identifier of an Itanium-mangled function name (_Z<length><identifier>...), or the name itself.
std::string_view mangled_identifier(std::string_view name) {
  if (!name.starts_with("_Z")) return name;
  size_t at = 2, length = 0;
  while (at < name.size() && name[at] >= '0' && name[at] <= '9') length = length * 10 + size_t(name[at++] - '0');
  return at + length <= name.size() ? name.substr(at, length) : std::string_view();
}

} // namespace

bool is_igc_matrix_builtin(std::string_view name) {
  std::string_view id = mangled_identifier(name);
  return id.starts_with("intel_sub_group_") && id.find("_matrix_mad_k") != std::string_view::npos &&
         id.find("_split_") == std::string_view::npos;
}

bool is_driver_library_name(std::string_view name) {
  return name.starts_with("__builtin_spirv_") || name == "__devicelib_assert_fail" || is_igc_matrix_builtin(name);
}

namespace {

struct ProducerLibrary {
  std::string_view prefix;
  std::string_view library;
};

// By the prefix of the names each library defines (after the driver's own names are taken out).
constexpr ProducerLibrary kProducerLibraries[] = {
    {"__chip_", "chipStar's device library, which chipStar links when the program runs"},
    {"__devicelib_", "DPC++'s device libraries (libsycl-*.spv), which DPC++'s runtime links when it builds the program"},
    {"__imf_", "DPC++'s Intel math functions library (libsycl-imf.spv), which DPC++'s runtime links when it builds "
               "the program"},
};

} // namespace

std::string_view producer_library(std::string_view name) {
  if (driver_provides(name)) return {};
  for (const ProducerLibrary &p : kProducerLibraries)
    if (name.starts_with(p.prefix)) return p.library;
  return {};
}

std::string producer_library_clause(std::string_view name) {
  std::string_view library = producer_library(name);
  return library.empty() ? std::string() : fmt::format(" (it is one of {})", library);
}

std::string producer_library_note(std::span<const std::string> imports) {
  std::map<std::string_view, std::vector<std::string_view>> by_library;
  for (const std::string &name : imports)
    if (std::string_view library = producer_library(name); !library.empty()) by_library[library].push_back(name);
  std::string note;
  for (const auto &[library, names] : by_library) {
    constexpr size_t kNamed = 4; // a module may import hundreds of a library's functions
    const auto shown = names.begin() + std::ptrdiff_t(std::min(names.size(), kNamed));
    std::string named = fmt::format("'{}'", fmt::join(names.begin(), shown, "', '"));
    if (names.size() > kNamed) named += fmt::format(" and {} more", names.size() - kNamed);
    note += fmt::format("info: the module imports {} from {}; they stay unresolved until a module that exports them "
                        "is linked with it (zeModuleDynamicLink)\n",
                        named, library);
  }
  return note;
}

} // namespace zeal::spirv
