// What the translator guard's checks share: each id's definition and uses, as SPIRV-Tools' parser reports them.
#pragma once

#include "spirv/words.hpp"
#include "spirv_frontend/translator_guard.hpp"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.hpp>

#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace zeal::frontend {

using spirv::header_words;

inline Error invalid_binary(std::string sentence) { return malformed_spirv(std::move(sentence)); }

// Ids as SPIRV-Tools' parser sees them: the translator asserts on an id used
// but never defined, or defined twice, so both are refused here.
struct Definition {
  uint32_t opcode;
  uint32_t type; // 0 for ids that are not values
  uint32_t at;   // word offset of the defining instruction
};

struct Use {
  uint32_t at;
  uint32_t id;
  uint16_t opcode;
  uint16_t word; // index of the operand inside its instruction
  spv_operand_type_t operand;
  bool any_kind; // debug and annotation operands may name anything
};

struct IdCheck {
  const uint32_t *base = nullptr;
  uint32_t bound = 0;
  std::unordered_map<uint32_t, Definition> defined;
  std::vector<Use> used;
  std::vector<std::pair<uint32_t, bool>> bfloat16_conversions; // word offset, to bfloat16 (else from it)
  std::string problem;
};

// The checks of ids' kinds and types (translator_guard_types.cpp), on a module whose ids all resolve.
Status check_types(std::span<const uint32_t> words, const IdCheck &ids);

} // namespace zeal::frontend
