// A program with neither imports nor exports besides its kernel: links without zeModuleDynamicLink.
kernel void other_kernel(global int *out) { out[get_global_id(0)] = 5; }
