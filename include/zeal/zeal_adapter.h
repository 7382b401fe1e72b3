/* The zeal adapter C ABI: the one versioned dispatch table an adapter plugin exports. */
#ifndef ZEAL_ADAPTER_H
#define ZEAL_ADAPTER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ZEAL_MAKE_VERSION(major, minor) ((uint32_t)(((major) << 16) | ((minor) & 0xffffu)))
#define ZEAL_VERSION_MAJOR(v) ((uint32_t)(v) >> 16)
#define ZEAL_VERSION_MINOR(v) ((uint32_t)(v) & 0xffffu)

/* Major versions break compatibility; a minor version only appends to the
 * dispatch table, so a plugin of a newer minor version serves an older caller. */
#define ZEAL_ADAPTER_ABI_VERSION ZEAL_MAKE_VERSION(0, 5)

#if defined(_WIN32)
#define ZEAL_APICALL __cdecl
#define ZEAL_EXPORT __declspec(dllexport)
#else
#define ZEAL_APICALL
#define ZEAL_EXPORT __attribute__((visibility("default")))
#endif

typedef enum zeal_result_t {
  ZEAL_RESULT_SUCCESS = 0,
  ZEAL_RESULT_NOT_READY = 1,                  /* an event has not completed yet */
  ZEAL_RESULT_ERROR_UNINITIALIZED = 0x1000,   /* no driver, or init failed */
  ZEAL_RESULT_ERROR_INVALID_ARGUMENT,         /* a null pointer or a value out of range */
  ZEAL_RESULT_ERROR_INVALID_HANDLE,           /* a null or destroyed handle */
  ZEAL_RESULT_ERROR_INVALID_ENUMERATION,      /* an info key or flag the adapter does not know */
  ZEAL_RESULT_ERROR_INVALID_SIZE,             /* a size does not fit the value asked for */
  ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME,      /* the program has no kernel of that name */
  ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,  /* argument index or size does not match the kernel */
  ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE,  /* local size over a limit or not matching a requirement */
  ZEAL_RESULT_ERROR_INVALID_ND_RANGE,         /* global size, offset or group count not launchable */
  ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED,     /* the device cannot honour a kernel requirement */
  ZEAL_RESULT_ERROR_BUILD_FAILURE,            /* compile or build failed; the log says why */
  ZEAL_RESULT_ERROR_LINK_FAILURE,             /* link failed; the log says why */
  ZEAL_RESULT_ERROR_INVALID_BINARY,           /* malformed SPIR-V or native binary */
  ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE,    /* e.g. a kernel asked of a program not built */
  ZEAL_RESULT_ERROR_OUT_OF_HOST_MEMORY,
  ZEAL_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
  ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
  ZEAL_RESULT_ERROR_DEVICE_LOST,
  ZEAL_RESULT_ERROR_TIMEOUT,
  ZEAL_RESULT_ERROR_INVALID_FUNCTION_NAME,    /* 0.2: the program has no function of that name */
  ZEAL_RESULT_ERROR_INVALID_GLOBAL_NAME,      /* 0.2: the program has no global variable of that name */
  ZEAL_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, /* 0.5: the device has no image of that channel order and type */
  ZEAL_RESULT_ERROR_INVALID_IMAGE_SIZE,       /* 0.5: an image extent is 0 or over the device's limit */
  ZEAL_RESULT_ERROR_UNKNOWN = 0x7ffffffe
} zeal_result_t;

typedef struct zeal_adapter_s *zeal_adapter_handle_t;
typedef struct zeal_platform_s *zeal_platform_handle_t;
typedef struct zeal_device_s *zeal_device_handle_t;
typedef struct zeal_context_s *zeal_context_handle_t;
typedef struct zeal_queue_s *zeal_queue_handle_t;
typedef struct zeal_program_s *zeal_program_handle_t;
typedef struct zeal_kernel_s *zeal_kernel_handle_t;
typedef struct zeal_event_s *zeal_event_handle_t;
typedef struct zeal_image_s *zeal_image_handle_t;     /* 0.5 */
typedef struct zeal_sampler_s *zeal_sampler_handle_t; /* 0.5 */

typedef enum zeal_device_type_t {
  ZEAL_DEVICE_TYPE_ALL = 0,
  ZEAL_DEVICE_TYPE_GPU = 1,
  ZEAL_DEVICE_TYPE_CPU = 2,
  ZEAL_DEVICE_TYPE_FPGA = 3,
  ZEAL_DEVICE_TYPE_ACCELERATOR = 4
} zeal_device_type_t;

/* Info keys. The value type of each key is given in its comment; strings are
 * NUL-terminated char arrays, and their size includes the NUL. */
