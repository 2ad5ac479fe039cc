/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The simulated engine's model without sockets: prefix-cache hits, batch
 * slots and FIFO order, chunked prefill, step times, LRU eviction and
 * preemption, determinism. Time is synthetic: each step ends exactly when
 * the model says it does.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sim/model.h"
#include "common/prefix_hash.h"

typedef struct {
    uint64_t now;
    uint64_t finished_ids[512];
    size_t nfinished;
    uint64_t tokens;
    uint32_t max_running_seen;
} driver_t;

static void on_event(kvr_sim_req_t *req, kvr_sim_event_t ev, void *arg)
{
    driver_t *d = arg;
    d->tokens++;
    if (ev == KVR_SIM_EV_FINISHED && d->nfinished < 512)
        d->finished_ids[d->nfinished++] = req->id;
}

/* Steps until idle (or max_steps); returns the steps taken. */
static int run(kvr_sim_model_t *m, driver_t *d, int max_steps)
{
    int steps = 0;
    for (; steps < max_steps; steps++) {
        uint64_t dur = kvr_sim_model_step_begin(m, d->now);
        if (m->running.count > d->max_running_seen)
            d->max_running_seen = m->running.count;
        if (dur == 0)
            break;
        d->now += dur;
        kvr_sim_model_step_end(m, d->now, on_event, d);
    }
    return steps;
}

/* A request whose prompt is prefix (repeated to prefix_bytes) then a unique tail. */
static kvr_sim_req_t *make_req(uint64_t id, char prefix_char, size_t prefix_bytes,
                               size_t tail_bytes, uint32_t max_tokens)
{
    size_t len = prefix_bytes + tail_bytes;
    char *text = malloc(len + 1);
    memset(text, prefix_char, prefix_bytes);
    for (size_t i = 0; i < tail_bytes; i++)
        text[prefix_bytes + i] = (char)('a' + (id * 7 + i) % 26);
    kvr_sim_req_t *r = calloc(1, sizeof *r);
    r->id = id;
    r->prompt_tokens = (uint32_t)(len / KVR_BYTES_PER_TOKEN);
    r->max_tokens = max_tokens;
    r->hashes = calloc(len / KVR_PREFIX_BLOCK_BYTES + 1, sizeof *r->hashes);
    r->n_hashes = kvr_prefix_hash_blocks(text, len, r->hashes, len / KVR_PREFIX_BLOCK_BYTES);
    free(text);
    return r;
}

static void free_req(kvr_sim_req_t *r)
{
    free(r->hashes);
    free(r);
}

static kvr_sim_params_t params(void)
{
    kvr_sim_params_t p;
    kvr_sim_params_defaults(&p);
    return p;
}

Test(sim_model, same_prefix_twice_hits_the_cache)
{
    kvr_sim_model_t m;
    kvr_sim_params_t p = params();
    cr_assert_eq(kvr_sim_model_init(&m, &p), 0);
    driver_t d = {0};
    kvr_sim_req_t *a = make_req(1, 'S', 4096, 100, 4);
    kvr_sim_model_submit(&m, a, d.now);
    run(&m, &d, 1000);
    cr_assert_eq(a->cached_tokens, 0, "a cold cache has nothing");
    kvr_sim_req_t *b = make_req(2, 'S', 4096, 300, 4);
    kvr_sim_model_submit(&m, b, d.now);
    run(&m, &d, 1000);
    /* The shared 4096 bytes are 64 blocks = 1024 tokens. */
    cr_assert_eq(b->cached_tokens, 1024, "cached %u, shared prefix 1024 tokens", b->cached_tokens);
    kvr_sim_req_t *c = make_req(3, 'Q', 4096, 100, 4);
    kvr_sim_model_submit(&m, c, d.now);
    run(&m, &d, 1000);
    cr_assert_eq(c->cached_tokens, 0, "a different prefix reports none");
    cr_assert_eq(m.prefix_hits_tokens, 1024);
    cr_assert_eq(m.prefix_queries_tokens, a->prompt_tokens + b->prompt_tokens + c->prompt_tokens);
    free_req(a);
    free_req(b);
    free_req(c);
    kvr_sim_model_close(&m);
}

