/*
 * actshare/provider_protocol.h — the pipe protocol between actshare and
 * actshare-provider-host, the helper that runs an isolated provider.
 *
 * This header is the protocol's specification. The helper (C, through the codec below)
 * and actshare (Swift, Sources/ActShareHost/Isolation/Frame.swift) both take their
 * constants from it, and both pass the golden frames of Tests/Fixtures/Frames.
 *
 * Transport. actshare starts the helper with its frames on file descriptor 3 and the
 * helper's frames on 4. A frame is a u32 length, then that many bytes: a one-byte type
 * and its payload. The length counts the type byte, so it is at least 1 and at most
 * ASP_MAX_FRAME. Integers are little-endian.
 *
 * Payload fields:
 *   u8, u32, u64   integers
 *   bytes          u32 length, then that many bytes (none of them NUL)
 *   opt bytes      u8 0 (absent), or u8 1 and bytes
 *   data           u32 length, then that many bytes of any value (NUL included)
 *   opt data       u8 0 (absent), or u8 1 and data
 * No field is checked for UTF-8 on the wire: paths are bytes, and whether some text a
 * provider passed is usable is actshare's decision, the same whichever way the provider
 * runs (docs/PLUGINS.md, "Text that is not UTF-8").
 *
 * A conversation: SANDBOX (for a sandboxed provider), LOAD once, then for each request REQUEST and one CALL per hook call.
 * actshare may send LOAD, REQUEST and a CALL without waiting; the helper answers every
 * frame in order. While a CALL runs, the helper sends the session's callbacks as
 * PROGRESS, LOG, ITEM, SET_ERROR, DECLINE and TARGET frames; after each ITEM it waits for ANSWER. The
 * call ends with DONE, or ERROR if it could not be made.
 */
#ifndef ACTSHARE_PROVIDER_PROTOCOL_H
#define ACTSHARE_PROVIDER_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The largest frame either side sends or accepts, type byte included. */
#define ASP_MAX_FRAME (16u << 20)

/** Frame types. */
enum {
    /* actshare → helper */
    ASP_FRAME_SANDBOX = 'S', /**< Before LOAD: what the provider may do (docs/PLUGINS.md,
                                  Permissions). u8 flags (ASP_SANDBOX_*); u32 n; n × (u8
                                  rights (ASP_RIGHT_*), bytes path): the paths it may use;
                                  u64 address-space limit, u64 file-size limit, u32
                                  open-files limit, u32 extra processes (0: no limit set),
                                  u64 temporary-files limit (the private TMPDIR's size,
                                  0: none set);
                                  u32 m; m × (u8 abstract, bytes name): the Unix sockets
                                  it may connect to (with ASP_SANDBOX_UNIX): a path (0),
                                  or an abstract socket's name (1); at most 16, each at
                                  most 107 bytes.
                                  A path that does not exist is skipped. Answer: OK with
                                  u32 the Landlock ABI enforced (0: none, this kernel has no
                                  Landlock; the rest still applies) and u8 flags
                                  (ASP_SANDBOX_CAPPED_* in force), or ERROR, after which
                                  the helper refuses LOAD: actshare may send LOAD without
                                  waiting. */
    ASP_FRAME_LOAD = 'L',    /**< bytes library path; u32 n; n × bytes symbol.
                                  Answer: OK with u32 m; m × u32 index of a symbol the
                                  library lacks (in LOAD's order); or ERROR. */
    ASP_FRAME_REQUEST = 'R', /**< bytes activity type; opt bytes subject; u32 item count,
                                  each: u8 kind, opt bytes path, opt bytes URI, bytes
                                  content type, u64 size, opt data; u32 option
                                  count, each: bytes name, bytes value; opt bytes target
                                  (the id the user chose, ABI 3). Answer: OK or ERROR. */
    ASP_FRAME_CALL = 'C',    /**< bytes symbol; u8 return word; u8 argument count, each:
                                  u8 word, and bytes option name for CAS_ARG_OPTION; u64
                                  item index (all ones: not per item). Answer: callbacks,
                                  then DONE or ERROR. */
    ASP_FRAME_ANSWER = 'A',  /**< u8 0 accepted, 1 refused: actshare's answer to ITEM,
                                  which the provider's return_item returns (0 or -1). */