typedef enum zeal_platform_info_t {
  ZEAL_PLATFORM_INFO_NAME = 1,            /* char[] */
  ZEAL_PLATFORM_INFO_VENDOR,              /* char[] */
  ZEAL_PLATFORM_INFO_VERSION,             /* char[]: the driver version */
  ZEAL_PLATFORM_INFO_BACKEND,             /* char[]: "level_zero" */
  ZEAL_PLATFORM_INFO_BACKEND_VERSION      /* char[]: the Level Zero API version, "1.4" */
} zeal_platform_info_t;

typedef enum zeal_device_info_t {
  ZEAL_DEVICE_INFO_TYPE = 1,                  /* zeal_device_type_t */
  ZEAL_DEVICE_INFO_NAME,                      /* char[] */
  ZEAL_DEVICE_INFO_VENDOR,                    /* char[] */
  ZEAL_DEVICE_INFO_VENDOR_ID,                 /* uint32_t */
  ZEAL_DEVICE_INFO_DRIVER_VERSION,            /* char[] */
  ZEAL_DEVICE_INFO_BACKEND_VERSION,           /* char[] */
  ZEAL_DEVICE_INFO_UUID,                      /* uint8_t[16] */
  ZEAL_DEVICE_INFO_PLATFORM,                  /* zeal_platform_handle_t */
  ZEAL_DEVICE_INFO_MAX_COMPUTE_UNITS,         /* uint32_t */
  ZEAL_DEVICE_INFO_GLOBAL_MEM_SIZE,           /* uint64_t */
  ZEAL_DEVICE_INFO_LOCAL_MEM_SIZE,            /* uint64_t */
  ZEAL_DEVICE_INFO_MAX_WORK_GROUP_SIZE,       /* size_t */
  ZEAL_DEVICE_INFO_MAX_WORK_ITEM_SIZES,       /* size_t[3] */
  ZEAL_DEVICE_INFO_MAX_GROUP_COUNT,           /* size_t[3] */
  ZEAL_DEVICE_INFO_IL_VERSIONS,               /* char[]: "SPIR-V_1.0 SPIR-V_1.1 ..." */
  ZEAL_DEVICE_INFO_SUB_GROUP_SIZES,           /* uint32_t[] */
  ZEAL_DEVICE_INFO_MAX_NUM_SUB_GROUPS,        /* uint32_t */
  ZEAL_DEVICE_INFO_PRIMARY_SUB_GROUP_SIZE,    /* uint32_t */
  ZEAL_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, /* uint32_t (bool) */
  ZEAL_DEVICE_INFO_HAS_FP16,                  /* uint32_t (bool) */
  ZEAL_DEVICE_INFO_HAS_FP64,                  /* uint32_t (bool) */
  ZEAL_DEVICE_INFO_HAS_ATOMIC64,              /* uint32_t (bool) */
  ZEAL_DEVICE_INFO_USM_DEVICE_ALLOCATIONS,    /* uint32_t (bool) */
  ZEAL_DEVICE_INFO_USM_HOST_ALLOCATIONS,      /* uint32_t (bool) */
  ZEAL_DEVICE_INFO_USM_SHARED_ALLOCATIONS,    /* uint32_t (bool) */
  /* 0.3, uint32_t (bool): the driver keeps each kernel's compiled code across
   * processes itself (zeal's CPU driver: ZE_zeal_kernel_code_cache), so a
   * runtime's persistent cache has nothing to add; 0: store native binaries. */
  ZEAL_DEVICE_INFO_DRIVER_CACHES_KERNEL_CODE,
  /* 0.5, uint32_t (bool): imageCreate and samplerCreate work on the device (its
   * driver reports image limits); 0: they answer UNSUPPORTED_FEATURE. */
  ZEAL_DEVICE_INFO_IMAGE_SUPPORT
} zeal_device_info_t;

typedef enum zeal_queue_flags_t {
  ZEAL_QUEUE_FLAG_IN_ORDER = 0,
  ZEAL_QUEUE_FLAG_OUT_OF_ORDER = 1u << 0,
  ZEAL_QUEUE_FLAG_PROFILING = 1u << 1
} zeal_queue_flags_t;

typedef enum zeal_usm_kind_t {
  ZEAL_USM_KIND_HOST = 1,
  ZEAL_USM_KIND_DEVICE = 2,
  ZEAL_USM_KIND_SHARED = 3
} zeal_usm_kind_t;

