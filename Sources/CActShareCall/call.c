#include "CActShareCall.h"

#include <errno.h>
#include <ffi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

static const char *option_value(const actshare_request *request, const char *name) {
    for (size_t i = 0; i < request->option_count; i++) {
        if (name && strcmp(request->options[i].name, name) == 0) return request->options[i].value;
    }
    return NULL;
}

/* Maps a file read-only for item.data; an empty file is a valid empty buffer. */
static int map_file(const char *path, const void **data, size_t *length, void **mapping, char *error, size_t size) {
    *mapping = NULL;
    *data = "";
    *length = 0;
    int fd = open(path ? path : "", O_RDONLY | O_CLOEXEC);
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0) {
        snprintf(error, size, "cannot read %s: %s", path ? path : "(no path)", strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    if (info.st_size > 0) {
        void *mapped = mmap(NULL, (size_t)info.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (mapped == MAP_FAILED) {
            snprintf(error, size, "cannot read %s: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
        *mapping = mapped;
        *data = mapped;
        *length = (size_t)info.st_size;
    }
    close(fd);
    return 0;
}

int cas_invoke(void *function, const cas_argument *arguments, size_t argument_count, int32_t returns,
               const actshare_request *request, actshare_session *session, long item, uint64_t *result,
               char *error, size_t error_size) {
    ffi_type *types[CAS_MAX_ARGUMENTS];
    uint64_t storage[CAS_MAX_ARGUMENTS];
    void *values[CAS_MAX_ARGUMENTS];
    void *mapping = NULL;
    size_t mapping_length = 0;
    int file_loaded = 0;
    const void *file_data = NULL;
    size_t file_length = 0;
    size_t count = 0;
    const actshare_item *it = (item >= 0 && (size_t)item < request->item_count) ? &request->items[item] : NULL;

    for (size_t i = 0; i < argument_count; i++) {
        if (count + 2 > CAS_MAX_ARGUMENTS) {
            snprintf(error, error_size, "too many arguments (at most %d)", CAS_MAX_ARGUMENTS);
            return -1;
        }
        const void *pointer = NULL;
        uint64_t number = 0;
        int is_number = 0;
        switch (arguments[i].word) {
        case CAS_ARG_ITEM_PATH: pointer = it ? it->path : NULL; break;
        case CAS_ARG_ITEM_URI: pointer = it ? it->uri : NULL; break;
        case CAS_ARG_ITEM_TEXT: pointer = it ? it->text : NULL; break;
        case CAS_ARG_ITEM_CONTENT_TYPE: pointer = it ? it->content_type : NULL; break;
        case CAS_ARG_ITEM_SIZE: number = it ? it->size : 0; is_number = 1; break;
        case CAS_ARG_ITEM_DATA: {
            const void *data = NULL;
            size_t length = 0;
            if (it && it->kind == ACTSHARE_ITEM_FILE) {
                if (!file_loaded) {
                    if (map_file(it->path, &file_data, &file_length, &mapping, error, error_size) != 0) return -1;
                    file_loaded = 1;
                    mapping_length = file_length;
                }
                data = file_data;
                length = file_length;
            } else if (it) {
                data = it->data;
                length = it->data_length;
            }
            types[count] = &ffi_type_pointer;
            storage[count] = (uint64_t)(uintptr_t)data;
            count++;
            pointer = NULL;
            number = length;
            is_number = 1;
            break;
        }
        case CAS_ARG_ITEMS_COUNT: number = request->item_count; is_number = 1; break;
        case CAS_ARG_ACTIVITY_TYPE: pointer = request->activity_type; break;
        case CAS_ARG_OPTION: pointer = option_value(request, arguments[i].option); break;
        case CAS_ARG_REQUEST: pointer = request; break;
        case CAS_ARG_SESSION: pointer = session; break;
        default:
            snprintf(error, error_size, "unknown argument word %d", arguments[i].word);
            return -1;
        }
        types[count] = is_number ? &ffi_type_uint64 : &ffi_type_pointer;
        storage[count] = is_number ? number : (uint64_t)(uintptr_t)pointer;
        count++;
    }
    for (size_t i = 0; i < count; i++) values[i] = &storage[i];

    ffi_type *return_type;
    switch (returns) {
    case CAS_RETURN_STATUS:
    case CAS_RETURN_VERDICT: return_type = &ffi_type_sint32; break;
    case CAS_RETURN_BOOL: return_type = &ffi_type_uint8; break;
    case CAS_RETURN_STRING: return_type = &ffi_type_pointer; break;
    default: return_type = &ffi_type_void; break;
    }
    ffi_cif cif;
    if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, (unsigned)count, return_type, types) != FFI_OK) {
        snprintf(error, error_size, "libffi cannot prepare the call");
        if (mapping) munmap(mapping, mapping_length);
        return -1;
    }
    /* Integer returns are written at ffi_arg width: the buffer is 64 bits. */
    ffi_arg raw = 0;
    ffi_call(&cif, (void (*)(void))function, returns == CAS_RETURN_VOID ? NULL : &raw, values);
    if (mapping) munmap(mapping, mapping_length);
    switch (returns) {
    case CAS_RETURN_STATUS:
    case CAS_RETURN_VERDICT: *result = (uint64_t)(int64_t)(int32_t)raw; break;
    case CAS_RETURN_BOOL: *result = (raw & 0xFF) != 0; break;
    case CAS_RETURN_STRING: *result = (uint64_t)raw; break;
    default: *result = 0; break;
    }
    return 0;
}
