/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An engine's KV event batch, as statefeed takes it off the wire: decoded
 * into an engine's block map, every refusal with a reason, and the map's
 * counts never going below zero or past what was stored.
 */
#include <stddef.h>
#include <stdint.h>

#include "statefeed/kv_cache.h"
#include "statefeed/kv_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int apply(void *arg, const kvr_kv_event_t *ev)
{
    return kvr_kv_cache_apply(arg, ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kvr_kv_decoder_t dec;
    kvr_kv_cache_t kc;
    if (kvr_kv_decoder_init(&dec) < 0)
        return 0;
    if (kvr_kv_cache_init(&kc, 0, NULL, 4096) < 0) {
        kvr_kv_decoder_close(&dec);
        return 0;
    }
    kvr_kv_batch_t batch;
    const char *why = NULL;
    /* twice: the second pass meets the first one's blocks (parents, removals of known hashes) */
    for (int pass = 0; pass < 2; pass++) {
        int rc = kvr_kv_batch_decode(&dec, data, size, apply, &kc, &batch, &why);
        if (rc != 0 && why == NULL)
            __builtin_trap(); /* every refusal says why */
    }
    uint64_t held = kvr_kv_cache_blocks(&kc);
    if (held > kc.stored || held > 4096 * KVR_KV_TIERS)
        __builtin_trap();
    kvr_kv_cache_close(&kc);
    kvr_kv_decoder_close(&dec);
    return 0;
}
