// A function's blocks put in the order SPIR-V requires when a producer broke it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace zeal::frontend {

// SPIR-V requires each block of a function to come after every block that dominates it, and LLVMSPIRVLib
// relies on it: it reads a value used before its definition as a placeholder it later dereferences. Older
// llvm-spirv versions broke the rule (level-zero-tests' cmdlist_verify.spv lists a loop's exit block before the
// loop that defines what the exit reads), and Intel's driver runs such modules. Each function that breaks it
// gets its blocks in reverse post-order of its control flow, which keeps the rule (the entry stays first); blocks
// no path reaches follow in their own order. Functions that keep the rule are left as they are, and so is a
// module too malformed to walk (the translator guard then says how). Returns how many functions were reordered.
size_t order_blocks_by_dominance(std::vector<uint32_t> &words);

} // namespace zeal::frontend
