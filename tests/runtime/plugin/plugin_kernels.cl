// Device code of a shared library loaded with dlopen by the tests.
kernel void plugin_fill(global int *data, int value) { data[get_global_id(0)] = value; }