/* One entry of device-image metadata (see DESIGN.md, "Device-image metadata").
 * value points to size bytes; text values need not be NUL-terminated.
 *
 * Keys the adapter interprets (0.2); every value is text, lists are separated
 * by ';', numbers are decimal:
 *   "name"                           what messages call the image, e.g. "'vector_add.spv' of /path/app"
 *                                    (its file name and origin); without it they name its kernels
 *   "kernels"                        kernel names; each must be an entry point of a SPIR-V image
 *   "exports"                        exported symbols (added to those the SPIR-V declares)
 *   "imports"                        imported symbols (added to those the SPIR-V declares)
 *   "kernel.<name>.reqd_sub_group_size"   a size, "primary" (the device's primary size) or
 *                                         "automatic" (none); must agree with SPIR-V's SubgroupSize
 *   "kernel.<name>.reqd_work_group_size"  "x,y,z"; must agree with SPIR-V's LocalSize
 *   "kernel.<name>.range_type"            the most work-items a launch may have: a number, or the
 *                                         C++ type of sycl_ext_oneapi_range_type ("int", "unsigned int",
 *                                         "int8_t" ... "uint64_t", "long", "size_t"), meaning its max()
 *   "function.<name>.sub_group_size"      the sub-group size an exported function was compiled for,
 *                                         or that an importer expects of an imported one
 *   "function.<name>.range_type"          as for kernels; an importer's range must fit the exporter's
 *   "kernel.<name>.calls", "function.<name>.calls"   the imports the kernel or exported function
 *                                         calls, directly or not: a native image's call graph (a
 *                                         SPIR-V image's own takes precedence)
 * <name> is everything between the first and the last '.', so names may hold dots.
 * Other keys are kept and ignored (newer producers); a malformed value of a
 * known key is INVALID_ARGUMENT naming key and value. Link checks the function
 * entries of importer and exporter against each other (a function declaring no
 * sub-group size has the device's primary size), and every kernel of a SPIR-V
 * image against the functions of other images it reaches: their sub-group size
 * must be the kernel's (reqd_sub_group_size, else primary), and a declared
 * range_type of theirs must hold the kernel's (LINK_FAILURE). */
typedef struct zeal_metadata_entry_t {
  const char *key;
  const void *value;
  size_t size;
} zeal_metadata_entry_t;

typedef enum zeal_program_format_t {
  ZEAL_PROGRAM_FORMAT_SPIRV = 1,
  ZEAL_PROGRAM_FORMAT_NATIVE = 2
} zeal_program_format_t;

typedef struct zeal_program_desc_t {
  zeal_program_format_t format;
  const void *binary;
  size_t size;
  uint32_t num_metadata;
  const zeal_metadata_entry_t *metadata;
} zeal_program_desc_t;

typedef enum zeal_program_info_t {
  ZEAL_PROGRAM_INFO_STATE = 1,        /* zeal_program_state_t */
  ZEAL_PROGRAM_INFO_KERNEL_NAMES,     /* char[]: names separated by ';' */
  ZEAL_PROGRAM_INFO_BUILD_LOG,        /* char[]: the last build or link log */
  ZEAL_PROGRAM_INFO_NUM_KERNELS,      /* uint32_t */
  /* 0.2: uint8_t[]: the native binary of an object (its library module) or of an
   * executable made of one Level Zero module (built, statically linked, or a
   * dynamic link of one object); a dynamic link of several objects has one
   * binary per object: ask the objects (UNSUPPORTED_FEATURE says so). */
  ZEAL_PROGRAM_INFO_NATIVE_BINARY,
  ZEAL_PROGRAM_INFO_EXPORTS,          /* 0.2: char[]: exported symbols separated by ';' */
  ZEAL_PROGRAM_INFO_IMPORTS           /* 0.2: char[]: imported symbols separated by ';' */
} zeal_program_info_t;

/* 0.2: the link option asking for static linking: one Level Zero module created
 * from the SPIR-V of every object (ze_module_program_exp_desc_t) instead of
 * zeModuleDynamicLink of one module per object. Other link options are build
 * flags given to every input of a static link. */
#define ZEAL_LINK_OPTION_STATIC "-zeal-static-link"

typedef enum zeal_program_state_t {
  ZEAL_PROGRAM_STATE_INPUT = 0,
  ZEAL_PROGRAM_STATE_OBJECT = 1,
  ZEAL_PROGRAM_STATE_EXECUTABLE = 2
} zeal_program_state_t;

