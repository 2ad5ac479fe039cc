/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The residency table (shm_layout/residency.h): longest prefix per engine
 * and tier, removal, O(1) clears, trust, a full table, a model check of the
 * open addressing under churn, hostile bytes, and the torture test with the
 * writer in a thread and in another process.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/rng.h"
#include "shm_layout/residency.h"
#include "shm_layout/shm_layout.h"
#include "tests/shm_layout/residency_torture.h"
#include "tests/support/proc.h"

typedef struct {
    char name[64];
    kvr_residency_writer_t w;
    kvr_residency_reader_t r;
} table_t;

static void table_open(table_t *t, uint32_t mb, uint32_t engines)
{
    kvr_test_unique_name(t->name, sizeof t->name, "/kvr-test-residency");
    cr_assert_eq(kvr_residency_writer_open(&t->w, t->name, mb, engines), 0);
    cr_assert_eq(kvr_residency_reader_open(&t->r, t->name, geteuid()), 0);
}

static void table_close(table_t *t)
{
    kvr_residency_reader_close(&t->r);
    kvr_residency_writer_destroy(&t->w);
}

static const kvr_res_match_t *find(const kvr_res_match_t *m, size_t n, uint32_t slot)
{
    for (size_t i = 0; i < n; i++)
        if (m[i].slot == slot)
            return &m[i];
    return NULL;
}

static void chain(uint64_t *h, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        h[i] = kvr_splitmix64(&seed) | 1;
    }
}

Test(residency, longest_prefix_per_engine_and_tier, .timeout = 5.)
{
    table_t t;
    table_open(&t, 1, 16);
    uint64_t h[8];
    chain(h, 8, 7);
    /* Engine 3: blocks 0..5 on GPU. Engine 9: 0..1 GPU, 2..3 host, 5 GPU (a gap at 4). */
    for (int i = 0; i < 6; i++)
        cr_assert_eq(kvr_residency_stored(&t.w, 3, h[i], KVR_RES_TIER_GPU), 0);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(kvr_residency_stored(&t.w, 9, h[i], KVR_RES_TIER_GPU), 0);
    for (int i = 2; i < 4; i++)
        cr_assert_eq(kvr_residency_stored(&t.w, 9, h[i], KVR_RES_TIER_HOST), 0);
    cr_assert_eq(kvr_residency_stored(&t.w, 9, h[5], KVR_RES_TIER_GPU), 0);
    /* Engine 4 holds block 1 but not block 0: no prefix. */
    cr_assert_eq(kvr_residency_stored(&t.w, 4, h[1], KVR_RES_TIER_GPU), 0);
    kvr_residency_trust(&t.w, 3, true);
    kvr_residency_trust(&t.w, 9, true);
    kvr_residency_trust(&t.w, 4, true);

    kvr_res_match_t m[16];
    size_t n = kvr_residency_lookup(&t.r, h, 8, m, 16);
    cr_assert_eq(n, 2);
    const kvr_res_match_t *a = find(m, n, 3), *b = find(m, n, 9);
    cr_assert(a && b);
    cr_expect_eq(a->blocks[0], 6);
    cr_expect_eq(a->blocks[1], 6);
    cr_expect_eq(a->blocks[2], 6);
    cr_expect_eq(b->blocks[KVR_RES_TIER_GPU], 2);
    cr_expect_eq(b->blocks[KVR_RES_TIER_HOST], 4);
    cr_expect_eq(b->blocks[KVR_RES_TIER_DISK], 4);
    /* Storing twice changes nothing; a GPU copy of block 2 lifts engine 9's GPU prefix. */
    cr_assert_eq(kvr_residency_stored(&t.w, 3, h[0], KVR_RES_TIER_GPU), 0);
    cr_assert_eq(kvr_residency_stored(&t.w, 9, h[2], KVR_RES_TIER_GPU), 0);
    kvr_res_stats_t st;
    kvr_residency_writer_stats(&t.w, &st);
    cr_expect_eq(st.entries, 6 + 2 + 2 + 1 + 1 + 1);
    n = kvr_residency_lookup(&t.r, h, 8, m, 16);
    cr_expect_eq(find(m, n, 9)->blocks[KVR_RES_TIER_GPU], 3);
    /* A request of 3 blocks caps the match. */
    n = kvr_residency_lookup(&t.r, h, 3, m, 16);
    cr_expect_eq(find(m, n, 3)->blocks[0], 3);
    /* The result holds at most cap engines. */
    cr_expect_eq(kvr_residency_lookup(&t.r, h, 8, m, 1), 1);
    table_close(&t);
}

