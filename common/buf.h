/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_BUF_H
#define KVR_COMMON_BUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * The growable byte buffer (after h2o's h2o_buffer_t). Bytes live in
 * base[0, len); once anything has been written, base[len] is a NUL, so the
 * contents read as a C string too. Growth goes through kvr_xrealloc: out of
 * memory aborts, as everywhere on the request path. A buffer may start in
 * storage the caller owns (a stack array); it moves to the heap when it
 * outgrows it.
 */
typedef struct kvr_buf_s {
    char *base;
    size_t len;
    size_t cap;  /* bytes at base, the NUL's byte included */
    int on_heap; /* base is ours to free */
} kvr_buf_t;

#define KVR_BUF_INIT                                                                               \
    {                                                                                              \
        NULL, 0, 0, 0                                                                              \
    }

/** An empty buffer with no storage. */
void kvr_buf_init(kvr_buf_t *b);
/** An empty buffer writing first into storage[0, size) (the caller's, e.g. on its stack). */
void kvr_buf_init_in(kvr_buf_t *b, char *storage, size_t size);
/** Frees heap storage; the buffer is empty afterwards and may be reused. */
void kvr_buf_close(kvr_buf_t *b);

/**
 * Makes room for n more bytes (and the NUL after them). Returns 0, or
 * -ENOMEM, leaving the buffer as it was, when len + n cannot be represented.
 */
int kvr_buf_reserve(kvr_buf_t *b, size_t n);
/** Where the next bytes go: at least n writable bytes after len (aborts as kvr_buf_append). */
char *kvr_buf_tail(kvr_buf_t *b, size_t n);
/** Counts n bytes written at kvr_buf_tail() as contents. */
void kvr_buf_commit(kvr_buf_t *b, size_t n);

/** Appends n bytes; a size that cannot be represented aborts like out of memory. */
void kvr_buf_append(kvr_buf_t *b, const void *data, size_t n);
/** Appends a NUL-terminated string. */
void kvr_buf_append_str(kvr_buf_t *b, const char *s);
/** Appends one byte. */
void kvr_buf_append_char(kvr_buf_t *b, char c);
/** Appends printf-formatted text, however long. */
void kvr_buf_printf(kvr_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** kvr_buf_printf with a va_list. */
void kvr_buf_vprintf(kvr_buf_t *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/** Empties the buffer and keeps its storage. */
void kvr_buf_reset(kvr_buf_t *b);
/** Drops the first n bytes (all of them when n >= len), keeping the rest in order. */
void kvr_buf_consume(kvr_buf_t *b, size_t n);
/**
 * Hands the contents to the caller as a malloc'd, NUL-terminated string
 * (never NULL) and leaves the buffer empty; *len, when given, gets the length.
 */
char *kvr_buf_release(kvr_buf_t *b, size_t *len);

#endif
