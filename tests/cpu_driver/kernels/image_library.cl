// A library without kernels (built with -library-compilation): one exported function reads an image in sub-group
// blocks (which this driver does not), one does not.
uint first_texel(read_only image2d_t image) { return intel_sub_group_block_read(image, (int2)(0, 0)); }
int add_one(int x) { return x + 1; }