Test(residency, removed_cleared_and_untrusted_are_misses, .timeout = 5.)
{
    table_t t;
    table_open(&t, 1, 4);
    uint64_t h[4];
    chain(h, 4, 11);
    for (uint32_t s = 0; s < 3; s++) {
        for (int i = 0; i < 4; i++)
            cr_assert_eq(kvr_residency_stored(&t.w, s, h[i], KVR_RES_TIER_GPU), 0);
        kvr_residency_trust(&t.w, s, true);
    }
    kvr_res_match_t m[4];
    cr_assert_eq(kvr_residency_lookup(&t.r, h, 4, m, 4), 3);
    /* Removal of block 2 ends engine 0's prefix there. */
    cr_assert_eq(kvr_residency_removed(&t.w, 0, h[2], KVR_RES_TIER_GPU), 0);
    cr_assert_eq(kvr_residency_removed(&t.w, 0, h[2], KVR_RES_TIER_GPU), -ENOENT);
    cr_assert_eq(kvr_residency_removed(&t.w, 0, h[2], KVR_RES_TIER_HOST), -ENOENT);
    size_t n = kvr_residency_lookup(&t.r, h, 4, m, 4);
    cr_expect_eq(find(m, n, 0)->blocks[0], 2);
    /* Clearing engine 1 hides every block of it at once; untrusting engine 2 hides it. */
    cr_assert_eq(kvr_residency_cleared(&t.w, 1), 0);
    cr_assert_eq(kvr_residency_trust(&t.w, 2, false), 0);
    n = kvr_residency_lookup(&t.r, h, 4, m, 4);
    cr_expect_eq(n, 1);
    cr_expect_eq(m[0].slot, 0);
    cr_expect(!kvr_residency_reader_trusted(&t.r, 2));
    cr_expect(kvr_residency_reader_trusted(&t.r, 1));
    /* Trusted again, engine 2's blocks were kept; engine 1 stores anew under its new epoch. */
    kvr_residency_trust(&t.w, 2, true);
    cr_assert_eq(kvr_residency_stored(&t.w, 1, h[0], KVR_RES_TIER_HOST), 0);
    n = kvr_residency_lookup(&t.r, h, 4, m, 4);
    cr_expect_eq(n, 3);
    cr_expect_eq(find(m, n, 2)->blocks[0], 4);
    cr_expect_eq(find(m, n, 1)->blocks[KVR_RES_TIER_GPU], 0);
    cr_expect_eq(find(m, n, 1)->blocks[KVR_RES_TIER_HOST], 1);
    /* The sweep reclaims the cleared entries. */
    kvr_res_stats_t st;
    kvr_residency_writer_stats(&t.w, &st);
    cr_expect_eq(st.dead_entries, 3, "one of the four was reused by the new store");
    cr_expect_eq(st.clears_total, 1);
    kvr_residency_writer_tick(&t.w, kvr_clock_now_ns(), UINT64_MAX);
    kvr_residency_writer_stats(&t.w, &st);
    cr_expect_eq(st.dead_entries, 0);
    cr_expect_eq(st.entries, 3 + 4 + 1);
    cr_expect_eq(kvr_residency_lookup(&t.r, h, 4, m, 4), 3);
    /* Bad arguments. */
    cr_expect_eq(kvr_residency_stored(&t.w, 4, h[0], 0), -EINVAL);
    cr_expect_eq(kvr_residency_stored(&t.w, 0, 0, 0), -EINVAL);
    cr_expect_eq(kvr_residency_stored(&t.w, 0, h[0], KVR_RES_TIERS), -EINVAL);
    cr_expect_eq(kvr_residency_cleared(&t.w, 4), -EINVAL);
    table_close(&t);
}