Test(sim_model, a_fully_cached_prompt_still_computes_one_token)
{
    kvr_sim_model_t m;
    kvr_sim_params_t p = params();
    cr_assert_eq(kvr_sim_model_init(&m, &p), 0);
    driver_t d = {0};
    kvr_sim_req_t *a = make_req(1, 'S', 1024, 0, 2);
    kvr_sim_req_t *b = make_req(2, 'S', 1024, 0, 2);
    kvr_sim_model_submit(&m, a, d.now);
    run(&m, &d, 100);
    kvr_sim_model_submit(&m, b, d.now);
    run(&m, &d, 100);
    cr_assert_eq(b->cached_tokens, b->prompt_tokens - 1);
    cr_assert_eq(b->generated, 2);
    free_req(a);
    free_req(b);
    kvr_sim_model_close(&m);
}

Test(sim_model, max_running_is_never_exceeded_and_waiting_drains_in_order)
{
    kvr_sim_model_t m;
    kvr_sim_params_t p = params();
    p.max_running = 4;
    cr_assert_eq(kvr_sim_model_init(&m, &p), 0);
    driver_t d = {0};
    kvr_sim_req_t *reqs[12];
    for (int i = 0; i < 12; i++) {
        reqs[i] = make_req((uint64_t)i + 1, (char)('A' + i), 640, 0, 8);
        kvr_sim_model_submit(&m, reqs[i], d.now);
    }
    cr_assert_eq(m.waiting.count, 12);
    kvr_sim_model_step_begin(&m, d.now);
    cr_assert_eq(m.running.count, 4, "only max_running are admitted");
    cr_assert_eq(m.waiting.count, 8, "the overflow waits");
    d.now += m.last_step_ns;
    kvr_sim_model_step_end(&m, d.now, on_event, &d);
    run(&m, &d, 10000);
    cr_assert_leq(d.max_running_seen, 4);
    cr_assert_eq(m.peak_running, 4);
    cr_assert_eq(d.nfinished, 12);
    for (size_t i = 0; i < 12; i++)
        cr_assert_eq(d.finished_ids[i], i + 1, "equal work finishes in arrival order");
    for (int i = 0; i < 12; i++)
        free_req(reqs[i]);
    kvr_sim_model_close(&m);
}

Test(sim_model, step_time_follows_prefill_tokens_and_batch_size)
{
    kvr_sim_model_t m;
    kvr_sim_params_t p = params();
    cr_assert_eq(kvr_sim_model_init(&m, &p), 0);
    driver_t d = {0};
    /* 20000 prompt tokens with an 8192 budget: three chunks before the first token. */
    kvr_sim_req_t *big = make_req(1, 'B', 80000, 0, 3);
    kvr_sim_model_submit(&m, big, d.now);
    uint64_t dur = kvr_sim_model_step_begin(&m, d.now);
    /* 12 ms + 8192 tokens / 10k tokens/s = 831.2 ms */
    cr_assert_eq(dur, 831200000ull, "step %llu ns", (unsigned long long)dur);
    d.now += dur;
    kvr_sim_model_step_end(&m, d.now, on_event, &d);
    cr_assert_eq(big->generated, 0);
    uint64_t pending, largest;
    kvr_sim_model_pending_prefill(&m, &pending, &largest);
    cr_assert_eq(pending, 20000 - 8192);
    cr_assert_eq(largest, 20000 - 8192);
    dur = kvr_sim_model_step_begin(&m, d.now);
    d.now += dur;
    kvr_sim_model_step_end(&m, d.now, on_event, &d);
    cr_assert_eq(big->generated, 0);
    kvr_sim_model_step_begin(&m, d.now);
    d.now += m.last_step_ns;
    kvr_sim_model_step_end(&m, d.now, on_event, &d);
    cr_assert_eq(big->generated, 1, "the step completing the prefill samples a token");
    dur = kvr_sim_model_step_begin(&m, d.now);
    /* one decoding sequence: 12 + 0.15 ms */
    cr_assert_eq(dur, 12150000ull);
    d.now += dur;
    kvr_sim_model_step_end(&m, d.now, on_event, &d);
    run(&m, &d, 100);
    free_req(big);
    kvr_sim_model_close(&m);
}

