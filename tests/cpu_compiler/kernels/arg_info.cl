// A kernel whose arguments cover every kind, with required sizes.
typedef struct {
  int a;
  double b;
  char c[20];
} blob_t;

__attribute__((reqd_work_group_size(8, 4, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void arg_info(global int *g, constant float *c, local char *l, int i, float4 v, blob_t s, ulong u,
                     uchar small) {
  g[get_global_id(0)] = i + (int)c[0] + l[0] + (int)v.x + s.a + (int)u + small;
}
