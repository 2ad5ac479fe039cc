/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_MSGPACK_BUF_H
#define KVR_COMMON_MSGPACK_BUF_H

/*
 * msgpack into a caller's fixed buffer (a datagram, a relay frame): the
 * packer's write callback fails instead of growing, so an encoder answers
 * -EMSGSIZE rather than allocating on the hot path.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <msgpack.h>

typedef struct kvr_msgpack_buf_s {
    uint8_t *data;
    size_t cap, len;
} kvr_msgpack_buf_t;

/** msgpack_packer write callback over a kvr_msgpack_buf_t: -1 once the bytes do not fit. */
static inline int kvr_msgpack_buf_write(void *arg, const char *buf, size_t len)
{
    kvr_msgpack_buf_t *b = arg;
    if (len > b->cap - b->len)
        return -1;
    memcpy(b->data + b->len, buf, len);
    b->len += len;
    return 0;
}

/** Packs the NUL-terminated s as a msgpack str; nonzero when the packer failed. */
static inline int kvr_msgpack_pack_cstr(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    return msgpack_pack_str(pk, n) || msgpack_pack_str_body(pk, s, n);
}

#endif
