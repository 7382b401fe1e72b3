// The sub-group test plan, known sub-group size: one kernel per required size 1 ... 64, all in one image.
// A device lacking a size must leave that kernel out and still build the others.
#define QUERIES 6

#define KNOWN(S)                                                                                   \
  __attribute__((intel_reqd_sub_group_size(S))) kernel void known_##S(global uint *out) {          \
    global uint *o = out + get_global_linear_id() * QUERIES;                                       \
    o[0] = get_sub_group_id();                                                                     \
    o[1] = get_sub_group_local_id();                                                               \
    o[2] = get_sub_group_size();                                                                   \
    o[3] = get_num_sub_groups();                                                                   \
    o[4] = get_max_sub_group_size();                                                               \
    o[5] = sub_group_scan_inclusive_add(1u) == 1u ? 1u : 0u;                                       \
  }


KNOWN(1) KNOWN(2) KNOWN(3) KNOWN(4) KNOWN(5) KNOWN(6) KNOWN(7) KNOWN(8)
KNOWN(9) KNOWN(10) KNOWN(11) KNOWN(12) KNOWN(13) KNOWN(14) KNOWN(15) KNOWN(16)
KNOWN(17) KNOWN(18) KNOWN(19) KNOWN(20) KNOWN(21) KNOWN(22) KNOWN(23) KNOWN(24)
KNOWN(25) KNOWN(26) KNOWN(27) KNOWN(28) KNOWN(29) KNOWN(30) KNOWN(31) KNOWN(32)
KNOWN(33) KNOWN(34) KNOWN(35) KNOWN(36) KNOWN(37) KNOWN(38) KNOWN(39) KNOWN(40)
KNOWN(41) KNOWN(42) KNOWN(43) KNOWN(44) KNOWN(45) KNOWN(46) KNOWN(47) KNOWN(48)
KNOWN(49) KNOWN(50) KNOWN(51) KNOWN(52) KNOWN(53) KNOWN(54) KNOWN(55) KNOWN(56)
KNOWN(57) KNOWN(58) KNOWN(59) KNOWN(60) KNOWN(61) KNOWN(62) KNOWN(63) KNOWN(64)
