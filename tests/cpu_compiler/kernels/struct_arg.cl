// A struct passed by value, modified inside the kernel (the copy is the kernel's own).
typedef struct {
  float scale;
  int offset;
  long big;
  char tag;
} params_t;

kernel void struct_arg(params_t p, global const float *in, global float *out, global long *echo) {
  size_t i = get_global_id(0);
  float scaled = in[i] * p.scale + p.offset;
  p.scale = 0.0f; // must not leak into the caller's bytes or other work-items
  out[i] = scaled + p.scale;
  if (i == 0) {
    echo[0] = p.big;
    echo[1] = p.tag;
  }
}
