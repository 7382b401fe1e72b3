// zeal's C++ API, modelled on SYCL 2020: include this one header. The core (devices, contexts, queues, USM,
// kernels) and kernel bundles each include only what they build on, so neither header includes the other back.
#pragma once

#include <zeal/core.hpp>
#include <zeal/kernel_bundle.hpp>
