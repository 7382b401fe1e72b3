// The library side of the link checks: exported functions whose properties (sub-group size, range_type)
// the library declares through FUNCTION_PROPERTIES; the application declares what it expects of them.

// function.sg16_helper.sub_group_size=16: the application expects 32.
int sg16_helper(int x) { return x + 16; }

// function.narrow_helper.range_type=int16_t: the application calls it with range_type int.
int narrow_helper(int x) { return x + 2; }

// function.wide_helper.range_type=int: the application calls it with range_type int16_t, which fits.
int wide_helper(int x) { return x + 3; }
