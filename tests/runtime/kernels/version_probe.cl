// Compiled to SPIR-V but not embedded: the bad-image tests register altered copies of it.
kernel void version_probe(global int *data) { data[get_global_id(0)] = 1; }
