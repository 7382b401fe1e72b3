// printf with scalar, string, pointer-free vector and length-modified conversions.
kernel void print_values(global const int *x, constant char *word) {
  int i = (int)get_global_id(0);
  float4 v = (float4)(1.5f, -2.0f, 0.25f, 100.0f);
  printf("item %d of %u: x=%5d hex=%#x %s\n", i, (uint)get_global_size(0), x[i], x[i], word);
  if (i == 0) {
    printf("%v4hlf|%.2v4hlf|%v2hld|%v3hhd|%v2lx\n", v, v, (int2)(-7, 8), (char3)(1, -2, 3), (ulong2)(255, 4096));
    printf("%c%c %e %g %10.3f%% %ld %hd %hhu\n", 'o', 'k', 12345.678f, 0.0001, 3.14159, -9000000000L, (short)-3,
           (uchar)250);
  }
}
