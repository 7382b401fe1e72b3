// Common, geometric and relational built-ins and vector loads/stores; table order is in builtins_test.cpp.
kernel void common_family(global const float *a, global const float *b, global const float *c, global float *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  global float *o = out + i * 12;
  o[0] = clamp(x, fmin(y, z), fmax(y, z));
  o[1] = degrees(x);
  o[2] = radians(x);
  o[3] = mix(x, y, z);
  o[4] = step(y, x);
  o[5] = smoothstep(fmin(y, z), fmax(y, z) + 1.0f, x);
  o[6] = sign(x);
  o[7] = min(x, y);
  o[8] = max(x, y);
  o[9] = fmin(x, z);
  o[10] = fmax(x, z);
  o[11] = clamp(x, -1.0f, 1.0f);
}

// Geometric functions on float4 (and float3 for cross) built from four consecutive inputs.
kernel void geometric_family(global const float4 *a, global const float4 *b, global float *out) {
  size_t i = get_global_id(0);
  float4 x = a[i], y = b[i];
  global float *o = out + i * 16;
  o[0] = dot(x, y);
  o[1] = length(x);
  o[2] = distance(x, y);
  float4 n = normalize(x);
  o[3] = n.x;
  o[4] = n.w;
  float4 c = cross(x, y);
  o[5] = c.x;
  o[6] = c.y;
  o[7] = c.z;
  o[8] = c.w;
  float3 c3 = cross(x.xyz, y.xyz);
  o[9] = c3.x + c3.y + c3.z;
  o[10] = fast_length(x);
  o[11] = dot(x.xy, y.xy);
  o[12] = length(x.x);
  o[13] = fast_distance(x, y);
  o[14] = fast_normalize(x).y;
  o[15] = dot(x.x, y.x);
}

// Scalar relational results are 0/1; vector ones are 0/-1 per lane.
kernel void relational_family(global const float *a, global const float *b, global int *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  global int *o = out + i * 16;
  o[0] = isequal(x, y);
  o[1] = isnotequal(x, y);
  o[2] = isgreater(x, y);
  o[3] = isgreaterequal(x, y);
  o[4] = isless(x, y);
  o[5] = islessequal(x, y);
  o[6] = islessgreater(x, y);
  o[7] = isfinite(x);
  o[8] = isinf(x);
  o[9] = isnan(x);
  o[10] = isnormal(x);
  o[11] = isordered(x, y);
  o[12] = isunordered(x, y);
  o[13] = signbit(x);
  int4 v = isless((float4)(x, y, x, y), (float4)(y, x, 0.0f, 0.0f));
  o[14] = v.x + 2 * v.y + 4 * v.z + 8 * v.w;
  o[15] = (int)as_uint(bitselect(x, y, as_float(0xffff0000u)));
}

kernel void select_any_all(global const int4 *m, global const float4 *a, global const float4 *b, global float4 *out,
                           global int *flags) {
  size_t i = get_global_id(0);
  out[i] = select(a[i], b[i], m[i]);
  flags[3 * i] = any(m[i]);
  flags[3 * i + 1] = all(m[i]);
  flags[3 * i + 2] = select(7, 9, m[i].x);
}

// vloadN/vstoreN for every N, and the half forms.
kernel void vector_io(global const float *in, global float *out, global half *h, global float *back) {
  size_t i = get_global_id(0);
  vstore2(vload2(i, in), i, out);
  vstore3(vload3(i, in + 64), i, out + 64);
  vstore4(vload4(i, in + 128), i, out + 128);
  vstore8(vload8(i, in + 192), i, out + 192);
  vstore16(vload16(i, in + 320), i, out + 320);
  vstore_half(in[i], i, h);
  vstore_half4(vload4(i, in), i, h + 64);
  back[i] = vload_half(i, h);
  vstore4(vload_half4(i, h + 64), i, back + 64);
}

// shuffle and shuffle2 with runtime masks, whose high bits are ignored.
// Four-lane results: the host buffers are only 16-byte aligned.
kernel void shuffles(global const float4 *x, global const float4 *y, global const uint4 *mask, global float4 *one,
                     global float4 *two, global int2 *ints) {
  size_t i = get_global_id(0);
  one[i] = shuffle(x[i], mask[i]);
  two[i] = shuffle2(x[i], y[i], mask[i]);
  ints[i] = shuffle((int4)(10, 11, 12, 13), mask[i].s01);
}

// vstore_half in each rounding mode, scalar and four-wide.
kernel void vstore_half_rounding(global const float *in, global half *rte, global half *rtz, global half *rtp,
                                 global half *rtn, global half *rtz4) {
  size_t i = get_global_id(0);
  vstore_half_rte(in[i], i, rte);
  vstore_half_rtz(in[i], i, rtz);
  vstore_half_rtp(in[i], i, rtp);
  vstore_half_rtn(in[i], i, rtn);
  if (i % 4 == 0) vstore_half4_rtz(vload4(i / 4, in), i / 4, rtz4);
}
