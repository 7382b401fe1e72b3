// A second library exporting link_helper too: linking both with an importer is ambiguous.
int link_helper(int x) { return x - 1; }
