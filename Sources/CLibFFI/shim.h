#ifndef CLIBFFI_SHIM_H
#define CLIBFFI_SHIM_H

#include <ffi.h>

// Swift 6 rejects references to libffi's global ffi_type objects (shared mutable
// state); these accessors hand out their addresses instead.
static inline ffi_type *cffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *cffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *cffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *cffi_type_uint64(void) { return &ffi_type_uint64; }
static inline ffi_type *cffi_type_pointer(void) { return &ffi_type_pointer; }
static inline ffi_abi cffi_default_abi(void) { return FFI_DEFAULT_ABI; }

#endif
