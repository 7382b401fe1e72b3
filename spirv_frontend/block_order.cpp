// Blocks in dominance order (block_order.hpp): each function's control flow, its dominators, and a reverse
// post-order when the written order puts a block before one that dominates it.
#include "spirv_frontend/block_order.hpp"

#include "spirv/words.hpp"

#define SPV_ENABLE_UTILITY_CODE // spv::HasResultAndType
#include <spirv/unified1/spirv.hpp>

#include <optional>
#include <span>
#include <unordered_map>

namespace zeal::frontend {
namespace {

using spirv::header_words;

bool is_terminator(uint32_t opcode) {
  switch (opcode) {
  case spv::OpBranch:
  case spv::OpBranchConditional:
  case spv::OpSwitch:
  case spv::OpReturn:
  case spv::OpReturnValue:
  case spv::OpKill:
  case spv::OpUnreachable:
  case spv::OpTerminateInvocation: return true;
  default: return false;
  }
}

// A block: its words, from its OpLabel to the next block's (or the function's end), and where control goes.
struct Block {
  size_t begin;
  size_t end;
  std::vector<uint32_t> successors; // labels
};

// The literal width of OpSwitch cases is the selector's: answers for ids the module defines, built on demand.
class SelectorWidths {
public:
  explicit SelectorWidths(std::span<const uint32_t> words) : words_(words) {}

  // 1 or 2 words per case literal, or nothing when the selector's type is not an integer type of the module.
  std::optional<uint32_t> literal_words(uint32_t selector) {
    if (type_of_.empty()) index();
    auto type = type_of_.find(selector);
    if (type == type_of_.end()) return std::nullopt;
    auto width = int_width_.find(type->second);
    if (width == int_width_.end()) return std::nullopt;
    return width->second > 32 ? 2u : 1u;
  }

private:
  void index() {
    for (const spirv::Instruction &i : spirv::instructions(words_)) {
      if (i.cut) return;
      bool has_result = false, has_type = false;
      spv::HasResultAndType(spv::Op(i.opcode), &has_result, &has_type);
      if (i.opcode == spv::OpTypeInt && i.count >= 3) int_width_[i.words[1]] = i.words[2];
      if (has_result && has_type && i.count >= 3) type_of_[i.words[2]] = i.words[1];
    }
  }

