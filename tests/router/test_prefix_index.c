/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <errno.h>

#include "router/prefix_index.h"
#include "test_policy_fixture.h"

#define S (KVR_NS_PER_SEC)
#define TPB KVR_PREFIX_INDEX_TOKENS_PER_BLOCK

static kvr_engine_view_t views[4];
static uint32_t match[4];
static uint64_t placed[4];

static void setup_views(void)
{
    for (uint32_t i = 0; i < 4; i++)
        views[i] = fx_view(i, 0);
}

/* A chain of n hashes from a seed, sharing the first `shared` with seed 0's chain. */
static void chain(uint64_t *out, size_t n, uint64_t seed, size_t shared)
{
    for (size_t i = 0; i < n; i++)
        out[i] = i < shared ? 1000 + i : seed * 100000 + i;
}

static kvr_prefix_index_t *make(uint64_t tokens, uint64_t ttl, uint64_t max_entries)
{
    kvr_prefix_index_t *idx = NULL;
    cr_assert_eq(kvr_prefix_index_create(tokens, ttl, max_entries, &idx), 0);
    return idx;
}

Test(prefix_index, create_rejects_nonsense, .timeout = 5.)
{
    kvr_prefix_index_t *idx = NULL;
    cr_expect_eq(kvr_prefix_index_create(1 << 20, 0, 0, &idx), -EINVAL);
    cr_expect_eq(kvr_prefix_index_create(1, 0, 100, &idx), -EINVAL);
}

Test(prefix_index, one_walk_gives_every_engine_its_depth, .init = setup_views, .timeout = 5.)
{
    kvr_prefix_index_t *idx = make(1 << 20, 0, 1 << 12);
    uint64_t a[10], b[10], req[12];
    chain(a, 10, 0, 10);
    chain(b, 10, 7, 4); /* shares 4 blocks with a */
    kvr_prefix_index_insert(idx, a, 10, 0, 1 * S);
    kvr_prefix_index_insert(idx, a, 6, 1, 1 * S);
    kvr_prefix_index_insert(idx, b, 10, 2, 1 * S);
    chain(req, 12, 0, 12); /* a plus two new blocks */
    uint32_t best = kvr_prefix_index_match(idx, req, 12, 2 * S, views, 4, match, placed);
    cr_expect_eq(best, 10);
    cr_expect_eq(match[0], 10);
    cr_expect_eq(match[1], 6);
    cr_expect_eq(match[2], 4, "diverging chain matches up to the divergence");
    cr_expect_eq(match[3], 0);
    cr_expect_eq(placed[0], 1 * S);
    cr_expect_eq(placed[3], 0);
    kvr_prefix_index_stats_t st;
    kvr_prefix_index_stats(idx, &st);
    cr_expect_eq(st.blocks, 16, "10 of a + 6 of b beyond the shared 4");
    cr_expect_eq(st.entries, 26);
    kvr_prefix_index_destroy(idx);
}

Test(prefix_index, views_missing_from_the_walk_match_nothing, .init = setup_views, .timeout = 5.)
{
    kvr_prefix_index_t *idx = make(1 << 20, 0, 1 << 12);
    uint64_t a[4];
    chain(a, 4, 0, 4);
    kvr_prefix_index_insert(idx, a, 4, 3, 1 * S);
    cr_expect_eq(kvr_prefix_index_match(idx, a, 4, 1 * S, views, 3, match, NULL), 0,
                 "engine 3 is not a candidate");
    cr_expect_eq(kvr_prefix_index_match(idx, a, 4, 1 * S, &views[3], 1, match, NULL), 4);
    kvr_prefix_index_destroy(idx);
}

