/* Level Zero driver extensions of zeal's CPU driver (libze_zeal_cpu.so), as zeDriverGetExtensionProperties lists them. */
#ifndef ZE_ZEAL_EXT_H
#define ZE_ZEAL_EXT_H

/* ZE_zeal_kernel_code_cache: the driver keeps each kernel's compiled code on
 * disk itself, after the kernel's first compilation, and later processes load
 * it instead of compiling. Listed only while that cache is on
 * (ZEAL_CACHE_PERSISTENT and ZEAL_CPU_KERNEL_CACHE). A runtime that sees it
 * need not store the module's native binary: asking for one would compile
 * every kernel of a module the driver otherwise compiles one kernel at a time,
 * at its first launch. It adds no entry point. */
#define ZE_ZEAL_KERNEL_CODE_CACHE_EXT_NAME "ZE_zeal_kernel_code_cache"
#define ZE_ZEAL_KERNEL_CODE_CACHE_EXT_VERSION_1_0 ((1u << 16) | 0u)

#endif