Test(sim_model, a_queued_prompt_counts_only_its_uncached_tokens_as_pending_prefill)
{
    kvr_sim_model_t m;
    kvr_sim_params_t p = params();
    p.max_running = 1;
    cr_assert_eq(kvr_sim_model_init(&m, &p), 0);
    driver_t d = {0};
    kvr_sim_req_t *warm = make_req(1, 'S', 4096, 0, 1);
    kvr_sim_model_submit(&m, warm, d.now);
    run(&m, &d, 100);
    /* One long request holds the only slot; two queue behind it. */
    kvr_sim_req_t *busy = make_req(2, 'B', 400, 0, 1000);
    kvr_sim_model_submit(&m, busy, d.now);
    uint64_t dur = kvr_sim_model_step_begin(&m, d.now);
    d.now += dur;
    kvr_sim_model_step_end(&m, d.now, on_event, &d);
    cr_assert_eq(busy->state, KVR_SIM_DECODE);
    kvr_sim_req_t *hit = make_req(3, 'S', 4096, 400, 1);  /* 1024 tokens cached, 100 new */
    kvr_sim_req_t *cold = make_req(4, 'Q', 4096, 400, 1); /* 1124 new */
    kvr_sim_model_submit(&m, hit, d.now);
    kvr_sim_model_submit(&m, cold, d.now);
    uint64_t pending, largest;
    kvr_sim_model_pending_prefill(&m, &pending, &largest);
    cr_assert_eq(pending, 100 + 1124, "pending %llu: the cached 1024 tokens are no work",
                 (unsigned long long)pending);
    cr_assert_eq(largest, 1124);
    run(&m, &d, 5000);
    cr_assert_eq(hit->cached_tokens, 1024, "admission finds what the queue expected");
    kvr_sim_model_pending_prefill(&m, &pending, &largest);
    cr_assert_eq(pending, 0);
    free_req(warm);
    free_req(busy);
    free_req(hit);
    free_req(cold);
    kvr_sim_model_close(&m);
}

Test(sim_model, kv_pressure_evicts_least_recently_used_unreferenced_blocks)
{
    kvr_sim_model_t m;
    kvr_sim_params_t p = params();
    p.kv_tokens = 16 * 100; /* 100 blocks */
    cr_assert_eq(kvr_sim_model_init(&m, &p), 0);
    driver_t d = {0};
    /* Three prefixes of 40 blocks each, one after the other: the third needs
     * room, and the oldest (A) goes while B stays. */
    kvr_sim_req_t *a = make_req(1, 'A', 40 * 64, 0, 1);
    kvr_sim_model_submit(&m, a, d.now);
    run(&m, &d, 100);
    kvr_sim_req_t *b = make_req(2, 'B', 40 * 64, 0, 1);
    kvr_sim_model_submit(&m, b, d.now);
    run(&m, &d, 100);
    cr_assert_eq(m.cache.evictions, 0);
    cr_assert_eq(m.cache.lru_blocks, 80, "finished requests leave their blocks cached");
    cr_assert_eq(kvr_sim_model_kv_used_tokens(&m), 0, "cached, unreferenced blocks count as free");
    kvr_sim_req_t *c = make_req(3, 'C', 40 * 64, 0, 1);
    kvr_sim_model_submit(&m, c, d.now);
    run(&m, &d, 100);
    cr_assert_gt(m.cache.evictions, 0);
    kvr_sim_req_t *a2 = make_req(4, 'A', 40 * 64, 0, 1);
    kvr_sim_req_t *b2 = make_req(5, 'B', 40 * 64, 0, 1);
    cr_assert_lt(kvr_sim_cache_match(&m.cache, a2->hashes, a2->n_hashes), 40,
                 "A was evicted first");
    cr_assert_eq(kvr_sim_cache_match(&m.cache, b2->hashes, b2->n_hashes), 40, "B survived");
    kvr_sim_model_submit(&m, b2, d.now);
    run(&m, &d, 100);
    cr_assert_eq(b2->cached_tokens, 40 * 16 - 1);
    free_req(a);
    free_req(b);
    free_req(c);
    free_req(a2);
    free_req(b2);
    kvr_sim_model_close(&m);
}

