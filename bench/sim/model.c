/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine model: scheduling (as vLLM v1 does it: running requests first,
 * decode tokens counted in the budget, waiting requests admitted in FIFO
 * order while slots, budget and KV blocks last), step timing, preemption.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sim/model.h"
#include "common/xmalloc.h"

void kvr_sim_params_defaults(kvr_sim_params_t *p)
{
    p->max_running = 64;
    p->prefill_budget = 8192;
    p->prefill_tokens_per_s = 10000.0;
    p->step_base_ms = 12.0;
    p->step_per_seq_ms = 0.15;
    p->kv_tokens = 250000;
    p->step_scale = 1.0;
}

int kvr_sim_model_init(kvr_sim_model_t *m, const kvr_sim_params_t *p)
{
    if (p->max_running == 0 || p->prefill_budget == 0 || p->prefill_tokens_per_s <= 0 ||
        p->step_base_ms < 0 || p->step_per_seq_ms < 0 || p->step_scale <= 0 ||
        p->kv_tokens < KVR_SIM_BLOCK_TOKENS)
        return -EINVAL;
    memset(m, 0, sizeof *m);
    m->params = *p;
    return kvr_sim_cache_init(&m->cache, p->kv_tokens / KVR_SIM_BLOCK_TOKENS);
}

void kvr_sim_model_close(kvr_sim_model_t *m)
{
    kvr_sim_cache_close(&m->cache);
}

/* ---- lists ---- */

static void list_push_tail(kvr_sim_list_t *l, kvr_sim_req_t *r)
{
    r->next = NULL;
    r->prev = l->tail;
    if (l->tail)
        l->tail->next = r;
    else
        l->head = r;
    l->tail = r;
    l->count++;
}

static void list_push_head(kvr_sim_list_t *l, kvr_sim_req_t *r)
{
    r->prev = NULL;
    r->next = l->head;
    if (l->head)
        l->head->prev = r;
    else
        l->tail = r;
    l->head = r;
    l->count++;
}

static void list_remove(kvr_sim_list_t *l, kvr_sim_req_t *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        l->head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        l->tail = r->prev;
    r->prev = r->next = NULL;
    l->count--;
}

/* ---- requests ---- */

/* Tokens whose KV must exist once this admission's prefill is done (recompute includes output). */
static uint32_t prefill_target(const kvr_sim_req_t *r)
{
    return r->prompt_tokens + r->generated;
}

static size_t blocks_for(uint64_t tokens)
{
    return (size_t)((tokens + KVR_SIM_BLOCK_TOKENS - 1) / KVR_SIM_BLOCK_TOKENS);
}

/* Counted at admission, not per call: a decode step asks it of every running request. */
static size_t blocks_held(const kvr_sim_req_t *r)
{
    return r->n_private + r->n_shared;
}

static void release(kvr_sim_model_t *m, kvr_sim_req_t *r)
{
    if (!r->held)
        return;
    kvr_sim_cache_release(&m->cache, r->held, r->n_hashes, r->n_private);
    free(r->held);
    r->held = NULL;
    r->n_private = 0;
    r->n_shared = 0;
}

/* Tries to give r its blocks; false (nothing changed) when KV cannot hold it. */
static bool admit(kvr_sim_model_t *m, kvr_sim_req_t *r)
{
    uint32_t target = prefill_target(r);
    size_t total = blocks_for((uint64_t)target + 1); /* room for the next token too */
    size_t extra = total > r->n_hashes ? total - r->n_hashes : 0;
    r->held = kvr_xcalloc(r->n_hashes ? r->n_hashes : 1, sizeof *r->held);
    int matched = kvr_sim_cache_admit(&m->cache, r->hashes, r->n_hashes, extra, r->held,
                                      &r->n_private);
    if (matched < 0) {
        free(r->held);
        r->held = NULL;
        return false;
    }
    r->n_shared = 0;
    for (size_t i = 0; i < r->n_hashes; i++)
        r->n_shared += r->held[i] != NULL;
    uint64_t hit = (uint64_t)matched * KVR_SIM_BLOCK_TOKENS;
    /* At least one token is always computed: the step needs logits to sample from. */
    if (hit >= target)
        hit = target - 1;
    uint64_t have = hit;
    if (!r->admitted_once && r->remote_kv_tokens > have)
        have = r->remote_kv_tokens >= target ? target - 1 : r->remote_kv_tokens;
    r->computed = (uint32_t)have;
    if (!r->admitted_once) {
        r->admitted_once = true;
        r->cached_tokens = (uint32_t)hit;
        m->prefix_queries_tokens += r->prompt_tokens;
        m->prefix_hits_tokens += hit;
    }
    r->state = KVR_SIM_PREFILL;
    return true;
}