Test(prefix_index, budget_trims_least_recent_blocks_first, .init = setup_views, .timeout = 5.)
{
    /* Ten blocks of budget on every engine. */
    kvr_prefix_index_t *idx = make(10 * TPB, 0, 1 << 12);
    uint64_t a[6], b[6];
    chain(a, 6, 1, 0);
    chain(b, 6, 2, 0);
    kvr_prefix_index_insert(idx, a, 6, 0, 1 * S);
    kvr_prefix_index_insert(idx, b, 6, 0, 2 * S);
    cr_expect_eq(kvr_prefix_index_engine_tokens(idx, 0), 10 * TPB);
    /* The older prompt loses its tail, never its head: it still matches 4 blocks. */
    cr_expect_eq(kvr_prefix_index_match(idx, a, 6, 3 * S, views, 1, match, NULL), 4);
    cr_expect_eq(kvr_prefix_index_match(idx, b, 6, 3 * S, views, 1, match, NULL), 6);
    /* Touching a makes it recent: b is trimmed next. */
    kvr_prefix_index_insert(idx, a, 6, 0, 4 * S);
    cr_expect_eq(kvr_prefix_index_match(idx, a, 6, 5 * S, views, 1, match, NULL), 6);
    cr_expect_eq(kvr_prefix_index_match(idx, b, 6, 5 * S, views, 1, match, NULL), 4);
    kvr_prefix_index_stats_t st;
    kvr_prefix_index_stats(idx, &st);
    cr_expect_eq(st.evicted_budget, 4);
    kvr_prefix_index_destroy(idx);
}

Test(prefix_index, budget_learned_from_the_feed, .init = setup_views, .timeout = 5.)
{
    kvr_prefix_index_t *idx = make(1 << 20, 0, 1 << 12);
    uint64_t a[20];
    chain(a, 20, 1, 0);
    kvr_prefix_index_insert(idx, a, 20, 0, 1 * S);
    views[0].kv_capacity_tokens = 8 * TPB;
    kvr_prefix_index_learn(idx, views, 4);
    cr_expect_eq(kvr_prefix_index_engine_tokens(idx, 0), 8 * TPB);
    cr_expect_eq(kvr_prefix_index_match(idx, a, 20, 1 * S, views, 1, match, NULL), 8);
    kvr_prefix_index_destroy(idx);
}

/* The one-pass form a policy runs learns a new capacity before it matches, as learn then match do. */
Test(prefix_index, learn_match_applies_a_new_capacity_before_matching, .init = setup_views,
     .timeout = 5.)
{
    kvr_prefix_index_t *idx = make(1 << 20, 0, 1 << 12);
    uint64_t a[20];
    chain(a, 20, 1, 0);
    kvr_prefix_index_insert(idx, a, 20, 0, 1 * S);
    cr_expect_eq(kvr_prefix_index_learn_match(idx, a, 20, 1 * S, views, 4, match, NULL), 20);
    views[0].kv_capacity_tokens = 8 * TPB;
    cr_expect_eq(kvr_prefix_index_learn_match(idx, a, 20, 1 * S, views, 4, match, placed), 8);
    cr_expect_eq(match[0], 8);
    cr_expect_eq(placed[0], 1 * S);
    cr_expect_eq(kvr_prefix_index_engine_tokens(idx, 0), 8 * TPB);
    cr_expect_eq(kvr_prefix_index_learn_match(idx, a, 20, 1 * S, views, 4, match, NULL), 8,
                 "learnt once");
    kvr_prefix_index_destroy(idx);
}

Test(prefix_index, ttl_hides_then_drops_old_entries, .init = setup_views, .timeout = 5.)
{
    kvr_prefix_index_t *idx = make(1 << 20, 10 * S, 1 << 12);
    uint64_t a[5], b[5];
    chain(a, 5, 1, 0);
    chain(b, 5, 2, 0);
    kvr_prefix_index_insert(idx, a, 5, 0, 1 * S);
    cr_expect_eq(kvr_prefix_index_match(idx, a, 5, 11 * S, views, 1, match, NULL), 5,
                 "exactly at TTL");
    cr_expect_eq(kvr_prefix_index_match(idx, a, 5, 12 * S, views, 1, match, NULL), 0);
    kvr_prefix_index_insert(idx, b, 5, 1, 12 * S);
    kvr_prefix_index_stats_t st;
    kvr_prefix_index_stats(idx, &st);
    cr_expect_eq(st.expired, 5);
    cr_expect_eq(st.entries, 5);
    cr_expect_eq(kvr_prefix_index_engine_tokens(idx, 0), 0);
    kvr_prefix_index_destroy(idx);
}