Test(residency, full_table_refuses_and_counts, .timeout = 10.)
{
    table_t t;
    table_open(&t, 1, 2);
    kvr_res_stats_t st;
    kvr_residency_writer_stats(&t.w, &st);
    uint64_t cap = st.capacity_entries;
    cr_assert_gt(cap, 1000);
    uint64_t x = 5, refused = 0;
    uint64_t *kept = calloc(cap + 1000, sizeof *kept);
    size_t n_kept = 0;
    for (uint64_t i = 0; i < cap + 1000; i++) {
        uint64_t h = kvr_splitmix64(&x) | 1;
        int rc = kvr_residency_stored(&t.w, 0, h, 0);
        if (rc == -ENOSPC)
            refused++;
        else if (rc == 0)
            kept[n_kept++] = h;
    }
    kvr_residency_writer_stats(&t.w, &st);
    cr_expect_geq(refused, 1000);
    cr_expect_eq(st.refused_total, refused);
    cr_expect_eq(st.entries, n_kept);
    cr_expect_leq(st.entries, cap);
    /* Every block it took is still found, one at a time. */
    kvr_residency_trust(&t.w, 0, true);
    kvr_res_match_t m[2];
    for (size_t i = 0; i < n_kept; i++) {
        size_t n = kvr_residency_lookup(&t.r, &kept[i], 1, m, 2);
        cr_assert_eq(n, 1, "block %zu lost", i);
        cr_assert_eq(m[0].slot, 0);
    }
    /* A clear frees room once swept. */
    kvr_residency_cleared(&t.w, 0);
    cr_expect_eq(kvr_residency_stored(&t.w, 1, 12345, 0), 0, "a cleared entry is reused");
    kvr_residency_writer_tick(&t.w, kvr_clock_now_ns(), UINT64_MAX);
    kvr_residency_writer_stats(&t.w, &st);
    cr_expect_eq(st.dead_entries, 0);
    cr_expect_eq(st.entries, 1);
    free(kept);
    table_close(&t);
}

/* Random stores and removals against a plain model: the reader finds exactly the model's holders. */
Test(residency, open_addressing_matches_a_model_under_churn, .timeout = 20.)
{
    table_t t;
    table_open(&t, 1, 8);
    enum { BLOCKS = 6000 };
    static uint8_t model[BLOCKS][8]; /* tier mask per (block, engine) */
    memset(model, 0, sizeof model);
    uint64_t hashes[BLOCKS];
    uint64_t x = 99;
    for (int i = 0; i < BLOCKS; i++)
        hashes[i] = kvr_splitmix64(&x) | 1;
    for (uint32_t s = 0; s < 8; s++)
        kvr_residency_trust(&t.w, s, true);
    for (int op = 0; op < 200000; op++) {
        uint64_t r = kvr_splitmix64(&x);
        int b = (int)(r % BLOCKS);
        uint32_t s = (uint32_t)((r >> 16) % 8);
        uint32_t tier = (uint32_t)((r >> 24) % 3);
        if ((r >> 32) % 3 != 0) {
            int rc = kvr_residency_stored(&t.w, s, hashes[b], tier);
            if (rc == 0)
                model[b][s] |= (uint8_t)(1u << tier);
        } else {
            int rc = kvr_residency_removed(&t.w, s, hashes[b], tier);
            cr_assert_eq(rc == 0, (model[b][s] >> tier) & 1u, "op %d removal", op);
            model[b][s] &= (uint8_t) ~(1u << tier);
        }
        if (op % 50000 == 49999) {
            kvr_residency_cleared(&t.w, (uint32_t)(op / 50000));
            for (int i = 0; i < BLOCKS; i++)
                model[i][op / 50000] = 0;
            kvr_residency_writer_tick(&t.w, kvr_clock_now_ns(), 512);
        }
    }
    kvr_res_match_t m[8];
    for (int b = 0; b < BLOCKS; b++) {
        size_t n = kvr_residency_lookup(&t.r, &hashes[b], 1, m, 8);
        size_t want = 0;
        for (uint32_t s = 0; s < 8; s++) {
            if (!model[b][s])
                continue;
            want++;
            const kvr_res_match_t *f = find(m, n, s);
            cr_assert(f, "block %d engine %u lost", b, s);
            cr_assert_eq(f->blocks[0], (model[b][s] & 1u) ? 1u : 0u);
            cr_assert_eq(f->blocks[1], (model[b][s] & 3u) ? 1u : 0u);
        }
        cr_assert_eq(n, want, "block %d: %zu holders, model %zu", b, n, want);
    }
    table_close(&t);
}

/* ---- hostile tables --------------------------------------------------- */

static void *table_copy(table_t *t, size_t *len)
{
    *len = t->r.need_len;
    void *copy = malloc(*len);
    memcpy(copy, t->r.base, *len);
    return copy;
}