/* What a queued request will find cached, as an engine matches a request when it is queued. */
static void expect_cached(const kvr_sim_model_t *m, kvr_sim_req_t *r)
{
    uint64_t hit = (uint64_t)kvr_sim_cache_match(&m->cache, r->hashes, r->n_hashes) *
                   KVR_SIM_BLOCK_TOKENS;
    uint32_t target = prefill_target(r);
    r->expected_cached = hit >= target ? target - 1 : (uint32_t)hit;
}

static void preempt(kvr_sim_model_t *m, kvr_sim_req_t *r)
{
    list_remove(&m->running, r);
    release(m, r);
    r->computed = 0;
    r->planned = 0;
    r->state = KVR_SIM_WAITING;
    r->preemptions++;
    m->preemptions++;
    expect_cached(m, r);
    /* Recompute: back to the front of the queue, as vLLM does. */
    list_push_head(&m->waiting, r);
}

void kvr_sim_model_submit(kvr_sim_model_t *m, kvr_sim_req_t *req, uint64_t now_ns)
{
    req->state = KVR_SIM_WAITING;
    req->generated = 0;
    req->computed = 0;
    req->cached_tokens = 0;
    req->planned = 0;
    req->admitted_once = false;
    req->held = NULL;
    req->n_private = 0;
    req->n_shared = 0;
    req->arrival_ns = now_ns;
    req->first_token_ns = 0;
    if (req->max_tokens == 0)
        req->max_tokens = 1;
    if (req->prompt_tokens == 0)
        req->prompt_tokens = 1;
    expect_cached(m, req);
    list_push_tail(&m->waiting, req);
}

void kvr_sim_model_cancel(kvr_sim_model_t *m, kvr_sim_req_t *req)
{
    if (req->state == KVR_SIM_WAITING)
        list_remove(&m->waiting, req);
    else if (req->state == KVR_SIM_PREFILL || req->state == KVR_SIM_DECODE)
        list_remove(&m->running, req);
    release(m, req);
    req->state = KVR_SIM_DONE;
}

/* ---- steps ---- */

/*
 * Publishes the request's full prompt blocks up to tokens as stored. vLLM
 * caches (and announces) a block when the step that computes it is
 * scheduled, not when it ends: a step's blocks are in the same event batch
 * as its plan, so a subscriber's count of held blocks keeps up with the
 * engine's KV usage. The block is a cache hit only once it is ready.
 */
static void announce(kvr_sim_model_t *m, kvr_sim_req_t *r, uint64_t tokens)
{
    if (!m->on_stored)
        return;
    size_t full = (size_t)(tokens / KVR_SIM_BLOCK_TOKENS);
    for (size_t i = 0; i < full && i < r->n_hashes; i++) {
        kvr_sim_block_t *b = r->held[i];
        if (!b || b->announced)
            continue;
        b->announced = 1;
        m->on_stored(m->stored_ctx, r->hashes[i], i ? &r->hashes[i - 1] : NULL,
                     r->block_tokens ? r->block_tokens + i * KVR_SIM_BLOCK_TOKENS : NULL);
    }
}

