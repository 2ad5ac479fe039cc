/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A dispatch segment as bytes: validation, then everything a router does
 * with a mapped one — sum the other rows, claim a row, publish, heartbeat,
 * append to the ring and read it to the end — on a copy of the input, as a
 * router sharing a hostile object would.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shm_layout/dispatch.h"

#define FUZZ_NOW_NS (1000ull * 1000000000ull)
#define FUZZ_MAX_AGE_NS (2ull * 1000000000ull)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void act(kvr_dsp_t *d)
{
    uint64_t keys[3] = {kvr_dsp_engine_key("http://127.0.0.1:8001"),
                        kvr_dsp_engine_key("http://127.0.0.1:8002"), 1};
    kvr_dsp_load_t sums[3];
    kvr_dsp_sum_stats_t stats;
    kvr_dsp_cursor_t cursor = {.next = 1};
    kvr_dsp_placement_t got;
    /* Read what is there before writing anything, from the ring's start. */
    kvr_dsp_sum_others(d, FUZZ_NOW_NS, FUZZ_MAX_AGE_NS, keys, 3, sums, &stats);
    for (int i = 0; i < 3 && kvr_dsp_ring_next(d, &cursor, FUZZ_NOW_NS, &got) == 0; i++)
        ;
    if (kvr_dsp_claim(d, "fuzz", FUZZ_NOW_NS, FUZZ_MAX_AGE_NS) >= 0) {
        kvr_dsp_load_t loads[3] = {{1, 2, 3}, {4, 5, 6}, {UINT64_MAX, 0, 0}};
        (void)kvr_dsp_publish(d, keys, loads, 3, FUZZ_NOW_NS);
        (void)kvr_dsp_heartbeat(d, FUZZ_NOW_NS);
        kvr_dsp_placement_t p = {.kind = KVR_DSP_PLACE_PREFIX,
                                 .block_count = 2,
                                 .engine_key = keys[0],
                                 .blocks = {11, 12}};
        (void)kvr_dsp_append(d, &p);
        kvr_dsp_placement_t pin = {.kind = KVR_DSP_PLACE_SESSION,
                                   .engine_key = keys[1],
                                   .session_hash = kvr_dsp_session_hash("s", 1)};
        (void)kvr_dsp_append(d, &pin);
    }
    kvr_dsp_sum_others(d, FUZZ_NOW_NS, FUZZ_MAX_AGE_NS, keys, 3, sums, &stats);
    /* Past the pending wait, so entries never completed are skipped too. */
    for (int i = 0; i < 8 && kvr_dsp_ring_next(d, &cursor, FUZZ_NOW_NS + 1000000000ull, &got) == 0;
         i++)
        ;
    char text[256];
    (void)kvr_dsp_explain(d, KVR_EDSP_FULL, text, sizeof text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A mapping starts page-aligned; rows and entries are 64-byte aligned within it. */
    size_t padded = (size + 63) / 64 * 64;
    void *copy = aligned_alloc(64, padded ? padded : 64);
    if (copy == NULL)
        return 0;
    if (size > 0)
        memcpy(copy, data, size);
    (void)kvr_dsp_validate(copy, size);
    kvr_dsp_t d;
    if (kvr_dsp_attach(&d, copy, size) == 0) {
        (void)kvr_dsp_check(&d);
        act(&d);
        kvr_dsp_close(&d);
    }
    free(copy);
    return 0;
}
