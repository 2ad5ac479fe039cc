/* SPDX-License-Identifier: Apache-2.0 */
#include "common/buf.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"

/* First heap allocation; small enough for a header, large enough for a short page. */
#define KVR_BUF_MIN_CAP 256u

void kvr_buf_init(kvr_buf_t *b)
{
    *b = (kvr_buf_t)KVR_BUF_INIT;
}

void kvr_buf_init_in(kvr_buf_t *b, char *storage, size_t size)
{
    *b = (kvr_buf_t){.base = size ? storage : NULL, .len = 0, .cap = size, .on_heap = 0};
    if (size)
        storage[0] = '\0';
}

void kvr_buf_close(kvr_buf_t *b)
{
    if (b->on_heap)
        free(b->base);
    kvr_buf_init(b);
}

int kvr_buf_reserve(kvr_buf_t *b, size_t n)
{
    /* The largest request realloc could ever honour; above it the doubling would wrap. */
    const size_t limit = SIZE_MAX / 2;
    if (n >= limit || b->len >= limit - n)
        return -ENOMEM;
    size_t need = b->len + n + 1;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap > KVR_BUF_MIN_CAP ? b->cap : KVR_BUF_MIN_CAP;
    while (cap < need)
        cap *= 2;
    if (b->on_heap) {
        b->base = kvr_xrealloc(b->base, cap);
    } else {
        char *heap = kvr_xmalloc(cap);
        if (b->len)
            memcpy(heap, b->base, b->len);
        b->base = heap;
        b->on_heap = 1;
    }
    b->base[b->len] = '\0';
    b->cap = cap;
    return 0;
}

static void reserve_or_abort(kvr_buf_t *b, size_t n)
{
    if (kvr_buf_reserve(b, n) != 0) {
        fprintf(stderr, "kvroute: out of memory growing a buffer of %zu bytes by %zu\n", b->len, n);
        abort();
    }
}

char *kvr_buf_tail(kvr_buf_t *b, size_t n)
{
    reserve_or_abort(b, n);
    return b->base + b->len;
}

void kvr_buf_commit(kvr_buf_t *b, size_t n)
{
    if (n == 0)
        return;
    /* The NUL's byte is reserved too: len + n + 1 <= cap. */
    if (n >= b->cap - b->len) {
        fprintf(stderr, "kvroute: buffer commit of %zu bytes past its reserve\n", n);
        abort();
    }
    b->len += n;
    b->base[b->len] = '\0';
}

void kvr_buf_append(kvr_buf_t *b, const void *data, size_t n)
{
    reserve_or_abort(b, n);
    if (n)
        memcpy(b->base + b->len, data, n);
    b->len += n;
    b->base[b->len] = '\0';
}

void kvr_buf_append_str(kvr_buf_t *b, const char *s)
{
    kvr_buf_append(b, s, strlen(s));
}

void kvr_buf_append_char(kvr_buf_t *b, char c)
{
    kvr_buf_append(b, &c, 1);
}

void kvr_buf_vprintf(kvr_buf_t *b, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    size_t room = b->cap > b->len ? b->cap - b->len : 0;
    int n = vsnprintf(room ? b->base + b->len : NULL, room, fmt, ap);
    if (n < 0) {
        /* Only an invalid format or a wide character fails; keep the contents as they were. */
        if (room)
            b->base[b->len] = '\0';
        va_end(again);
        return;
    }
    if ((size_t)n >= room) {
        reserve_or_abort(b, (size_t)n);
        vsnprintf(b->base + b->len, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    b->len += (size_t)n;
}

void kvr_buf_printf(kvr_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kvr_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void kvr_buf_reset(kvr_buf_t *b)
{
    b->len = 0;
    if (b->cap)
        b->base[0] = '\0';
}

void kvr_buf_consume(kvr_buf_t *b, size_t n)
{
    if (n >= b->len) {
        kvr_buf_reset(b);
        return;
    }
    memmove(b->base, b->base + n, b->len - n);
    b->len -= n;
    b->base[b->len] = '\0';
}

char *kvr_buf_release(kvr_buf_t *b, size_t *len)
{
    char *out;
    if (b->on_heap) {
        out = b->base;
    } else { /* the caller's storage, or none yet */
        out = kvr_xmalloc(b->len + 1);
        if (b->len)
            memcpy(out, b->base, b->len);
        out[b->len] = '\0';
    }
    if (len)
        *len = b->len;
    kvr_buf_init(b);
    return out;
}