uint64_t kvr_sim_model_step_begin(kvr_sim_model_t *m, uint64_t now_ns)
{
    assert(!m->step_in_flight);
    const kvr_sim_params_t *p = &m->params;
    uint32_t budget = p->prefill_budget;
    uint32_t decoding = 0;
    uint64_t prefill_tokens = 0;

    kvr_sim_req_t *r = m->running.head;
    while (r && budget > 0) {
        kvr_sim_req_t *next = r->next;
        if (r->state == KVR_SIM_DECODE) {
            /* The next token needs a slot in a block; take one from the
             * youngest request if none can be freed. */
            bool preempted_self = false;
            while (blocks_for((uint64_t)prefill_target(r) + 1) > blocks_held(r)) {
                if (kvr_sim_cache_grow(&m->cache) == 0) {
                    r->n_private++;
                    continue;
                }
                kvr_sim_req_t *victim = m->running.tail;
                if (victim == next)
                    next = NULL; /* the victim was next in line; it is gone now */
                preempt(m, victim);
                if (victim == r) {
                    preempted_self = true;
                    break;
                }
            }
            if (!preempted_self) {
                r->planned = 1;
                budget--;
                decoding++;
            }
        } else {
            uint32_t left = prefill_target(r) - r->computed;
            r->planned = left < budget ? left : budget;
            budget -= r->planned;
            prefill_tokens += r->planned;
            announce(m, r, (uint64_t)r->computed + r->planned);
        }
        r = next;
    }
    /* Waiting requests only while slots, budget and blocks last: FIFO, no skipping. */
    while (m->waiting.head && budget > 0 && m->running.count < p->max_running) {
        r = m->waiting.head;
        if (!admit(m, r))
            break;
        list_remove(&m->waiting, r);
        list_push_tail(&m->running, r);
        uint32_t left = prefill_target(r) - r->computed;
        r->planned = left < budget ? left : budget;
        budget -= r->planned;
        prefill_tokens += r->planned;
        announce(m, r, (uint64_t)r->computed + r->planned);
    }
    if (m->running.count > m->peak_running)
        m->peak_running = m->running.count;
    if (decoding == 0 && prefill_tokens == 0)
        return 0;
    double ms = p->step_base_ms + p->step_per_seq_ms * decoding +
                1000.0 * (double)prefill_tokens / p->prefill_tokens_per_s;
    uint64_t ns = (uint64_t)(ms * p->step_scale * 1e6);
    if (ns == 0)
        ns = 1;
    m->step_in_flight = true;
    m->step_started_ns = now_ns;
    m->last_step_ns = ns;
    return ns;
}

static void finish(kvr_sim_model_t *m, kvr_sim_req_t *r)
{
    list_remove(&m->running, r);
    release(m, r);
    r->state = KVR_SIM_DONE;
    m->requests_finished++;
    m->prompt_tokens_total += r->prompt_tokens;
}

void kvr_sim_model_step_end(kvr_sim_model_t *m, uint64_t now_ns, kvr_sim_event_cb cb, void *arg)
{
    if (!m->step_in_flight)
        return;
    m->step_in_flight = false;
    m->steps++;
    m->busy_ns += m->last_step_ns;
    kvr_sim_req_t *r = m->running.head;
    while (r) {
        /* Saved first: the callback may cancel (and free) the request it is given. */
        kvr_sim_req_t *next = r->next;
        uint32_t planned = r->planned;
        r->planned = 0;
        if (planned == 0) {
            r = next;
            continue;
        }
        r->computed += planned;
        if (r->state == KVR_SIM_PREFILL) {
            size_t ready = r->computed / KVR_SIM_BLOCK_TOKENS;
            announce(m, r, r->computed); /* already done when the step was planned */
            for (size_t i = 0; i < ready && i < r->n_hashes; i++)
                if (r->held[i])
                    r->held[i]->ready = 1;
            if (r->computed < prefill_target(r)) {
                r = next;
                continue;
            }
            /* The step that completes the prefill samples a token. */
            r->state = KVR_SIM_DECODE;
        }
        r->generated++;
        m->generation_tokens_total++;
        if (!r->first_token_ns)
            r->first_token_ns = now_ns;
        bool done = r->generated >= r->max_tokens;
        if (done)
            finish(m, r);
        cb(r, done ? KVR_SIM_EV_FINISHED : KVR_SIM_EV_TOKEN, arg);
        r = next;
    }
}

uint64_t kvr_sim_model_kv_used_tokens(const kvr_sim_model_t *m)
{
    /* Engines count cached blocks nobody references as free (they are evictable). */
    return (uint64_t)(m->cache.used_blocks - m->cache.lru_blocks) * KVR_SIM_BLOCK_TOKENS;
}

uint64_t kvr_sim_model_kv_capacity_tokens(const kvr_sim_model_t *m)
{
    return (uint64_t)m->cache.capacity_blocks * KVR_SIM_BLOCK_TOKENS;
}

void kvr_sim_model_pending_prefill(const kvr_sim_model_t *m, uint64_t *total, uint64_t *largest)
{
    uint64_t sum = 0, max = 0;
    for (const kvr_sim_req_t *r = m->running.head; r; r = r->next) {
        if (r->state != KVR_SIM_PREFILL)
            continue;
        uint64_t left = prefill_target(r) - r->computed;
        sum += left;
        if (left > max)
            max = left;
    }
    for (const kvr_sim_req_t *r = m->waiting.head; r; r = r->next) {
        uint64_t left = prefill_target(r) - r->expected_cached;
        sum += left;
        if (left > max)
            max = left;
    }
    *total = sum;
    *largest = max;
}