    /* helper → actshare */
    ASP_FRAME_OK = 'O',        /**< LOAD or REQUEST done (LOAD: the missing symbols) */
    ASP_FRAME_ERROR = 'E',     /**< u8 error kind (ASP_ERROR_*); bytes message */
    ASP_FRAME_PROGRESS = 'P',  /**< u64 bits of an IEEE 754 double */
    ASP_FRAME_LOG = 'G',       /**< u8 level (actshare_log_level); bytes message */
    ASP_FRAME_ITEM = 'I',      /**< u8 kind (actshare_item_kind); bytes value; opt bytes
                                    content type. Answered by ANSWER. */
    ASP_FRAME_SET_ERROR = 'X', /**< bytes message */
    ASP_FRAME_DECLINE = 'W',   /**< bytes reason: why a can_perform hook answers 0
                                    (actshare_decline; cut at ASP_MAX_MESSAGE) */
    ASP_FRAME_TARGET = 'T',    /**< u8 kind (actshare_target_kind); bytes id; bytes title;
                                    opt bytes subtitle; opt bytes image: a target a
                                    can_perform hook offers (actshare_add_target), each
                                    field cut at ASP_MAX_MESSAGE; at most
                                    ASP_MAX_TARGET_FRAMES a call, the rest not sent. */
    ASP_FRAME_DONE = 'D',      /**< u64 raw result (integers widened to 64 bits, a
                                    pointer's address); opt bytes: the string a `string`
                                    hook returned, copied */
    ASP_FRAME_REFUSED = 'Z',   /**< During a call: the sandbox refused the provider
                                    something. u8 what (ASP_REFUSED_*); bytes subject (a
                                    path, an address, a call's name). */
};

/** SANDBOX flags. */
enum {
    ASP_SANDBOX_NETWORK = 1, /**< may open network sockets and use TCP */
    ASP_SANDBOX_EXEC = 2,    /**< may start processes and run programs */
    ASP_SANDBOX_REQUIRED = 4, /**< without Landlock, refuse (ERROR, then exit) rather than
                                   run the provider unsandboxed */
    ASP_SANDBOX_UNIX = 8,     /**< may open Unix stream sockets, and connect them to the
                                   addresses listed only (without it: no Unix socket) */
    ASP_SANDBOX_SHARED_MEMORY = 16, /**< may make memory files and System V shared memory
                                         (a display client's buffers), which no limit bounds */
};

/** What a SANDBOX answer says is in force. */
enum {
    ASP_SANDBOX_CAPPED_TEMPORARY = 1, /**< the private TMPDIR is a file system of the size
                                           given (it needs a user namespace) */
};

/** The rights a SANDBOX path grants (to it, and beneath it for a directory). */
enum {
    ASP_RIGHT_READ = 1,  /**< read files, list directories */
    ASP_RIGHT_WRITE = 2, /**< create, write, rename and remove */
    ASP_RIGHT_EXEC = 4,  /**< run programs (with ASP_SANDBOX_EXEC) */
    ASP_RIGHT_NO_LINKS = 8, /**< not a right but a condition: the path is granted only if it
                                 leads through no symbolic link (a shared item whose file was
                                 checked when it was handed over, and swapped for a link
                                 since, grants nothing) */
};

/** What a REFUSED frame reports. */
enum {
    ASP_REFUSED_OPEN = 1,    /**< opening, listing or creating the path */
    ASP_REFUSED_CONNECT = 2, /**< a network connection to the address */
    ASP_REFUSED_SOCKET = 3,  /**< a network socket */
    ASP_REFUSED_EXEC = 4,    /**< running the program */
    ASP_REFUSED_PROCESS = 5, /**< starting a process */
    ASP_REFUSED_CALL = 6,    /**< a system call no provider needs (its name) */
    ASP_REFUSED_UNIX = 7,    /**< a connection to a Unix socket the policy does not list
                                  (its path, or @ and its abstract name) */
};

