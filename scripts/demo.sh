#!/usr/bin/env bash
# Installs dependencies, builds zeal (preset `default`) and runs the vector-add example on the default device.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset default
cmake --build --preset default --target vector_add
build/default/bin/vector_add
