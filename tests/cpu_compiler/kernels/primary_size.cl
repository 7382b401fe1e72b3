// Two of subgroups.cl's kernels alone in a module, for the test of what a native binary keeps
// (SubGroupSchemes.ABinaryKeepsThePrimarySizeItWasCompiledWith): a binary of every sub-group kernel
// takes most of a minute to build as regions, one of these two a few seconds.
#include "subgroup_bodies.h"

__attribute__((intel_reqd_sub_group_size(16))) kernel void ops_16(global const int *in, global int *out) { OPS_BODY }
kernel void ops_default(global const int *in, global int *out) { OPS_BODY }