/** What an ERROR frame reports. actshare words its message by the kind, never by text. */
enum {
    ASP_ERROR_MALFORMED = 1,     /**< a frame from actshare could not be read */
    ASP_ERROR_LOAD = 2,          /**< dlopen failed; the message is dlerror's reason */
    ASP_ERROR_NO_LIBRARY = 3,    /**< a CALL before a successful LOAD */
    ASP_ERROR_SYMBOL = 4,        /**< a CALL's symbol is not in the library */
    ASP_ERROR_CALL = 5,          /**< the call could not be made (cas_invoke's message:
                                      an unreadable file for item.data, say) */
    ASP_ERROR_UNKNOWN_FRAME = 6, /**< a frame type the helper does not know */
    ASP_ERROR_TOO_LARGE = 7,     /**< a `string` hook returned more than a DONE frame may
                                      hold; the message is its length in decimal */
    ASP_ERROR_SANDBOX = 8,       /**< the sandbox could not be set up (the reason), or a
                                      LOAD after that */
    ASP_ERROR_NO_LANDLOCK = 9,   /**< ASP_SANDBOX_REQUIRED, and this kernel has no Landlock */
};

/** The longest log or error message a provider may pass, in bytes: longer ones are cut
    here, the same in both isolation modes. */
#define ASP_MAX_MESSAGE (64u << 10)
/** The most TARGET frames one call sends: one more than actshare keeps, so that it knows
    some were left out and says so. */
#define ASP_MAX_TARGET_FRAMES 65u
/** The longest string a `string` hook may return, in bytes. */
#define ASP_MAX_STRING (ASP_MAX_FRAME - 64u)

/** The exit status of a helper whose reply pipe is gone (a provider closed it). */
#define ASP_EXIT_PIPE_GONE 75
/** The exit status of a helper started without the protocol on descriptors 3 and 4. */
#define ASP_EXIT_USAGE 64

/* ---- The C codec (frame.c), used by the helper and the golden-frame tests ---------- */

/** A growable byte buffer, read from `offset`. Zero-initialise; free with asp_free. */
typedef struct asp_buffer {
    unsigned char *bytes;
    size_t length, capacity, offset;
} asp_buffer;

void asp_free(asp_buffer *buffer);
/* Writing a payload; these abort the process if memory runs out. */
void asp_put(asp_buffer *buffer, const void *bytes, size_t length);
void asp_put_u8(asp_buffer *buffer, unsigned value);
void asp_put_u32(asp_buffer *buffer, uint32_t value);
void asp_put_u64(asp_buffer *buffer, uint64_t value);
/** bytes: a NUL-terminated string's bytes, without the NUL. */
void asp_put_string(asp_buffer *buffer, const char *string);
/** opt bytes: absent for NULL. */
void asp_put_optional_string(asp_buffer *buffer, const char *string);

/* Reading a payload; each returns 0, or -1 when the payload ends early or is malformed. */
int asp_get_u8(asp_buffer *buffer, unsigned *value);
int asp_get_u32(asp_buffer *buffer, uint32_t *value);
int asp_get_u64(asp_buffer *buffer, uint64_t *value);
/** bytes, as a NUL-terminated copy to free; *length (if not NULL) gets its length.
    Bytes holding a NUL are malformed. */
int asp_get_bytes(asp_buffer *buffer, char **out, size_t *length);
/** opt bytes: *out is NULL when absent. */
int asp_get_optional_bytes(asp_buffer *buffer, char **out, size_t *length);
/** opt data: like opt bytes, but NUL bytes are allowed (the copy is NUL-terminated too). */
int asp_get_optional_data(asp_buffer *buffer, char **out, size_t *length);

/** Writes one frame of `type` with `payload` (NULL: empty) to `fd`; -1 if the fd fails. */
int asp_write_frame(int fd, unsigned type, const asp_buffer *payload);
/** Reads one frame from `fd` into `frame` (payload only, offset 0) and its type; -1 at
    end of input, on a read error, or for a length of 0 or over ASP_MAX_FRAME. */
int asp_read_frame(int fd, asp_buffer *frame, unsigned *type);

#ifdef __cplusplus
}
#endif

#endif
