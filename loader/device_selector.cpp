// Parses ONEAPI_DEVICE_SELECTOR and matches devices against it.
#include "loader/device_selector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace zeal::detail {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

std::optional<uint32_t> parse_index(std::string_view text) {
  uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::string> canonical_backend(std::string_view name) {
  std::string n = lower(name);
  if (n == "*") return n;
  if (n == "ext_oneapi_level_zero") return std::string("level_zero");
  if (n == "ext_oneapi_cuda") return std::string("cuda");
  if (n == "ext_oneapi_hip") return std::string("hip");
  for (std::string_view known : known_backends())
    if (n == known) return n;
  return std::nullopt;
}

Result<DeviceFilter> parse_filter(std::string_view text, std::string_view term) {
  DeviceFilter f;
  std::string t = lower(trim(text));
  if (t.empty()) return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                                   fmt::format("ONEAPI_DEVICE_SELECTOR term '{}' has an empty device filter", term));
  if (t == "*") return f;
  if (t == "cpu" || t == "gpu" || t == "fpga") {
    f.kind = DeviceFilter::Kind::type;
    f.type = t == "cpu" ? ZEAL_DEVICE_TYPE_CPU : t == "gpu" ? ZEAL_DEVICE_TYPE_GPU : ZEAL_DEVICE_TYPE_FPGA;
    return f;
  }
  auto dot = t.find('.');
  std::string_view root = std::string_view(t).substr(0, dot);
  if (dot != std::string::npos) {
    f.sub_device = true;
    std::string_view sub = std::string_view(t).substr(dot + 1);
    if (sub != "*") {
      f.sub_index = parse_index(sub);
      if (!f.sub_index)
        return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                          fmt::format("ONEAPI_DEVICE_SELECTOR term '{}': '{}' is not a sub-device filter "
                                      "(expected N.M, N.* or *.*)", term, text));
    }
    if (root == "*") {
      if (f.sub_index)
        return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                          fmt::format("ONEAPI_DEVICE_SELECTOR term '{}': '{}' is not a sub-device filter "
                                      "(a sub-device index needs a device index: N.M)", term, text));
      return f;
    }
  }
  auto index = parse_index(root);
  if (!index)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("ONEAPI_DEVICE_SELECTOR term '{}': unknown device filter '{}' "
                                  "(expected *, cpu, gpu, fpga, a device index N, or N.M, N.*, *.*)", term, text));
  f.kind = DeviceFilter::Kind::index;
  f.index = *index;
  return f;
}

Result<SelectorTerm> parse_term(std::string_view text) {
  SelectorTerm term;
  std::string_view body = trim(text);
  if (!body.empty() && body.front() == '!') {
    term.discard = true;
    body = trim(body.substr(1));
  }
  auto colon = body.find(':');
  if (colon == std::string_view::npos)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("ONEAPI_DEVICE_SELECTOR term '{}' has no ':' (expected backend:filter[,filter...])",
                                  text));
  auto backend = canonical_backend(trim(body.substr(0, colon)));
  if (!backend)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("ONEAPI_DEVICE_SELECTOR term '{}' names unknown backend '{}' (expected *, "
                                  "level_zero, opencl, cuda, hip or native_cpu)", text, trim(body.substr(0, colon))));
  term.backend = *backend;
  for (std::string_view part : split(body.substr(colon + 1), ',')) {
    auto filter = parse_filter(part, text);
    if (!filter) return std::move(filter).error();
    term.filters.push_back(filter.value());
  }
  return term;
}

bool matches(const SelectorTerm &term, std::string_view backend, uint32_t index, zeal_device_type_t type) {
  if (term.backend != "*" && term.backend != backend) return false;
  return std::any_of(term.filters.begin(), term.filters.end(), [&](const DeviceFilter &f) {
    if (f.sub_device) return false; // a sub-device form selects sub-devices, never their root
    switch (f.kind) {
    case DeviceFilter::Kind::any: return true;
    case DeviceFilter::Kind::type: return f.type == type;
    case DeviceFilter::Kind::index: return f.index == index;
    }
    return false;
  });
}

bool matches_sub_device(const SelectorTerm &term, std::string_view backend, uint32_t index, uint32_t sub) {
  if (term.backend != "*" && term.backend != backend) return false;
  return std::any_of(term.filters.begin(), term.filters.end(), [&](const DeviceFilter &f) {
    if (!f.sub_device) return false;
    if (f.kind == DeviceFilter::Kind::index && f.index != index) return false; // `*.*` is Kind::any
    return !f.sub_index || *f.sub_index == sub;
  });
}

} // namespace

const std::vector<std::string_view> &known_backends() {
  static const std::vector<std::string_view> names = {"level_zero", "opencl", "cuda", "hip", "native_cpu"};
  return names;
}

Result<DeviceSelector> parse_device_selector(std::string_view text) {
  if (trim(text).empty())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      "ONEAPI_DEVICE_SELECTOR is set but empty (unset it to see every device)");
  std::vector<SelectorTerm> terms;
  size_t number = 0;
  for (std::string_view part : split(text, ';')) {
    ++number;
    if (trim(part).empty()) {
      // A trailing ';' is harmless; an empty term in the middle is a typo worth reporting.
      if (number == split(text, ';').size() && number > 1) continue;
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("ONEAPI_DEVICE_SELECTOR '{}': term {} is empty", text, number));
    }
    auto term = parse_term(part);
    if (!term) return std::move(term).error();
    terms.push_back(std::move(term).value());
  }
  return DeviceSelector(std::move(terms));
}

bool DeviceSelector::accepts(std::string_view backend, uint32_t index, zeal_device_type_t type) const {
  bool any_accept_term = false;
  bool accepted = false;
  for (const SelectorTerm &term : terms_) {
    bool m = matches(term, backend, index, type);
    if (term.discard && m) return false; // discard terms win
    if (!term.discard) {
      any_accept_term = true;
      accepted = accepted || m;
    }
  }
  return any_accept_term ? accepted : true;
}

bool DeviceSelector::accepts_sub_device(std::string_view backend, uint32_t index, uint32_t sub) const {
  bool accepted = false;
  for (const SelectorTerm &term : terms_) {
    bool m = matches_sub_device(term, backend, index, sub);
    if (term.discard && m) return false;
    if (!term.discard) accepted = accepted || m;
  }
  return accepted;
}

bool DeviceSelector::may_accept_backend(std::string_view backend) const {
  bool any_accept_term = false;
  for (const SelectorTerm &term : terms_) {
    bool backend_matches = term.backend == "*" || term.backend == backend;
    bool discards_all = std::any_of(term.filters.begin(), term.filters.end(), [](const DeviceFilter &f) {
      return f.kind == DeviceFilter::Kind::any && !f.sub_device;
    });
    if (term.discard && backend_matches && discards_all) return false;
    if (!term.discard) {
      any_accept_term = true;
      if (backend_matches) return true;
    }
  }
  return !any_accept_term;
}

} // namespace zeal::detail