  std::span<const uint32_t> words_;
  std::unordered_map<uint32_t, uint32_t> type_of_;
  std::unordered_map<uint32_t, uint32_t> int_width_;
};

// The labels a terminator sends control to, or nothing when its words do not say (malformed).
std::optional<std::vector<uint32_t>> successors(std::span<const uint32_t> t, SelectorWidths &widths) {
  switch (t[0] & 0xffff) {
  case spv::OpBranch:
    if (t.size() < 2) return std::nullopt;
    return std::vector<uint32_t>{t[1]};
  case spv::OpBranchConditional:
    if (t.size() < 4) return std::nullopt;
    return std::vector<uint32_t>{t[2], t[3]};
  case spv::OpSwitch: {
    if (t.size() < 3) return std::nullopt;
    std::optional<uint32_t> literal = widths.literal_words(t[1]);
    if (!literal || (t.size() - 3) % (*literal + 1) != 0) return std::nullopt;
    std::vector<uint32_t> out{t[2]};
    for (size_t at = 3 + *literal; at < t.size(); at += *literal + 1) out.push_back(t[at]);
    return out;
  }
  default: return std::vector<uint32_t>{};
  }
}

// The blocks of the function whose body (after OpFunction and its parameters) spans words [first, end), or
// nothing when they cannot be walked.
std::optional<std::vector<Block>> blocks_of(std::span<const uint32_t> words, size_t first, size_t end,
                                            SelectorWidths &widths) {
  std::vector<Block> blocks;
  std::optional<size_t> terminator;
  for (const spirv::Instruction &i : spirv::instructions(words, first, end)) {
    if (i.opcode == spv::OpLabel) {
      if (!blocks.empty() && !terminator) return std::nullopt;
      if (!blocks.empty()) blocks.back().end = i.at;
      blocks.push_back({i.at, end, {}});
      terminator.reset();
    } else if (is_terminator(i.opcode) && !blocks.empty() && !terminator) {
      terminator = i.at;
      auto next = successors(i.words, widths);
      if (!next) return std::nullopt;
      blocks.back().successors = std::move(*next);
    }
  }
  if (blocks.empty() || !terminator) return std::nullopt;
  return blocks;
}

// The order to write `blocks` in, or nothing when theirs keeps each block after its immediate dominator.
std::optional<std::vector<size_t>> dominance_order(std::span<const uint32_t> words, const std::vector<Block> &blocks) {
  const size_t n = blocks.size();
  std::unordered_map<uint32_t, size_t> index;
  for (size_t b = 0; b < n; ++b) index.emplace(words[blocks[b].begin + 1], b);
  std::vector<std::vector<size_t>> succ(n), pred(n);
  for (size_t b = 0; b < n; ++b)
    for (uint32_t label : blocks[b].successors) {
      auto s = index.find(label);
      if (s == index.end()) return std::nullopt; // a branch out of the function: the guard refuses it
      succ[b].push_back(s->second);
      pred[s->second].push_back(b);
    }
  // Reverse post-order from the entry, iteratively (a kernel may have thousands of blocks).
  constexpr size_t unvisited = SIZE_MAX;
  std::vector<size_t> rpo_number(n, unvisited), postorder;
  std::vector<std::pair<size_t, size_t>> stack{{0, 0}};
  rpo_number[0] = 0;
  while (!stack.empty()) {
    auto &[b, next] = stack.back();
    if (next < succ[b].size()) {
      const size_t s = succ[b][next++];
      if (rpo_number[s] == unvisited) {
        rpo_number[s] = 0;
        stack.push_back({s, 0});
      }
      continue;
    }
    postorder.push_back(b);
    stack.pop_back();
  }
  std::vector<size_t> rpo(postorder.rbegin(), postorder.rend());
  for (size_t i = 0; i < rpo.size(); ++i) rpo_number[rpo[i]] = i;
  // Immediate dominators (Cooper, Harvey and Kennedy's iteration over the reverse post-order).
  std::vector<size_t> idom(n, unvisited);
  idom[0] = 0;
  auto intersect = [&](size_t a, size_t b) {
    while (a != b) {
      while (rpo_number[a] > rpo_number[b]) a = idom[a];
      while (rpo_number[b] > rpo_number[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rpo.size(); ++i) {
      const size_t b = rpo[i];
      size_t dom = unvisited;
      for (size_t p : pred[b]) {
        if (idom[p] == unvisited) continue; // not reached yet in this round, or never
        dom = dom == unvisited ? p : intersect(p, dom);
      }
      if (dom != idom[b]) {
        idom[b] = dom;
        changed = true;
      }
    }
  }
  // Written order is block index order: it is kept when every reached block follows its immediate dominator.
  bool kept = true;
  for (size_t i = 1; i < rpo.size() && kept; ++i) kept = idom[rpo[i]] < rpo[i];
  if (kept) return std::nullopt;
  std::vector<size_t> order = rpo;
  for (size_t b = 0; b < n; ++b)
    if (rpo_number[b] == unvisited) order.push_back(b);
  return order;
}

} // namespace

size_t order_blocks_by_dominance(std::vector<uint32_t> &words) {
  if (words.size() < header_words) return 0;
  SelectorWidths widths(words);
  std::vector<uint32_t> out;
  size_t copied = 0; // words[0, copied) are in `out` already, once a function is reordered
  size_t reordered = 0;
  size_t body = 0;
  bool in_function = false;
  for (const spirv::Instruction &i : spirv::instructions(words)) {
    const size_t at = i.at;
    const uint32_t opcode = i.opcode;
    if (i.cut) return 0;
    if (opcode == spv::OpFunction) {
      in_function = true;
      body = 0;
    } else if (in_function && body == 0 && opcode == spv::OpLabel) {
      body = at;
    } else if (opcode == spv::OpFunctionEnd && in_function) {
      in_function = false;
      if (body != 0) {
        auto blocks = blocks_of(words, body, at, widths);
        auto order = blocks ? dominance_order(words, *blocks) : std::nullopt;
        if (order) {
          if (out.empty()) out.reserve(words.size());
          out.insert(out.end(), words.begin() + static_cast<ptrdiff_t>(copied),
                     words.begin() + static_cast<ptrdiff_t>(body));
          for (size_t b : *order)
            out.insert(out.end(), words.begin() + static_cast<ptrdiff_t>((*blocks)[b].begin),
                       words.begin() + static_cast<ptrdiff_t>((*blocks)[b].end));
          copied = at;
          ++reordered;
        }
      }
    }
  }
  if (reordered == 0) return 0;
  out.insert(out.end(), words.begin() + static_cast<ptrdiff_t>(copied), words.end());
  words = std::move(out);
  return reordered;
}

} // namespace zeal::frontend
