// SPIR-V read word by word: the one walk over instruction headers and the one reader of literal strings, for
// the passes that look at a module's words directly instead of through SPIRV-Tools' parser (the driver's
// pre-checks and rewrites, the linker's entry-point surgery, the host-access and bfloat16 views).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace zeal::spirv {

// Magic number, version, generator, id bound, schema.
inline constexpr size_t header_words = 5;

// One instruction: its first word holds its word count (high 16 bits) and its opcode (low 16).
struct Instruction {
  size_t at = 0;                   // where its first word is in the module
  uint32_t opcode = 0;
  uint32_t count = 0;              // its word count, as its first word says
  bool cut = false;                // that count is 0 or reaches past the end; `words` is then empty
  std::span<const uint32_t> words; // the whole instruction, its first word included
};

// The instructions of module[first, end) in order. One whose word count is 0 or reaches past `end` comes last,
// marked `cut`: a walk over a module whose counts were checked never meets one, and the others decide what a cut
// module means to them (stop, refuse it, or leave the telling to the parser that follows).
class Instructions {
public:
  class iterator {
  public:
    iterator(std::span<const uint32_t> module, size_t at, size_t end) : module_(module), at_(at), end_(end) {}

    Instruction operator*() const {
      const uint32_t first = module_[at_], count = first >> 16;
      const bool cut = count == 0 || count > end_ - at_;
      return {at_, first & 0xffffu, count, cut, cut ? std::span<const uint32_t>() : module_.subspan(at_, count)};
    }
    iterator &operator++() {
      const uint32_t count = module_[at_] >> 16;
      at_ = count == 0 || count > end_ - at_ ? end_ : at_ + count;
      return *this;
    }
    bool operator==(const iterator &other) const { return at_ == other.at_; }

  private:
    std::span<const uint32_t> module_;
    size_t at_;
    size_t end_;
  };

  // `first` past the end, or a module shorter than its header, walks nothing.
  explicit Instructions(std::span<const uint32_t> module, size_t first = header_words, size_t end = SIZE_MAX)
      : module_(module), end_(end < module.size() ? end : module.size()), first_(first < end_ ? first : end_) {}

  iterator begin() const { return {module_, first_, end_}; }
  iterator end() const { return {module_, end_, end_}; }

private:
  std::span<const uint32_t> module_;
  size_t end_;
  size_t first_;
};

inline Instructions instructions(std::span<const uint32_t> module, size_t first = header_words,
                                 size_t end = SIZE_MAX) {
  return Instructions(module, first, end);
}

// The instruction whose first word is module[at], `at` inside the module.
inline Instruction instruction_at(std::span<const uint32_t> module, size_t at) {
  return *Instructions::iterator(module, at, module.size());
}

// A literal string: nul-terminated UTF-8 packed little-endian into words. Without a nul in `words`, what they
// hold.
std::string literal_string(std::span<const uint32_t> words);

} // namespace zeal::spirv
