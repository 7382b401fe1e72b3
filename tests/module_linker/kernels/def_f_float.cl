// Defines f with another signature than call_f.cl expects.
float f(float x) { return x * 2.0f; }