Test(prefix_index, fleet_cap_bounds_entries, .init = setup_views, .timeout = 5.)
{
    kvr_prefix_index_t *idx = make(1 << 20, 0, 16);
    uint64_t a[64];
    for (uint32_t round = 0; round < 36; round++) {
        chain(a, 64, round + 1, 0);
        kvr_prefix_index_insert(idx, a, 1 + round % 12, round % 4, (round + 1) * S);
        kvr_prefix_index_stats_t st;
        kvr_prefix_index_stats(idx, &st);
        cr_assert_leq(st.entries, 16);
        cr_assert_leq(st.blocks, st.entries);
    }
    /* The latest prompt (12 blocks) is whole; earlier ones went oldest first. */
    chain(a, 64, 36, 0);
    cr_expect_eq(kvr_prefix_index_match(idx, a, 64, 50 * S, views, 4, match, NULL), 12);
    kvr_prefix_index_stats_t st;
    kvr_prefix_index_stats(idx, &st);
    cr_expect_gt(st.evicted_global, 0);
    kvr_prefix_index_destroy(idx);
}

Test(prefix_index, removed_engine_is_forgotten, .init = setup_views, .timeout = 5.)
{
    kvr_prefix_index_t *idx = make(1 << 20, 0, 1 << 12);
    uint64_t a[8];
    chain(a, 8, 0, 8);
    kvr_prefix_index_insert(idx, a, 8, 0, 1 * S);
    kvr_prefix_index_insert(idx, a, 8, 1, 1 * S);
    kvr_prefix_index_remove_engine(idx, 0);
    kvr_prefix_index_match(idx, a, 8, 1 * S, views, 4, match, NULL);
    cr_expect_eq(match[0], 0);
    cr_expect_eq(match[1], 8);
    kvr_prefix_index_stats_t st;
    kvr_prefix_index_stats(idx, &st);
    cr_expect_eq(st.entries, 8);
    cr_expect_eq(st.blocks, 8);
    kvr_prefix_index_destroy(idx);
}

/* Churn through many prompts on many engines and check the table against a recount. */
/* max_entries 300 stays under the budgets' sum; 100 forces fleet-wide evictions; 30 records in one pass. */
static void churn(uint64_t max_entries)
{
    kvr_prefix_index_t *idx = make(64 * TPB, 50 * S, max_entries);
    uint64_t a[40];
    uint64_t rng = 7;
    for (uint32_t round = 0; round < 5000; round++) {
        uint64_t r = (rng = rng * 6364136223846793005ull + 1442695040888963407ull) >> 33;
        chain(a, 40, 1 + r % 50, r % 7 == 0 ? 20 : 0);
        size_t n = 1 + r % 40;
        uint64_t now = round * (S / 10);
        switch (r % 13) {
        case 0: kvr_prefix_index_remove_engine(idx, (uint32_t)(r % 4)); break;
        case 1: kvr_prefix_index_set_budget(idx, (uint32_t)(r % 4), (r % 3) * 20 * TPB); break;
        case 2:
        case 3:
        case 4: {
            uint32_t best = kvr_prefix_index_match(idx, a, n, now, views, 4, match, placed);
            for (int v = 0; v < 4; v++) {
                cr_assert_leq(match[v], n);
                cr_assert_leq(match[v], best);
                cr_assert_leq(placed[v], now);
            }
            break;
        }
        default:
            kvr_prefix_index_insert(idx, a, n, (uint32_t)(r % 4), now);
            cr_assert_eq(kvr_prefix_index_match(idx, a, n, now, &views[r % 4], 1, match, NULL) > 0,
                         true, "a prompt just recorded matches at least its head");
        }
    }
    kvr_prefix_index_stats_t st;
    kvr_prefix_index_stats(idx, &st);
    uint64_t tokens = 0;
    for (uint32_t e = 0; e < 4; e++) {
        cr_expect_leq(kvr_prefix_index_engine_tokens(idx, e), 64 * TPB,
                      "budgets never exceed the default");
        tokens += kvr_prefix_index_engine_tokens(idx, e);
    }
    cr_expect_eq(tokens, st.entries * TPB);
    cr_expect_leq(st.entries, max_entries);
    for (uint32_t e = 0; e < 4; e++)
        kvr_prefix_index_remove_engine(idx, e);
    kvr_prefix_index_stats(idx, &st);
    cr_expect_eq(st.entries, 0);
    cr_expect_eq(st.blocks, 0);
    kvr_prefix_index_destroy(idx);
}

