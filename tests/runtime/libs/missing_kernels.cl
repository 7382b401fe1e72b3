// A kernel calling a device function no library provides.
float nobody_defines_this(float x);
kernel void calls_missing(global float *data) { data[get_global_id(0)] = nobody_defines_this(data[0]); }
