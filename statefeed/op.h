/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_STATEFEED_OP_H
#define KVR_STATEFEED_OP_H

/*
 * Every io_uring submission carries a pointer to a kvr__op_t as user_data; the
 * loop dispatches on its kind. Link timeouts carry 0 and their completions
 * are dropped: the operation they guard reports -ECANCELED itself.
 */

#include <stdint.h>

typedef enum {
    KVR_OP_TICK = 1,  /* the period timer */
    KVR_OP_SIGNAL,    /* read from the signalfd */
    KVR_OP_HTTP,      /* an engine poll's connect or receive (owner: kvr__http_client_conn_t) */
    KVR_OP_HTTP_SEND, /* an engine poll's send, failures only (owner: kvr__http_client_conn_t) */
    KVR_OP_PUSH,      /* a datagram on a push socket (owner: kvr__push_sock_t) */
    KVR_OP_UV_POLL,   /* the libuv backend fd became readable */
    KVR_OP_EXPORT_ACCEPT, /* relay export: a subscriber connected */
    KVR_OP_EXPORT_SEND,   /* relay export: a frame went out (owner: subscriber) */
    KVR_OP_EXPORT_HELLO,  /* relay export: a subscriber's hello arrived (owner: subscriber) */
    KVR_OP_IMPORT,        /* relay import: connect or receive step */
    KVR_OP_RECV_PHASE,    /* a tick's requests are out: post their receives */
} kvr__op_kind_t;

typedef struct kvr__op_s {
    kvr__op_kind_t kind;
    void *owner;
} kvr__op_t;

#define KVR_OP_IGNORE 0ull /* user_data of link timeouts */

#endif