typedef enum zeal_kernel_info_t {
  ZEAL_KERNEL_INFO_NAME = 1,                  /* char[] */
  ZEAL_KERNEL_INFO_NUM_ARGS,                  /* uint32_t */
  ZEAL_KERNEL_INFO_COMPILE_WORK_GROUP_SIZE,   /* size_t[3]; zeros when none required */
  ZEAL_KERNEL_INFO_MAX_WORK_GROUP_SIZE,       /* size_t */
  ZEAL_KERNEL_INFO_PRIVATE_MEM_SIZE,          /* uint64_t */
  ZEAL_KERNEL_INFO_LOCAL_MEM_SIZE,            /* uint64_t */
  ZEAL_KERNEL_INFO_PROGRAM                    /* zeal_program_handle_t */
} zeal_kernel_info_t;

typedef enum zeal_kernel_sub_group_info_t {
  ZEAL_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE = 1,  /* uint32_t, for the given local range */
  ZEAL_KERNEL_SUB_GROUP_INFO_MAX_NUM_SUB_GROUPS,      /* uint32_t */
  ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_NUM_SUB_GROUPS,  /* uint32_t, 0 if none required */
  ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE   /* uint32_t, 0 if none required */
} zeal_kernel_sub_group_info_t;

typedef enum zeal_kernel_arg_kind_t {
  ZEAL_KERNEL_ARG_VALUE = 1,      /* value points to size bytes, copied at the call; NULL: size zero bytes */
  ZEAL_KERNEL_ARG_USM_POINTER = 2,/* value is the USM pointer itself (NULL: a null pointer); size is ignored */
  ZEAL_KERNEL_ARG_LOCAL = 3,      /* size bytes of local memory per work-group; value is ignored */
  ZEAL_KERNEL_ARG_IMAGE = 4,      /* 0.5: value is a zeal_image_handle_t of the kernel's context; size is ignored */
  ZEAL_KERNEL_ARG_SAMPLER = 5     /* 0.5: value is a zeal_sampler_handle_t of the kernel's context; size is ignored */
} zeal_kernel_arg_kind_t;

typedef struct zeal_kernel_arg_t {
  uint32_t index;
  zeal_kernel_arg_kind_t kind;
  size_t size;
  const void *value;
} zeal_kernel_arg_t;

/* A launch carries its own arguments, so that several threads may launch the
 * same kernel at once, each with its own arguments. Arguments set earlier with
 * kernelSetArg are used for indices the launch does not give. */
typedef struct zeal_launch_desc_t {
  uint32_t work_dim;           /* 1, 2 or 3 */
  size_t global_offset[3];
  size_t global_size[3];
  size_t local_size[3];        /* all zero: the adapter chooses */
  uint32_t num_args;
  const zeal_kernel_arg_t *args;
} zeal_launch_desc_t;

typedef enum zeal_event_info_t {
  ZEAL_EVENT_INFO_STATUS = 1,                 /* zeal_event_status_t */
  ZEAL_EVENT_INFO_PROFILING_START_NS,         /* uint64_t: device time the command started */
  ZEAL_EVENT_INFO_PROFILING_END_NS            /* uint64_t: device time the command ended */
} zeal_event_info_t;

typedef enum zeal_event_status_t {
  ZEAL_EVENT_STATUS_SUBMITTED = 1,
  ZEAL_EVENT_STATUS_COMPLETE = 2
} zeal_event_status_t;

/* 0.5: images and samplers, as OpenCL C kernels see them (image2d_t, sampler_t, ...). */
typedef enum zeal_image_type_t {
  ZEAL_IMAGE_TYPE_1D = 1,
  ZEAL_IMAGE_TYPE_1D_ARRAY,
  ZEAL_IMAGE_TYPE_2D,
  ZEAL_IMAGE_TYPE_2D_ARRAY,
  ZEAL_IMAGE_TYPE_3D
} zeal_image_type_t;

/* OpenCL's channel orders, with OpenCL's restrictions: RGB and RGBX only with the packed types (565, 555,
 * 101010) and the packed types only with them; BGRA, ARGB and ABGR only with 8-bit channels; INTENSITY and
 * LUMINANCE only with normalized 8- and 16-bit, half and float channels. RX, RGX and RGBX are stored as R, RG
 * and RGB (no padding channel). Other pairs are UNSUPPORTED_IMAGE_FORMAT. */
typedef enum zeal_image_channel_order_t {
  ZEAL_IMAGE_CHANNEL_ORDER_R = 1,
  ZEAL_IMAGE_CHANNEL_ORDER_A,
  ZEAL_IMAGE_CHANNEL_ORDER_RG,
  ZEAL_IMAGE_CHANNEL_ORDER_RA,
  ZEAL_IMAGE_CHANNEL_ORDER_RGB,
  ZEAL_IMAGE_CHANNEL_ORDER_RGBA,
  ZEAL_IMAGE_CHANNEL_ORDER_BGRA,
  ZEAL_IMAGE_CHANNEL_ORDER_ARGB,
  ZEAL_IMAGE_CHANNEL_ORDER_ABGR,
  ZEAL_IMAGE_CHANNEL_ORDER_INTENSITY,
  ZEAL_IMAGE_CHANNEL_ORDER_LUMINANCE,
  ZEAL_IMAGE_CHANNEL_ORDER_RX,
  ZEAL_IMAGE_CHANNEL_ORDER_RGX,
  ZEAL_IMAGE_CHANNEL_ORDER_RGBX
} zeal_image_channel_order_t;