Test(residency, wrong_magic_version_or_geometry_is_refused, .timeout = 5.)
{
    table_t t;
    table_open(&t, 1, 4);
    size_t len;
    unsigned char *b = table_copy(&t, &len);
    kvr_residency_reader_t r;
    cr_assert_eq(kvr_residency_reader_attach(&r, b, len), 0);
    kvr_residency_reader_close(&r);
    cr_expect_eq(kvr_residency_validate(b, 8), KVR_ESHM_TRUNCATED);
    cr_expect_eq(kvr_residency_validate(b, 200), KVR_ESHM_TRUNCATED);
    cr_expect_eq(kvr_residency_validate(b, len - 1), KVR_ERES_GEOMETRY);
    kvr_res_header_t *h = (kvr_res_header_t *)b;
    h->abi_major = 2;
    cr_expect_eq(kvr_residency_validate(b, len), KVR_ESHM_MAJOR);
    h->abi_major = 1;
    h->abi_minor = 9; /* a newer minor appended fields: still read */
    cr_expect_eq(kvr_residency_validate(b, len), 0);
    h->bucket_count = 0;
    cr_expect_eq(kvr_residency_validate(b, len), KVR_ERES_GEOMETRY);
    h->bucket_count = UINT64_MAX / 64;
    cr_expect_eq(kvr_residency_validate(b, len), KVR_ERES_GEOMETRY);
    h->bucket_count = t.r.bucket_count;
    h->engines = 0;
    cr_expect_eq(kvr_residency_validate(b, len), KVR_ERES_GEOMETRY);
    h->engines = 70000;
    cr_expect_eq(kvr_residency_validate(b, len), KVR_ERES_GEOMETRY);
    h->engines = 4;
    h->bucket_offset = 64;
    cr_expect_eq(kvr_residency_validate(b, len), KVR_ERES_GEOMETRY);
    h->bucket_offset = t.r.bucket_offset;
    h->max_probe = KVR_RES_MAX_PROBE + 1;
    cr_expect_eq(kvr_residency_validate(b, len), KVR_ERES_GEOMETRY);
    h->max_probe = t.r.max_probe;
    h->bucket_size = 100;
    cr_expect_eq(kvr_residency_validate(b, len), KVR_ERES_GEOMETRY);
    h->bucket_size = KVR_RES_BUCKET_SIZE;
    h->magic ^= 1;
    cr_expect_eq(kvr_residency_validate(b, len), KVR_ERES_MAGIC);
    cr_expect_eq(kvr_residency_reader_attach(&r, b, len), KVR_ERES_MAGIC);
    cr_expect_eq(kvr_residency_lookup(&r, (uint64_t[]){1}, 1, (kvr_res_match_t[1]){0}, 1), 0);
    free(b);
    table_close(&t);
}

Test(residency, random_bytes_never_name_an_engine_out_of_range, .timeout = 20.)
{
    table_t t;
    table_open(&t, 1, 4);
    uint64_t h[16];
    chain(h, 16, 3);
    for (uint32_t s = 0; s < 4; s++) {
        for (int i = 0; i < 16; i++)
            kvr_residency_stored(&t.w, s, h[i], s % 3);
        kvr_residency_trust(&t.w, s, true);
    }
    size_t len;
    unsigned char *b = table_copy(&t, &len);
    uint64_t x = 17;
    kvr_res_match_t m[4];
    for (int round = 0; round < 200; round++) {
        kvr_residency_reader_t r;
        cr_assert_eq(kvr_residency_reader_attach(&r, b, len), 0);
        size_t n = kvr_residency_lookup(&r, h, 16, m, 4);
        for (size_t i = 0; i < n; i++) {
            cr_assert_lt(m[i].slot, 4);
            cr_assert_leq(m[i].blocks[0], m[i].blocks[1]);
            cr_assert_leq(m[i].blocks[1], m[i].blocks[2]);
            cr_assert_leq(m[i].blocks[2], 16);
            cr_assert(kvr_residency_reader_trusted(&r, m[i].slot));
        }
        kvr_residency_reader_close(&r);
        /* Scribble: random words over the engine words and buckets (the header stays valid). */
        for (int k = 0; k < 64; k++) {
            size_t off = KVR_RES_HEADER_SIZE +
                         (size_t)kvr_splitmix64_below(&x, (len - KVR_RES_HEADER_SIZE) / 8) * 8;
            uint64_t v = kvr_splitmix64(&x);
            if (k % 4 == 0) /* a word that looks like an entry of one of the chain's blocks */
                v = h[kvr_splitmix64_below(&x, 16)];
            memcpy(b + off, &v, sizeof v);
        }
    }
    free(b);
    table_close(&t);
}

