/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A residency table as bytes: validation, then the reader's lookups on a
 * copy of the input, as a router mapping a hostile object would. The chain
 * looked up is made of hash words found in the input's own buckets, so
 * lookups reach the entry checks; every answer must name an engine in range
 * with per-tier counts that never decrease and never pass the chain.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shm_layout/residency.h"
#include "shm_layout/shm_layout.h"

#define FUZZ_NOW_NS (1000ull * KVR_SHM_NS_PER_SEC)
#define FUZZ_CHAIN 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void lookups(kvr_residency_reader_t *r, const uint8_t *bytes, size_t size)
{
    uint64_t chain[FUZZ_CHAIN];
    size_t n = 0;
    for (size_t off = r->bucket_offset + 8; off + 8 <= size && n < FUZZ_CHAIN; off += 16) {
        uint64_t v;
        memcpy(&v, bytes + off, sizeof v);
        if (v != 0)
            chain[n++] = v;
    }
    kvr_res_match_t m[32];
    for (size_t start = 0; start < n || start == 0; start += 8) {
        size_t got = kvr_residency_lookup(r, chain + start, n - start, m, 32);
        for (size_t i = 0; i < got; i++)
            if (m[i].slot >= r->engines || m[i].blocks[0] > m[i].blocks[1] ||
                m[i].blocks[1] > m[i].blocks[2] || m[i].blocks[2] > n - start ||
                !kvr_residency_reader_trusted(r, m[i].slot))
                abort();
        if (n == 0)
            break;
    }
    (void)kvr_residency_reader_trusted(r, r->engines);
    /* the walk of every bucket: bounded by the validated geometry, never more than it holds */
    if (kvr_residency_reader_slot_entries(r, 0) > r->bucket_count * KVR_RES_BUCKET_ENTRIES ||
        kvr_residency_reader_slot_entries(r, r->engines) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A mapping starts page-aligned; buckets are 64-byte aligned within it. */
    size_t padded = (size + 63) / 64 * 64;
    void *copy = aligned_alloc(64, padded ? padded : 64);
    if (copy == NULL)
        return 0;
    if (size > 0)
        memcpy(copy, data, size);
    (void)kvr_residency_validate(copy, size);
    kvr_residency_reader_t r;
    if (kvr_residency_reader_attach(&r, copy, size) == 0) {
        (void)kvr_residency_reader_check(&r, FUZZ_NOW_NS, 2 * KVR_SHM_NS_PER_SEC);
        lookups(&r, copy, size);
        kvr_residency_reader_close(&r);
    }
    free(copy);
    return 0;
}