/* OpenCL's channel types. */
typedef enum zeal_image_channel_type_t {
  ZEAL_IMAGE_CHANNEL_TYPE_SNORM_INT8 = 1,
  ZEAL_IMAGE_CHANNEL_TYPE_SNORM_INT16,
  ZEAL_IMAGE_CHANNEL_TYPE_UNORM_INT8,
  ZEAL_IMAGE_CHANNEL_TYPE_UNORM_INT16,
  ZEAL_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565,
  ZEAL_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555,
  ZEAL_IMAGE_CHANNEL_TYPE_UNORM_INT_101010,
  ZEAL_IMAGE_CHANNEL_TYPE_SIGNED_INT8,
  ZEAL_IMAGE_CHANNEL_TYPE_SIGNED_INT16,
  ZEAL_IMAGE_CHANNEL_TYPE_SIGNED_INT32,
  ZEAL_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8,
  ZEAL_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16,
  ZEAL_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32,
  ZEAL_IMAGE_CHANNEL_TYPE_HALF_FLOAT,
  ZEAL_IMAGE_CHANNEL_TYPE_FLOAT
} zeal_image_channel_type_t;

typedef struct zeal_image_desc_t {
  zeal_image_type_t type;
  zeal_image_channel_order_t channel_order;
  zeal_image_channel_type_t channel_type;
  size_t width;      /* pixels */
  size_t height;     /* 2-D and 3-D images; ignored otherwise */
  size_t depth;      /* 3-D images; ignored otherwise */
  size_t array_size; /* layers of an array image; ignored otherwise */
} zeal_image_desc_t;

/* A box of an image in pixels. A 1-D array's layers are its y, a 2-D array's its z; unused extents are 1 and
 * unused origins 0. */
typedef struct zeal_image_region_t {
  size_t origin[3];
  size_t size[3];
} zeal_image_region_t;

/* OpenCL's addressing modes: CLAMP_TO_EDGE repeats the edge pixels, CLAMP reads the border colour. */
typedef enum zeal_sampler_addressing_mode_t {
  ZEAL_SAMPLER_ADDRESSING_MODE_NONE = 1,
  ZEAL_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
  ZEAL_SAMPLER_ADDRESSING_MODE_CLAMP,
  ZEAL_SAMPLER_ADDRESSING_MODE_REPEAT,
  ZEAL_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT
} zeal_sampler_addressing_mode_t;

typedef enum zeal_sampler_filter_mode_t {
  ZEAL_SAMPLER_FILTER_MODE_NEAREST = 1,
  ZEAL_SAMPLER_FILTER_MODE_LINEAR
} zeal_sampler_filter_mode_t;

typedef struct zeal_sampler_desc_t {
  uint32_t normalized_coords; /* bool */
  zeal_sampler_addressing_mode_t addressing_mode;
  zeal_sampler_filter_mode_t filter_mode;
} zeal_sampler_desc_t;

/* The dispatch table. Every function returns a zeal_result_t; on failure the
 * calling thread's last error message (getLastErrorMessage) names the object
 * and what was wrong. Handles are reference counted: create and retain add a
 * reference, release drops one. Platforms and devices live as long as their
 * adapter. */
