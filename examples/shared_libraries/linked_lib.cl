// The linked library's device function, exported for the application's kernel.
float linked_axpy(float a, float x, float y) { return a * x + y; }
