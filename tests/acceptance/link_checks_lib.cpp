// Host side of the link-checks library: its device images register when it loads.
extern "C" __attribute__((visibility("default"))) int link_checks_lib_version() { return 1; }