typedef struct zeal_adapter_dispatch_t {
  uint32_t abi_version; /* the version the plugin filled the table for */
  uint32_t size;        /* sizeof(zeal_adapter_dispatch_t) of that version */

  const char *(ZEAL_APICALL *getLastErrorMessage)(void);

  zeal_result_t (ZEAL_APICALL *adapterInit)(zeal_adapter_handle_t *adapter);
  zeal_result_t (ZEAL_APICALL *adapterRelease)(zeal_adapter_handle_t adapter);
  /* The backend name this adapter serves, e.g. "level_zero". Static storage. */
  const char *(ZEAL_APICALL *adapterGetBackendName)(void);

  zeal_result_t (ZEAL_APICALL *platformGet)(zeal_adapter_handle_t adapter, uint32_t *count,
                                            zeal_platform_handle_t *platforms);
  zeal_result_t (ZEAL_APICALL *platformGetInfo)(zeal_platform_handle_t platform, zeal_platform_info_t key,
                                                size_t size, void *value, size_t *size_ret);

  zeal_result_t (ZEAL_APICALL *deviceGet)(zeal_platform_handle_t platform, zeal_device_type_t type,
                                          uint32_t *count, zeal_device_handle_t *devices);
  zeal_result_t (ZEAL_APICALL *deviceGetInfo)(zeal_device_handle_t device, zeal_device_info_t key, size_t size,
                                              void *value, size_t *size_ret);

  zeal_result_t (ZEAL_APICALL *contextCreate)(uint32_t num_devices, const zeal_device_handle_t *devices,
                                              zeal_context_handle_t *context);
  zeal_result_t (ZEAL_APICALL *contextRetain)(zeal_context_handle_t context);
  zeal_result_t (ZEAL_APICALL *contextRelease)(zeal_context_handle_t context);

  zeal_result_t (ZEAL_APICALL *queueCreate)(zeal_context_handle_t context, zeal_device_handle_t device,
                                            uint32_t flags, zeal_queue_handle_t *queue);
  zeal_result_t (ZEAL_APICALL *queueRetain)(zeal_queue_handle_t queue);
  zeal_result_t (ZEAL_APICALL *queueRelease)(zeal_queue_handle_t queue);
  zeal_result_t (ZEAL_APICALL *queueFinish)(zeal_queue_handle_t queue);

  /* device may be NULL for host allocations. */
  zeal_result_t (ZEAL_APICALL *usmAlloc)(zeal_context_handle_t context, zeal_device_handle_t device,
                                         zeal_usm_kind_t kind, size_t size, size_t alignment, void **ptr);
  zeal_result_t (ZEAL_APICALL *usmFree)(zeal_context_handle_t context, void *ptr);

  zeal_result_t (ZEAL_APICALL *enqueueMemcpy)(zeal_queue_handle_t queue, void *dst, const void *src, size_t size,
                                              uint32_t num_wait, const zeal_event_handle_t *wait,
                                              zeal_event_handle_t *event);
  zeal_result_t (ZEAL_APICALL *enqueueFill)(zeal_queue_handle_t queue, void *ptr, const void *pattern,
                                            size_t pattern_size, size_t size, uint32_t num_wait,
                                            const zeal_event_handle_t *wait, zeal_event_handle_t *event);
  zeal_result_t (ZEAL_APICALL *enqueueBarrier)(zeal_queue_handle_t queue, uint32_t num_wait,
                                               const zeal_event_handle_t *wait, zeal_event_handle_t *event);

  zeal_result_t (ZEAL_APICALL *programCreate)(zeal_context_handle_t context, zeal_device_handle_t device,
                                              const zeal_program_desc_t *desc, zeal_program_handle_t *program);
  /* input -> executable; options are Level Zero build flags, may be NULL. */
  zeal_result_t (ZEAL_APICALL *programBuild)(zeal_program_handle_t program, const char *options);
  zeal_result_t (ZEAL_APICALL *programGetInfo)(zeal_program_handle_t program, zeal_program_info_t key,
                                               size_t size, void *value, size_t *size_ret);
  zeal_result_t (ZEAL_APICALL *programRetain)(zeal_program_handle_t program);
  zeal_result_t (ZEAL_APICALL *programRelease)(zeal_program_handle_t program);

  zeal_result_t (ZEAL_APICALL *kernelCreate)(zeal_program_handle_t program, const char *name,
                                             zeal_kernel_handle_t *kernel);
  zeal_result_t (ZEAL_APICALL *kernelRetain)(zeal_kernel_handle_t kernel);
  zeal_result_t (ZEAL_APICALL *kernelRelease)(zeal_kernel_handle_t kernel);
  zeal_result_t (ZEAL_APICALL *kernelSetArg)(zeal_kernel_handle_t kernel, const zeal_kernel_arg_t *arg);
  zeal_result_t (ZEAL_APICALL *kernelGetInfo)(zeal_kernel_handle_t kernel, zeal_kernel_info_t key, size_t size,
                                              void *value, size_t *size_ret);
  /* local_size: size_t[3] for MAX_SUB_GROUP_SIZE, may be NULL for the others. */
  zeal_result_t (ZEAL_APICALL *kernelGetSubGroupInfo)(zeal_kernel_handle_t kernel, zeal_device_handle_t device,
                                                      zeal_kernel_sub_group_info_t key, const size_t *local_size,
                                                      size_t size, void *value, size_t *size_ret);

  zeal_result_t (ZEAL_APICALL *enqueueKernelLaunch)(zeal_queue_handle_t queue, zeal_kernel_handle_t kernel,
                                                    const zeal_launch_desc_t *launch, uint32_t num_wait,
                                                    const zeal_event_handle_t *wait, zeal_event_handle_t *event);

  zeal_result_t (ZEAL_APICALL *eventWait)(uint32_t num_events, const zeal_event_handle_t *events);
  zeal_result_t (ZEAL_APICALL *eventGetInfo)(zeal_event_handle_t event, zeal_event_info_t key, size_t size,
                                             void *value, size_t *size_ret);
  zeal_result_t (ZEAL_APICALL *eventRetain)(zeal_event_handle_t event);
  zeal_result_t (ZEAL_APICALL *eventRelease)(zeal_event_handle_t event);

  /* ---- 0.2: appended; check size >= offsetof the entry before using it ---- */

  /* input -> object: a Level Zero module created with -library-compilation;
   * options are build flags, may be NULL. On BUILD_FAILURE the program stays an
   * input and BUILD_LOG holds the log. */
  zeal_result_t (ZEAL_APICALL *programCompile)(zeal_program_handle_t program, const char *options);
  /* objects -> a new executable program for device. Dynamic linking
   * (zeModuleDynamicLink) unless options hold ZEAL_LINK_OPTION_STATIC. An object
   * whose module was dynamically linked before and has imports is compiled again
   * (Level Zero never re-links imports). On LINK_FAILURE or BUILD_FAILURE *program
   * still receives a program, holding only the log (BUILD_LOG; state INPUT);
   * release it like any other. */
  zeal_result_t (ZEAL_APICALL *programLink)(zeal_context_handle_t context, zeal_device_handle_t device,
                                            uint32_t num_programs, const zeal_program_handle_t *programs,
                                            const char *options, zeal_program_handle_t *program);
  /* A SPIR-V specialization constant, before compile or build; value holds size bytes. */
  zeal_result_t (ZEAL_APICALL *programSetSpecConstant)(zeal_program_handle_t program, uint32_t id, size_t size,
                                                       const void *value);
  /* The device address of a function of an executable program. */
  zeal_result_t (ZEAL_APICALL *programGetFunctionPointer)(zeal_program_handle_t program, const char *name,
                                                          void **pointer);
  /* The device address and size (size may be NULL) of a global variable of an executable program. */
  zeal_result_t (ZEAL_APICALL *programGetGlobalPointer)(zeal_program_handle_t program, const char *name,
                                                        size_t *size, void **pointer);

  /* ---- 0.4: appended ---- */

  /* The sub-devices of a root device (none for a sub-device), as deviceGet lists devices. A sub-device
   * is a device like any other: contexts, queues, programs and allocations take it. */
  zeal_result_t (ZEAL_APICALL *deviceGetSubDevices)(zeal_device_handle_t device, uint32_t *count,
                                                    zeal_device_handle_t *sub_devices);

  /* ---- 0.5: appended ---- */

  /* An image of the context, its pixels undefined until written. Kernels take it as ZEAL_KERNEL_ARG_IMAGE and may
   * read and write it. */
  zeal_result_t (ZEAL_APICALL *imageCreate)(zeal_context_handle_t context, const zeal_image_desc_t *desc,
                                            zeal_image_handle_t *image);
  zeal_result_t (ZEAL_APICALL *imageRetain)(zeal_image_handle_t image);
  zeal_result_t (ZEAL_APICALL *imageRelease)(zeal_image_handle_t image);
  /* Host memory to a region of the image (enqueueImageWrite) and back (enqueueImageRead). The host side's rows
   * are row_pitch bytes apart and its slices (a 1-D array's layers, a 2-D array's layers, a 3-D image's slices)
   * slice_pitch bytes apart; 0 packs them. */
  zeal_result_t (ZEAL_APICALL *enqueueImageWrite)(zeal_queue_handle_t queue, zeal_image_handle_t image,
                                                  const zeal_image_region_t *region, size_t row_pitch,
                                                  size_t slice_pitch, const void *src, uint32_t num_wait,
                                                  const zeal_event_handle_t *wait, zeal_event_handle_t *event);
  zeal_result_t (ZEAL_APICALL *enqueueImageRead)(zeal_queue_handle_t queue, zeal_image_handle_t image,
                                                 const zeal_image_region_t *region, size_t row_pitch,
                                                 size_t slice_pitch, void *dst, uint32_t num_wait,
                                                 const zeal_event_handle_t *wait, zeal_event_handle_t *event);
  /* region of src (its origin) to dst at dst_origin; the images' formats must have pixels of one size. */
  zeal_result_t (ZEAL_APICALL *enqueueImageCopy)(zeal_queue_handle_t queue, zeal_image_handle_t src,
                                                 zeal_image_handle_t dst, const zeal_image_region_t *region,
                                                 const size_t dst_origin[3], uint32_t num_wait,
                                                 const zeal_event_handle_t *wait, zeal_event_handle_t *event);
  /* A sampler of the context, for every device of it. Kernels take it as ZEAL_KERNEL_ARG_SAMPLER. */
  zeal_result_t (ZEAL_APICALL *samplerCreate)(zeal_context_handle_t context, const zeal_sampler_desc_t *desc,
                                              zeal_sampler_handle_t *sampler);
  zeal_result_t (ZEAL_APICALL *samplerRetain)(zeal_sampler_handle_t sampler);
  zeal_result_t (ZEAL_APICALL *samplerRelease)(zeal_sampler_handle_t sampler);
} zeal_adapter_dispatch_t;

