/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_PD_H
#define KVR_ROUTER_PD_H

/*
 * The bodies of disaggregated serving, built from the client's: vLLM's
 * kv_transfer_params (a prefill request, then a decode request carrying the
 * prefill's answer). No I/O: the proxy (router/proxy.c) sends what comes out.
 *
 * Engines read JSON with Python, where the last of duplicate members wins,
 * and cJSON reads the first: every member set here replaces all the
 * client's members of that name, so both readers see the router's value.
 */

#include <stddef.h>

#include "common/buf.h"

/** A prefill engine's answer is read up to this size; past it, it is refused. */
#define KVR_PD_ANSWER_MAX (1u << 20)

/** vLLM's prefill body into out: one token, unstreamed, do_remote_decode. NULL, or why not. */
const char *kvr_pd_vllm_prefill_body(const char *body, size_t len, kvr_buf_t *out);
/** vLLM's decode body into out: the client's with the answer's kv_transfer_params. NULL or why. */
const char *kvr_pd_vllm_decode_body(const char *body, size_t len, const char *answer,
                                    size_t answer_len, kvr_buf_t *out);

#endif
