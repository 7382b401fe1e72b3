// range and nd_range, as in SYCL 2020.
#pragma once

#include <array>
#include <cstddef>

namespace zeal {

template <int Dims = 1>
class range {
  static_assert(Dims >= 1 && Dims <= 3, "ranges have 1, 2 or 3 dimensions");

public:
  range() = default;
  template <class... Sizes>
    requires(sizeof...(Sizes) == Dims)
  range(Sizes... sizes) : sizes_{static_cast<size_t>(sizes)...} {}
  size_t operator[](int dim) const { return sizes_[dim]; }
  size_t size() const {
    size_t total = 1;
    for (size_t s : sizes_) total *= s;
    return total;
  }

private:
  std::array<size_t, Dims> sizes_{};
};

template <int Dims = 1>
class nd_range {
public:
  nd_range(range<Dims> global, range<Dims> local) : global_(global), local_(local) {}
  range<Dims> get_global_range() const { return global_; }
  range<Dims> get_local_range() const { return local_; }

private:
  range<Dims> global_;
  range<Dims> local_;
};

} // namespace zeal
