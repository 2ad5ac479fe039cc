/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A push datagram, as statefeed's push socket takes it: decode, and for a
 * frame that decodes, encode it again and decode that: the codec must give
 * back what it was given.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/state_frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kvr_state_frame_t f, again;
    const char *reason = NULL;
    if (kvr_state_frame_decode(data, size, &f, &reason) != 0) {
        if (reason == NULL)
            __builtin_trap(); /* every refusal says why */
        return 0;
    }
    char buf[KVR_STATE_FRAME_MAX];
    size_t len = 0;
    /* A decoded frame may be larger re-encoded (ints widen to their natural size). */
    if (kvr_state_frame_encode(&f, buf, sizeof(buf), &len) != 0)
        return 0;
    if (kvr_state_frame_decode(buf, len, &again, &reason) != 0)
        __builtin_trap();
    const kvr_engine_state_t *a = &f.state, *b = &again.state;
    if (strcmp(a->engine_id, b->engine_id) != 0 || a->running != b->running ||
        a->waiting != b->waiting || a->kv_tokens_used != b->kv_tokens_used ||
        a->pending_prefill_tokens != b->pending_prefill_tokens || a->flags != b->flags ||
        f.sample_unix_ns != again.sample_unix_ns || f.seq != again.seq)
        __builtin_trap();
    return 0;
}