Test(prefix_index, churn_keeps_counts_consistent, .init = setup_views, .timeout = 10.)
{
    churn(300);
}

Test(prefix_index, churn_under_fleet_cap, .init = setup_views, .timeout = 10.)
{
    churn(100);
    churn(30);
}

Test(prefix_index, shared_head_on_every_engine_then_one_owner, .timeout = 5.)
{
    kvr_engine_view_t v[8];
    for (uint32_t i = 0; i < 8; i++)
        v[i] = fx_view(i, 0);
    kvr_prefix_index_t *idx = make(1 << 20, 0, 1 << 12);
    /* Every engine served the 6-block system prompt with its own question after it. */
    uint64_t p[20];
    for (uint32_t e = 0; e < 8; e++) {
        chain(p, 20, 10 + e, 6);
        kvr_prefix_index_insert(idx, p, 10 + e, e, 1 * S);
    }
    uint32_t m[8];
    uint64_t placed8[8];
    chain(p, 16, 13, 6); /* engine 3's conversation, one block longer */
    cr_expect_eq(kvr_prefix_index_match(idx, p, 16, 2 * S, v, 8, m, placed8), 13);
    for (uint32_t e = 0; e < 8; e++) {
        cr_expect_eq(m[e], e == 3 ? 13 : 6, "engine %u", e);
        cr_expect_eq(placed8[e], 1 * S);
    }
    /* A request with only the system prompt and a new question. */
    chain(p, 16, 99, 6);
    cr_expect_eq(kvr_prefix_index_match(idx, p, 16, 2 * S, v, 8, m, NULL), 6);
    for (uint32_t e = 0; e < 8; e++)
        cr_expect_eq(m[e], 6);
    /* Engines lose the system prompt's tail at different depths: 2 keeps 3 blocks, 5 keeps 1. */
    kvr_prefix_index_set_budget(idx, 2, 3 * TPB);
    kvr_prefix_index_set_budget(idx, 5, 1 * TPB);
    kvr_prefix_index_match(idx, p, 16, 2 * S, v, 8, m, NULL);
    for (uint32_t e = 0; e < 8; e++)
        cr_expect_eq(m[e], e == 2 ? 3 : e == 5 ? 1 : 6, "engine %u after trimming", e);
    kvr_prefix_index_destroy(idx);
}

/* 64 engines holding 64 different depths of one 512-block prompt: every drop is found, wherever it is. */
Test(prefix_index, a_walk_finds_every_depth_of_a_long_prompt, .timeout = 5.)
{
    enum { N = 64, BLOCKS = 512 };
    kvr_prefix_index_t *idx = make(1 << 24, 0, 1 << 16);
    static uint64_t prompt[BLOCKS];
    static kvr_engine_view_t many[N];
    static uint32_t depth[N], got[N];
    chain(prompt, BLOCKS, 0, BLOCKS);
    for (uint32_t e = 0; e < N; e++) {
        many[e] = fx_view(e, 0);
        /* Depths all over the prompt: none, one block, neighbours, the whole prompt. */
        depth[e] = e == 0 ? 0 : e == 1 ? 1 : e == 2 ? BLOCKS : (e * 97u + e * e * 13u) % BLOCKS;
        if (depth[e] > 0)
            kvr_prefix_index_insert(idx, prompt, depth[e], e, 1 * S);
    }
    depth[3] = depth[4]; /* two engines at one depth */
    kvr_prefix_index_remove_engine(idx, 3);
    kvr_prefix_index_insert(idx, prompt, depth[3], 3, 1 * S);
    for (size_t n = 1; n <= BLOCKS; n = n * 3 + 1) {
        uint32_t best = kvr_prefix_index_match(idx, prompt, n, 2 * S, many, N, got, NULL);
        uint32_t want_best = 0;
        for (uint32_t e = 0; e < N; e++) {
            uint32_t want = depth[e] < n ? depth[e] : (uint32_t)n;
            cr_expect_eq(got[e], want, "engine %u holds %u blocks, asked %zu: got %u", e, depth[e],
                         n, got[e]);
            if (want > want_best)
                want_best = want;
        }
        cr_expect_eq(best, want_best);
    }
    kvr_prefix_index_destroy(idx);
}
