// A library without kernels (built with -library-compilation): one exported function takes an image, one does not.
float4 first_texel(read_only image2d_t image) { return read_imagef(image, (int2)(0, 0)); }
int add_one(int x) { return x + 1; }