Test(residency, bucket_left_odd_is_a_counted_miss, .timeout = 5.)
{
    table_t t;
    table_open(&t, 1, 2);
    uint64_t h = 0x1234567890abcdefull;
    cr_assert_eq(kvr_residency_stored(&t.w, 1, h, 0), 0);
    kvr_residency_trust(&t.w, 1, true);
    kvr_res_match_t m[2];
    cr_assert_eq(kvr_residency_lookup(&t.r, &h, 1, m, 2), 1);
    /* What a writer killed between its two counter stores leaves behind, in every bucket. */
    for (uint64_t b = 0; b < t.w.bucket_count; b++)
        atomic_fetch_add(&t.w.buckets[b].seq, 1);
    uint64_t busy = t.r.stats.busy;
    cr_expect_eq(kvr_residency_lookup(&t.r, &h, 1, m, 2), 0);
    cr_expect_eq(t.r.stats.busy, busy + 1);
    table_close(&t);
}

Test(residency, reader_check_sees_a_stopped_stale_or_changed_table, .timeout = 5.)
{
    table_t t;
    table_open(&t, 1, 2);
    uint64_t now = kvr_clock_now_ns();
    kvr_residency_writer_tick(&t.w, now, 0);
    cr_expect_eq(kvr_residency_reader_check(&t.r, now, KVR_NS_PER_SEC), 0);
    cr_expect_eq(kvr_residency_reader_check(&t.r, now + 2 * KVR_NS_PER_SEC, KVR_NS_PER_SEC),
                 KVR_ESHM_STALE);
    cr_expect_eq(kvr_residency_reader_check(&t.r, now - KVR_NS_PER_SEC, KVR_NS_PER_SEC),
                 KVR_ESHM_STALE, "a heartbeat from the future is not fresh");
    /* Shrunk under the reader: changed, so it drops the mapping before a read faults. */
    cr_assert_eq(ftruncate(t.w.fd, 4096), 0);
    cr_expect_eq(kvr_residency_reader_check(&t.r, now, KVR_NS_PER_SEC), KVR_ESHM_CHANGED);
    cr_assert_eq(ftruncate(t.w.fd, (off_t)t.w.map_len), 0);
    t.w.header->seed ^= 1;
    cr_expect_eq(kvr_residency_reader_check(&t.r, now, KVR_NS_PER_SEC), KVR_ESHM_CHANGED);
    t.w.header->seed ^= 1;
    kvr_residency_reader_close(&t.r);
    /* A second writer is refused while the first lives; once stopped its object is replaced. */
    kvr_residency_writer_t other;
    cr_expect_eq(kvr_residency_writer_open(&other, t.name, 1, 2), -EBUSY);
    cr_assert_eq(kvr_residency_reader_open(&t.r, t.name, geteuid()), 0);
    kvr_residency_writer_close(&t.w);
    cr_expect_eq(kvr_residency_reader_check(&t.r, now, KVR_NS_PER_SEC), KVR_ESHM_WRITER_GONE);
    cr_assert_eq(kvr_residency_writer_open(&t.w, t.name, 1, 2), 0);
    cr_expect_eq(kvr_residency_reader_open(&(kvr_residency_reader_t){0}, t.name, geteuid() + 1),
                 KVR_ESHM_OWNER);
    cr_expect_eq(kvr_residency_writer_open(&other, t.name, 0, 2), -EINVAL);
    cr_expect_eq(kvr_residency_writer_open(&other, t.name, 1, 0), -EINVAL);
    table_close(&t);
}

/* ---- torture ------------------------------------------------------------ */

#define LOOKUPS_PER_READER 30000

typedef struct {
    kvr_residency_reader_t *r; /* NULL: open by name */
    const char *name;
    atomic_bool *stop;
    long wrong, hits, lookups;
} rt_arg_t;

