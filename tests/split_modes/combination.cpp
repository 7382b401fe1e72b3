// The combination this program was built with, from its target's compile definitions.
#include "combination.hpp"

const Combination combination = {SPLIT_APP_MODE, SPLIT_APP_FORMAT, SPLIT_LIB_MODE, SPLIT_LIB_FORMAT, SPLIT_PLUGIN};
