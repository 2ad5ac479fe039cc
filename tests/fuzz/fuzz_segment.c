/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A state segment as bytes: validation, then every slot read through the
 * accessors the router uses (plain and cached seqlock reads, the lookup by
 * engine id) and the router's feed view of one engine, all on a copy of the
 * input, as a reader mapping a hostile object would.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "router/engines.h"
#include "router/feed.h"
#include "shm_layout/shm_layout.h"

/* The engine id the seeds' writer used for slot 0. */
#define FUZZ_ENGINE "http://127.0.0.1:8000"
#define FUZZ_NOW_NS (1000ull * KVR_SHM_NS_PER_SEC)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_every_slot(const kvr_shm_t *shm)
{
    kvr_shm_slot_cache_t cache = {0};
    for (uint32_t i = 0; i < shm->capacity; i++) {
        kvr_engine_state_t state;
        uint64_t age;
        if (kvr_shm_read_slot(shm, i, FUZZ_NOW_NS, &state, &age) == 0)
            (void)strlen(state.engine_id);
        (void)kvr_shm_read_slot_cached(shm, i, FUZZ_NOW_NS, &cache, &age);
        (void)kvr_shm_read_slot_cached(shm, i, FUZZ_NOW_NS, &cache,
                                       &age); /* the counter-only path */
    }
    kvr_engine_state_t state;
    (void)kvr_shm_read_slot(shm, shm->capacity, FUZZ_NOW_NS, &state, NULL);
}

static void feed_view(const kvr_shm_t *shm)
{
    kvr_engine_table_t table;
    if (kvr_engine_table_init(&table, 0) < 0)
        return;
    kvr_engine_t *engine;
    if (kvr_engine_table_add(&table, FUZZ_ENGINE, &engine) == 0) {
        kvr_feed_t feed;
        kvr_feed_init(&feed, true, "/kvr-fuzz-segment", 2 * KVR_SHM_NS_PER_SEC);
        feed.shm = *shm;
        feed.open = true;
        feed.writer_ok = kvr_shm_check_heartbeat(shm, FUZZ_NOW_NS, feed.max_age_ns) == 0;
        kvr_engine_view_t view;
        for (int i = 0; i < 2; i++)
            (void)kvr_feed_view(&feed, engine, FUZZ_NOW_NS, true, &view);
        /* feed.shm is the caller's buffer, not a mapping: only the feed's own memory is freed. */
        feed.open = false;
        kvr_feed_close(&feed);
    }
    kvr_engine_table_close(&table);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A mapping starts page-aligned; slots are 64-byte aligned within it. */
    size_t padded = (size + 63) / 64 * 64;
    void *copy = aligned_alloc(64, padded ? padded : 64);
    if (copy == NULL)
        return 0;
    if (size > 0)
        memcpy(copy, data, size);
    (void)kvr_shm_validate(copy, size);
    kvr_shm_t shm;
    if (kvr_shm_attach(&shm, copy, size) == 0) {
        (void)kvr_shm_check_size(&shm);
        (void)kvr_shm_check_heartbeat(&shm, FUZZ_NOW_NS, 2 * KVR_SHM_NS_PER_SEC);
        (void)kvr_shm_generation(&shm);
        (void)kvr_shm_find(&shm, FUZZ_ENGINE);
        read_every_slot(&shm);
        feed_view(&shm);
        char text[512];
        (void)kvr_shm_explain(&shm, KVR_ESHM_OWNER, text, sizeof text);
        kvr_shm_close(&shm);
    }
    free(copy);
    return 0;
}