Test(sim_model, preempts_when_nothing_can_be_evicted)
{
    kvr_sim_model_t m;
    kvr_sim_params_t p = params();
    p.kv_tokens = 16 * 20; /* 20 blocks */
    cr_assert_eq(kvr_sim_model_init(&m, &p), 0);
    driver_t d = {0};
    /* Two requests of 4 prompt blocks (64 tokens) each that want 100 tokens
     * of output: 11 blocks each, together more than 20, so the younger is
     * preempted and recomputed, and both still finish. */
    kvr_sim_req_t *a = make_req(1, 'A', 4 * 64, 0, 100);
    kvr_sim_req_t *b = make_req(2, 'B', 4 * 64, 0, 100);
    kvr_sim_model_submit(&m, a, d.now);
    kvr_sim_model_submit(&m, b, d.now);
    run(&m, &d, 10000);
    cr_assert_gt(m.preemptions, 0);
    cr_assert_eq(b->preemptions, m.preemptions, "the youngest request is the victim");
    cr_assert_eq(a->preemptions, 0);
    cr_assert_eq(a->generated, 100);
    cr_assert_eq(b->generated, 100);
    cr_assert_eq(d.nfinished, 2);
    cr_assert_eq(m.cache.private_blocks, 0, "everything released");
    free_req(a);
    free_req(b);
    kvr_sim_model_close(&m);
}

Test(sim_model, cancel_releases_blocks)
{
    kvr_sim_model_t m;
    kvr_sim_params_t p = params();
    cr_assert_eq(kvr_sim_model_init(&m, &p), 0);
    driver_t d = {0};
    kvr_sim_req_t *a = make_req(1, 'A', 64 * 10, 0, 1000);
    kvr_sim_req_t *w = make_req(2, 'W', 64, 0, 10);
    kvr_sim_model_submit(&m, a, d.now);
    kvr_sim_model_step_begin(&m, d.now);
    kvr_sim_model_submit(&m, w, d.now);
    cr_assert_gt(m.cache.used_blocks, 0);
    kvr_sim_model_cancel(&m, a); /* mid-step: the step's end must not touch it */
    kvr_sim_model_cancel(&m, w); /* still waiting */
    d.now += m.last_step_ns;
    kvr_sim_model_step_end(&m, d.now, on_event, &d);
    cr_assert_eq(d.tokens, 0);
    cr_assert_eq(m.running.count + m.waiting.count, 0);
    cr_assert_eq(m.cache.used_blocks, 0, "unready blocks of a cancelled prefill are dropped");
    free_req(a);
    free_req(w);
    kvr_sim_model_close(&m);
}

Test(sim_model, same_inputs_same_schedule)
{
    uint64_t end[2], tokens[2];
    for (int run_i = 0; run_i < 2; run_i++) {
        kvr_sim_model_t m;
        kvr_sim_params_t p = params();
        p.max_running = 8;
        p.kv_tokens = 16 * 400;
        cr_assert_eq(kvr_sim_model_init(&m, &p), 0);
        driver_t d = {0};
        kvr_sim_req_t *reqs[40];
        for (int i = 0; i < 40; i++) {
            reqs[i] = make_req((uint64_t)i, (char)('A' + i % 5), 64 * (size_t)(5 + i % 7), 37,
                               20 + i);
            kvr_sim_model_submit(&m, reqs[i], d.now);
        }
        run(&m, &d, 100000);
        end[run_i] = d.now;
        tokens[run_i] = d.tokens;
        for (int i = 0; i < 40; i++)
            free_req(reqs[i]);
        kvr_sim_model_close(&m);
    }
    cr_assert_eq(end[0], end[1]);
    cr_assert_eq(tokens[0], tokens[1]);
}