static void rt_read(rt_arg_t *a, kvr_residency_reader_t *r)
{
    uint64_t x = (uint64_t)(uintptr_t)a;
    uint64_t h[KVR_RT_BLOCKS];
    kvr_res_match_t m[KVR_RT_ENGINES];
    for (long i = 0; i < LOOKUPS_PER_READER; i++) {
        uint32_t slot = (uint32_t)kvr_splitmix64_below(&x, KVR_RT_ENGINES);
        uint32_t c = (uint32_t)kvr_splitmix64_below(&x, KVR_RT_CHAINS);
        for (uint32_t b = 0; b < KVR_RT_BLOCKS; b++)
            h[b] = kvr_rt_hash(slot, c, b);
        size_t n = kvr_residency_lookup(r, h, KVR_RT_BLOCKS, m, KVR_RT_ENGINES);
        a->lookups++;
        for (size_t k = 0; k < n; k++) {
            if (!kvr_rt_match_ok(&m[k], slot))
                a->wrong++;
            else if (m[k].blocks[2] > 0)
                a->hits++;
        }
    }
}

static void *rt_reader_main(void *p)
{
    rt_arg_t *a = p;
    kvr_residency_reader_t own;
    kvr_residency_reader_t *r = a->r;
    if (!r) {
        if (kvr_residency_reader_open(&own, a->name, geteuid()) != 0)
            return NULL;
        r = &own;
    }
    rt_read(a, r);
    if (r == &own)
        kvr_residency_reader_close(&own);
    return NULL;
}

static void *rt_writer_main(void *p)
{
    kvr_residency_writer_t *w = p;
    kvr_rt_write(w, NULL, 0x9e3779b97f4a7c15ull, 2 * KVR_NS_PER_SEC);
    return NULL;
}

Test(residency, threads_never_see_a_wrong_holder, .timeout = 60.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-residency-thr");
    kvr_residency_writer_t w;
    cr_assert_eq(kvr_residency_writer_open(&w, name, 1, KVR_RT_ENGINES), 0);
    /* Prime the table so readers have hits from the start. */
    atomic_bool stop = true;
    kvr_rt_write(&w, &stop, 1, 0);
    for (uint32_t s = 0; s < KVR_RT_ENGINES; s++)
        for (uint32_t c = 0; c < KVR_RT_CHAINS; c++)
            for (uint32_t b = 0; b < KVR_RT_BLOCKS; b++)
                kvr_residency_stored(&w, s, kvr_rt_hash(s, c, b), 0);
    pthread_t wt, rt[2];
    rt_arg_t r[2] = {{.name = name}, {.name = name}};
    pthread_create(&wt, NULL, rt_writer_main, &w);
    for (int i = 0; i < 2; i++)
        pthread_create(&rt[i], NULL, rt_reader_main, &r[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(rt[i], NULL);
    pthread_join(wt, NULL);
    for (int i = 0; i < 2; i++) {
        cr_expect_eq(r[i].lookups, LOOKUPS_PER_READER, "reader %d could not open", i);
        cr_expect_eq(r[i].wrong, 0, "reader %d saw %ld wrong holders", i, r[i].wrong);
        cr_expect_gt(r[i].hits, 0, "reader %d never found a block", i);
    }
    kvr_residency_writer_destroy(&w);
}

Test(residency, writer_in_another_process_never_shows_a_wrong_holder, .timeout = 60.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-residency-proc");
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_RESIDENCY_WRITER"), name, "30", NULL};
    pid_t pid = kvr_test_spawn(argv, NULL);
    cr_assert_gt(pid, 0);
    kvr_residency_reader_t r;
    int rc = -ENOENT;
    for (int i = 0; i < 500 && rc != 0; i++) {
        rc = kvr_residency_reader_open(&r, name, geteuid());
        if (rc != 0)
            kvr_test_sleep_ms(10);
    }
    cr_assert_eq(rc, 0, "writer never created its table: %s", kvr_strerror(rc));
    /* Hits show the writer has begun. */
    rt_arg_t a = {.r = &r};
    for (int i = 0; i < 100 && a.hits == 0; i++) {
        kvr_test_sleep_ms(10);
        rt_read(&a, &r);
    }
    cr_assert_gt(a.hits, 0, "never found a block the writer stored");
    a.wrong = 0;
    rt_read(&a, &r);
    cr_expect(kvr_test_alive(pid), "the writer was still writing during the reads");
    kvr_test_stop(pid, SIGKILL, 1000);
    cr_expect_eq(a.wrong, 0, "saw %ld wrong holders", a.wrong);
    kvr_residency_reader_close(&r);
    shm_unlink(name);
}
