/*
 * The pipe protocol between actshare and actshare-provider-host (docs/PLUGINS.md).
 *
 * A frame is a 32-bit little-endian length, then that many bytes: a one-byte frame type
 * and its payload. Strings are a 32-bit length and UTF-8 bytes; an optional string is a
 * byte (0 absent, 1 present) and then the string.
 */
#ifndef ACTSHARE_PROVIDER_HOST_PROTOCOL_H
#define ACTSHARE_PROVIDER_HOST_PROTOCOL_H

#define PROTOCOL_MAX_FRAME (16u << 20)

/* actshare → helper */
#define FRAME_LOAD 'L'    /* string library */
#define FRAME_REQUEST 'R' /* the request: see read_request in main.c */
#define FRAME_CALL 'C'    /* string symbol, u8 returns, u8 count, {u8 word, [string option]}, u64 item (-1: none) */
#define FRAME_SYMBOL 'S'  /* string symbol: OK if the library has it, else ERROR */

/* helper → actshare */
#define FRAME_OK 'O'        /* LOAD or REQUEST done */
#define FRAME_ERROR 'E'     /* string message: LOAD, REQUEST or CALL could not be done */
#define FRAME_PROGRESS 'P'  /* u64 bits of a double */
#define FRAME_LOG 'G'       /* u8 level, string message */
#define FRAME_ITEM 'I'      /* u8 kind, string value, optional string content type */
#define FRAME_SET_ERROR 'X' /* string message */
#define FRAME_DONE 'D'      /* u64 raw result, optional string (a returned string, copied) */

#endif
