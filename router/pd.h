/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_PD_H
#define KVR_ROUTER_PD_H

/*
 * The bodies of disaggregated serving, built from the client's: vLLM's
 * kv_transfer_params (a prefill request, then a decode request carrying the
 * prefill's answer) and SGLang's bootstrap fields (one body for both
 * engines). No I/O: the proxy (router/proxy.c) sends what comes out.
 *
 * Engines read JSON with Python, where the last of duplicate members wins,
 * and cJSON reads the first: every member set here replaces all the
 * client's members of that name, so both readers see the router's value.
 */

#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"

/** A prefill engine's answer is read up to this size; past it, it is refused. */
#define KVR_PD_ANSWER_MAX (1u << 20)

/** Where an SGLang decode engine fetches its KV: the prefill engine's bootstrap server. */
typedef struct kvr_pd_bootstrap_s {
    const char *host; /* the prefill engine's host, as its URL names it */
    uint16_t port;    /* its bootstrap port (bootstrap_port=), 0: null (the engine's default) */
    uint64_t room;    /* the request's room, below 2^63 */
} kvr_pd_bootstrap_t;

/** vLLM's prefill body into out: one token, unstreamed, do_remote_decode. NULL, or why not. */
const char *kvr_pd_vllm_prefill_body(const char *body, size_t len, kvr_buf_t *out);
/** vLLM's decode body into out: the client's with the answer's kv_transfer_params. NULL or why. */
const char *kvr_pd_vllm_decode_body(const char *body, size_t len, const char *answer,
                                    size_t answer_len, kvr_buf_t *out);
/** SGLang's body for both engines: the client's with bootstrap_host, _port, _room. NULL or why. */
const char *kvr_pd_sglang_body(const char *body, size_t len, const kvr_pd_bootstrap_t *b,
                               kvr_buf_t *out);
/** A fresh room from the splitmix64 stream *state: 63 bits, as SGLang keeps it in an int64. */
uint64_t kvr_pd_room(uint64_t *state);

#endif
