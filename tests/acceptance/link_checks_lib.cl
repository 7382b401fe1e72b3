// The library side of the link checks: exported functions whose properties (sub-group size, range_type)
// the library declares through FUNCTION_PROPERTIES; the application declares what it expects of them.

// function.sg16_helper.sub_group_size=16: the application expects 32.
int sg16_helper(int x) { return x + 16; }

// function.narrow_helper.range_type=int16_t: the application calls it with range_type int.
int narrow_helper(int x) { return x + 2; }

// function.wide_helper.range_type=int: the application calls it with range_type int16_t, which fits.
int wide_helper(int x) { return x + 3; }

// Declares no sub-group size, so it is compiled for the device's primary size; reports the size it runs with.
int plain_helper(int x) { return 100 * x + (int)get_sub_group_size(); }

// function.sg32_helper.sub_group_size=32: callable from kernels requiring 32; reports the size it runs with.
int sg32_helper(int x) { return 100 * x + (int)get_sub_group_size(); }

// function.tiny_helper.range_type=int8_t: a kernel of range_type int16_t calling it is refused.
int tiny_helper(int x) { return x + 4; }