/* The plugin's one exported entry point. Fills *dispatch for abi_version, or
 * returns ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE for a major version it does
 * not speak. */
typedef zeal_result_t (ZEAL_APICALL *zeal_pfn_get_adapter_dispatch_t)(uint32_t abi_version,
                                                                      zeal_adapter_dispatch_t *dispatch);
#define ZEAL_GET_ADAPTER_DISPATCH_SYMBOL "zealGetAdapterDispatch"

/* The name of a result code, e.g. "ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME". */
static inline const char *zealResultName(zeal_result_t r) {
  switch (r) {
  case ZEAL_RESULT_SUCCESS: return "ZEAL_RESULT_SUCCESS";
  case ZEAL_RESULT_NOT_READY: return "ZEAL_RESULT_NOT_READY";
  case ZEAL_RESULT_ERROR_UNINITIALIZED: return "ZEAL_RESULT_ERROR_UNINITIALIZED";
  case ZEAL_RESULT_ERROR_INVALID_ARGUMENT: return "ZEAL_RESULT_ERROR_INVALID_ARGUMENT";
  case ZEAL_RESULT_ERROR_INVALID_HANDLE: return "ZEAL_RESULT_ERROR_INVALID_HANDLE";
  case ZEAL_RESULT_ERROR_INVALID_ENUMERATION: return "ZEAL_RESULT_ERROR_INVALID_ENUMERATION";
  case ZEAL_RESULT_ERROR_INVALID_SIZE: return "ZEAL_RESULT_ERROR_INVALID_SIZE";
  case ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME: return "ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME";
  case ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT: return "ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT";
  case ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE: return "ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE";
  case ZEAL_RESULT_ERROR_INVALID_ND_RANGE: return "ZEAL_RESULT_ERROR_INVALID_ND_RANGE";
  case ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED: return "ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED";
  case ZEAL_RESULT_ERROR_BUILD_FAILURE: return "ZEAL_RESULT_ERROR_BUILD_FAILURE";
  case ZEAL_RESULT_ERROR_LINK_FAILURE: return "ZEAL_RESULT_ERROR_LINK_FAILURE";
  case ZEAL_RESULT_ERROR_INVALID_BINARY: return "ZEAL_RESULT_ERROR_INVALID_BINARY";
  case ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE: return "ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE";
  case ZEAL_RESULT_ERROR_OUT_OF_HOST_MEMORY: return "ZEAL_RESULT_ERROR_OUT_OF_HOST_MEMORY";
  case ZEAL_RESULT_ERROR_OUT_OF_DEVICE_MEMORY: return "ZEAL_RESULT_ERROR_OUT_OF_DEVICE_MEMORY";
  case ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE: return "ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE";
  case ZEAL_RESULT_ERROR_DEVICE_LOST: return "ZEAL_RESULT_ERROR_DEVICE_LOST";
  case ZEAL_RESULT_ERROR_TIMEOUT: return "ZEAL_RESULT_ERROR_TIMEOUT";
  case ZEAL_RESULT_ERROR_INVALID_FUNCTION_NAME: return "ZEAL_RESULT_ERROR_INVALID_FUNCTION_NAME";
  case ZEAL_RESULT_ERROR_INVALID_GLOBAL_NAME: return "ZEAL_RESULT_ERROR_INVALID_GLOBAL_NAME";
  case ZEAL_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT: return "ZEAL_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT";
  case ZEAL_RESULT_ERROR_INVALID_IMAGE_SIZE: return "ZEAL_RESULT_ERROR_INVALID_IMAGE_SIZE";
  case ZEAL_RESULT_ERROR_UNKNOWN: return "ZEAL_RESULT_ERROR_UNKNOWN";
  }
  return "ZEAL_RESULT_(unknown code)";
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ZEAL_ADAPTER_H */
