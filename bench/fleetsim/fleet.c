/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The discrete-event core of kvroute-fleetsim: one heap of events ordered by
 * (virtual time, insertion order), so ties resolve the same way every run.
 *
 * A request's path, each arrow one network hop (--net-latency-ms):
 *   send -> route (router decides, charges) -> engine receives (model submit)
 *   engine's response head -> router: first byte (the prefill charge ends)
 *   first token -> (router ->) client sees it
 *   last token  -> router ends the request   -> client sees the end
 * A refused request (429, 503) goes back to the client from the router.
 */
#include "bench/fleetsim/fleetsim.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/fleetsim/cache_events.h"
#include "common/clock.h"
#include "common/prefix_hash.h"
#include "common/xmalloc.h"

/* Virtual time starts here, not at 0 (0 means "never" in the router and the segment). */
#define FLEET_EPOCH_NS KVR_NS_PER_SEC
/* The feed runs this long before the first request, as a deployment's feed is up before traffic. */
#define FLEET_LEAD_NS KVR_NS_PER_SEC
#define FLEET_PROGRESS_EVERY 65536
/* One read of the router's HTTP server (common/http_internal.h: read_slab). */
#define FLEET_READ_BYTES 65536u
/* A replayed body beyond its prompt text: headers, model, max_tokens, stream options. */
#define FLEET_BODY_OVERHEAD 512u

typedef enum {
    EV_SEND = 1,
    EV_ROUTE,
    EV_ENGINE_RECV,
    EV_STEP_END,
    EV_ROUTER_FIRST_BYTE,
    EV_ROUTER_FIRST_TOKEN,
    EV_ROUTER_END,
    EV_CLIENT_DONE,
    EV_FEED_TICK,
    EV_FEED_PUBLISH,
    EV_PD_HANDOFF, /* a prefill engine's answer reached the router: the decode phase */
} fleet_event_kind_t;

typedef struct fleet_event_s {
    uint64_t t;
    uint64_t seq;
    uint32_t kind;
    uint32_t a;
    uint64_t b;
    void *p;
} fleet_event_t;

typedef struct fleet_rank_s {
    kvr_sim_model_t model;
    bool step_scheduled;
} fleet_rank_t;

typedef struct fleet_engine_s {
    uint32_t index;
    char url[64];
    char target[96];
    kvr_fleet_engine_cfg_t cfg;
    fleet_rank_t ranks[KVR_FLEET_MAX_DP];
    uint32_t next_rank;
    kvr_rng_t step_rng, feed_rng;
    int slot;
    uint32_t n_ranks; /* ranks initialised */
    uint32_t running, peak_running;
    uint64_t received;
} fleet_engine_t;

typedef struct fleet_req_s {
    kvr_sim_req_t mreq;
    kvr_fleet_route_t route;
    uint32_t router;
    int engine;  /* serving engine, -1 before */
    int rank;    /* its rank, -1 before the engine received the request */
    bool direct; /* a forced first turn: straight to the engine */
    bool hashed; /* mreq.hashes made (kept until the session's next turn made its own) */
    bool done;
    uint32_t tries_429; /* 429s answered and sent again */
    uint64_t engine_first_token_ns;
    kvr_fleet_pd_req_t pd; /* disaggregated phases (disagg.h) */
    char request_id[96];
    kvr_fleet_prompt_t tok; /* --tokenizer: the prompt in the model's tokens */
} fleet_req_t;

struct kvr_fleet_s {
    kvr_fleet_config_t cfg;
    const kvr_trace_t *trace;
    kvr_fleet_router_t *routers[KVR_FLEET_MAX_ROUTERS];
    char router_targets[KVR_FLEET_MAX_ROUTERS][48];
    fleet_engine_t *engines;
    fleet_req_t *reqs;
    kvr_replay_result_t *results;
    size_t n_selected;
    size_t *prev_in_session; /* SIZE_MAX for a session's first request */
    size_t *next_in_session; /* SIZE_MAX for its last */
    FILE *records;

    fleet_event_t *heap;
    size_t heap_len, heap_cap;
    uint64_t seq;
    uint64_t now;
    uint64_t start_ns; /* virtual time of the trace's first timestamp */
    uint64_t hop_ns;

    bool feed;
    FILE *feed_log;
    bool shm_open;
    kvr_shm_t shm;
    char shm_name[128];
    kvr_fleet_cache_events_t *cache_events; /* --kv-events: NULL when off */

    char *text;
    size_t text_cap;

    size_t sent, done, refused, outstanding;
    uint64_t answers_429;
    uint32_t fleet_running, fleet_peak_running;
    uint64_t events, feed_samples, feed_publishes;
    uint64_t first_send_ns, last_end_ns;
    uint64_t wall_start_ns, wall_ns, next_progress_wall_ns;
    uint64_t cpu_start_ns, cpu_ns;
};

/* Set by SIGINT/SIGTERM: the run stops at the next event, the segment is still unlinked. */
static volatile sig_atomic_t fleet_interrupted;

static uint64_t cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * KVR_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

static void on_signal(int sig)
{
    (void)sig;
    fleet_interrupted = 1;
}

void kvr_fleet_engine_url(uint32_t index, char *out, size_t len)
{
    snprintf(out, len, "http://127.0.0.1:%u", 20000u + index);
}

void kvr_fleet_config_defaults(kvr_fleet_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->n_engines = 4;
    cfg->dp = 1;
    for (uint32_t i = 0; i < KVR_FLEET_MAX_ENGINES; i++) {
        kvr_sim_params_defaults(&cfg->engines[i].params);
        cfg->engines[i].feed.source = KVR_SOURCE_LOADS;
        cfg->engines[i].feed.latency_ms = 2.0;
        cfg->engines[i].feed.jitter_ms = 1.0;
        cfg->engines[i].feed.stall = (kvr_fleet_window_t){-1, -1};
        cfg->engines[i].feed.lie = (kvr_fleet_window_t){-1, -1};
    }
    cfg->writer_stall = (kvr_fleet_window_t){-1, -1};
    cfg->n_routers = 1;
    cfg->feed_period_ms = 50;
    cfg->kv_events_delay_ms = 50;
    cfg->net_latency_ms = 0.1;
    cfg->read_round_ms = 0.5;
    cfg->rate = 1.0;
    cfg->block_size = 512;
    cfg->first_turn_engine = -1;
    cfg->retry_429_max = 20;
    kvr_fleet_disagg_defaults(&cfg->disagg);
    cfg->seed = 1;
    cfg->run_id = "fleetsim";
}

/* ---- the event heap ---- */

static bool before(const fleet_event_t *x, const fleet_event_t *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static void push(kvr_fleet_t *f, uint64_t t, uint32_t kind, uint32_t a, uint64_t b, void *p)
{
    if (f->heap_len == f->heap_cap) {
        f->heap_cap = f->heap_cap ? f->heap_cap * 2 : 4096;
        f->heap = kvr_xrealloc(f->heap, f->heap_cap * sizeof *f->heap);
    }
    fleet_event_t ev = {t, f->seq++, kind, a, b, p};
    size_t i = f->heap_len++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&ev, &f->heap[parent]))
            break;
        f->heap[i] = f->heap[parent];
        i = parent;
    }
    f->heap[i] = ev;
}

static fleet_event_t pop(kvr_fleet_t *f)
{
    fleet_event_t top = f->heap[0], last = f->heap[--f->heap_len];
    size_t i = 0, n = f->heap_len;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const fleet_event_t *best = &last;
        if (l < n && before(&f->heap[l], best)) {
            m = l;
            best = &f->heap[l];
        }
        if (r < n && before(&f->heap[r], best))
            m = r;
        if (m == i)
            break;
        f->heap[i] = f->heap[m];
        i = m;
    }
    if (n)
        f->heap[i] = last;
    return top;
}

static uint64_t ms_to_ns(double ms)
{
    return ms > 0 ? (uint64_t)llround(ms * 1e6) : 0;
}

static bool in_window(const kvr_fleet_t *f, const kvr_fleet_window_t *w)
{
    if (w->to_s <= w->from_s)
        return false;
    double s = (double)(f->now - f->start_ns) / 1e9;
    return f->now >= f->start_ns && s >= w->from_s && s < w->to_s;
}

/* ---- engines ---- */

static void model_event(kvr_sim_req_t *mreq, kvr_sim_event_t ev, void *arg);

static void rank_kick(kvr_fleet_t *f, fleet_engine_t *e, uint32_t r)
{
    fleet_rank_t *rank = &e->ranks[r];
    if (rank->step_scheduled || rank->model.step_in_flight)
        return;
    uint32_t before_running = rank->model.running.count;
    uint64_t ns = kvr_sim_model_step_begin(&rank->model, f->now);
    uint32_t after_running = rank->model.running.count;
    e->running += after_running - before_running;
    f->fleet_running += after_running - before_running;
    if (e->running > e->peak_running)
        e->peak_running = e->running;
    if (f->fleet_running > f->fleet_peak_running)
        f->fleet_peak_running = f->fleet_running;
    if (ns == 0)
        return;
    if (f->cfg.step_jitter > 0) {
        double u = 2.0 * kvr_rng_uniform(&e->step_rng) - 1.0;
        double scaled = (double)ns * (1.0 + f->cfg.step_jitter * u);
        ns = scaled < 1.0 ? 1 : (uint64_t)scaled;
        rank->model.last_step_ns = ns;
    }
    rank->step_scheduled = true;
    push(f, f->now + ns, EV_STEP_END, e->index, r, NULL);
}

static void step_end(kvr_fleet_t *f, fleet_engine_t *e, uint32_t r)
{
    fleet_rank_t *rank = &e->ranks[r];
    rank->step_scheduled = false;
    uint32_t before_running = rank->model.running.count;
    kvr_sim_model_step_end(&rank->model, f->now, model_event, f);
    uint32_t gone = before_running - rank->model.running.count;
    e->running -= gone;
    f->fleet_running -= gone;
    rank_kick(f, e, r);
}

static void model_event(kvr_sim_req_t *mreq, kvr_sim_event_t ev, void *arg)
{
    kvr_fleet_t *f = arg;
    fleet_req_t *q = mreq->owner;
    size_t i = (size_t)(q - f->reqs);
    bool prefill = q->pd.phase == KVR_FLEET_PD_PREFILL; /* its one token is not the client's */
    if (mreq->generated == 1 && !prefill) {
        q->engine_first_token_ns = f->now;
        if (!q->direct && f->cfg.head_at_first_token)
            push(f, f->now + f->hop_ns, EV_ROUTER_FIRST_BYTE, (uint32_t)i, 0, NULL);
        if (!q->direct)
            push(f, f->now + f->hop_ns, EV_ROUTER_FIRST_TOKEN, (uint32_t)i, 0, NULL);
    }
    if (!q->direct)
        kvr_fleet_router_progress(&q->route, mreq->generated);
    if (ev == KVR_SIM_EV_FINISHED)
        push(f, f->now + f->hop_ns,
             prefill     ? EV_PD_HANDOFF
             : q->direct ? EV_CLIENT_DONE
                         : EV_ROUTER_END,
             (uint32_t)i, 0, NULL);
}

/* ---- requests ---- */

/*
 * The prompt's block hashes, as the router and the engine compute them from
 * the text the replayer would send. A later turn of a session repeats the
 * turn before it up to their first differing hash id: those blocks' hashes
 * are copied and only the rest of the text is made (most of a long
 * conversation's cost otherwise).
 */
static void make_hashes(kvr_fleet_t *f, size_t i)
{
    const kvr_trace_request_t *tr = &f->trace->requests[i];
    fleet_req_t *q = &f->reqs[i];
    uint32_t bs = f->cfg.block_size;
    size_t len = kvr_trace_text_len(tr);
    size_t max_blocks = len / KVR_PREFIX_BLOCK_BYTES;
    q->mreq.hashes = kvr_xmalloc((max_blocks ? max_blocks : 1) * sizeof *q->mreq.hashes);
    size_t reused = 0;
    uint32_t from_token = 0;
    size_t p = f->prev_in_session[i];
    if (p != SIZE_MAX && f->reqs[p].mreq.hashes && !f->cfg.tokens &&
        ((uint64_t)bs * KVR_BYTES_PER_TOKEN) % KVR_PREFIX_BLOCK_BYTES == 0) {
        const kvr_trace_request_t *pt = &f->trace->requests[p];
        size_t limit = tr->n_hash_ids < pt->n_hash_ids ? tr->n_hash_ids : pt->n_hash_ids;
        if (limit > tr->input_length / bs)
            limit = tr->input_length / bs;
        if (limit > pt->input_length / bs)
            limit = pt->input_length / bs;
        size_t c = 0;
        while (c < limit && tr->hash_ids[c] == pt->hash_ids[c])
            c++;
        reused = c * bs * KVR_BYTES_PER_TOKEN / KVR_PREFIX_BLOCK_BYTES;
        if (reused > f->reqs[p].mreq.n_hashes)
            reused = f->reqs[p].mreq.n_hashes;
        from_token = (uint32_t)(reused * KVR_PREFIX_BLOCK_BYTES / KVR_BYTES_PER_TOKEN);
        memcpy(q->mreq.hashes, f->reqs[p].mreq.hashes, reused * sizeof *q->mreq.hashes);
    }
    size_t tail = len - (size_t)from_token * KVR_BYTES_PER_TOKEN;
    if (tail + 1 > f->text_cap) {
        f->text_cap = tail + 1;
        f->text = kvr_xrealloc(f->text, f->text_cap);
    }
    kvr_trace_text_from(tr, bs, i, from_token, f->text);
    kvr_prefix_hasher_t h;
    kvr_prefix_hasher_init(&h);
    if (reused)
        h.chain = q->mreq.hashes[reused - 1]; /* the chain goes on from the last shared block */
    kvr_prefix_hasher_feed(&h, f->text, tail, q->mreq.hashes + reused, max_blocks - reused);
    q->mreq.n_hashes = reused + (h.blocks < max_blocks - reused ? h.blocks : max_blocks - reused);
    q->hashed = true;
    if (p != SIZE_MAX && f->reqs[p].done) {
        free(f->reqs[p].mreq.hashes);
        f->reqs[p].mreq.hashes = NULL;
    }
}

/*
 * The client's hop to the router with the request body: the HTTP server reads
 * at most one buffer (FLEET_READ_BYTES, the router's read slab) per
 * connection per loop turn, so of the bodies sent together the ones that fit
 * one read are parsed and routed a turn before those that need two, whatever
 * their send order: kvroute-replay sends a same-millisecond group in trace
 * order and the router routes its short prompts first.
 */
static uint64_t body_hop_ns(const kvr_fleet_t *f, size_t i)
{
    uint64_t bytes = kvr_trace_text_len(&f->trace->requests[i]) + FLEET_BODY_OVERHEAD;
    uint64_t rounds = (bytes - 1) / FLEET_READ_BYTES;
    return f->hop_ns + rounds * ms_to_ns(f->cfg.read_round_ms);
}

static void on_send(kvr_fleet_t *f, size_t i)
{
    fleet_req_t *q = &f->reqs[i];
    kvr_replay_result_t *res = &f->results[i];
    res->sent = true;
    kvr_fleet_disagg_start(&f->cfg.disagg, &q->pd);
    if (q->direct)
        q->pd.phase = KVR_FLEET_PD_NONE; /* past the routers: served whole */
    res->req.send_ns = f->now;
    res->send_rel_ms = (double)(f->now - f->start_ns) / 1e6;
    if (!f->first_send_ns)
        f->first_send_ns = f->now;
    f->sent++;
    push(f, f->now + body_hop_ns(f, i), q->direct ? EV_ENGINE_RECV : EV_ROUTE, (uint32_t)i, 0,
         NULL);
}

static void on_route(kvr_fleet_t *f, size_t i)
{
    const kvr_trace_request_t *tr = &f->trace->requests[i];
    fleet_req_t *q = &f->reqs[i];
    if (!q->hashed)
        make_hashes(f, i); /* a retried 429 keeps the hashes of its first try */
    size_t len = kvr_trace_text_len(tr);
    /* No policy reads the text itself, only its block hashes: it is not made whole. */
    kvr_route_request_t rq = {
        .request_id = q->request_id,
        .session_id = tr->session_id,
        .text = NULL,
        .text_len = 0,
        .block_hashes = q->mreq.hashes,
        .n_blocks = q->mreq.n_hashes,
        /* The engines' events name the blocks the engine caches, the prompt's own hashes. */
        .token_blocks = f->cache_events != NULL,
        .block_tokens = f->cache_events ? KVR_SIM_BLOCK_TOKENS : 0,
        .prompt_tokens = len / KVR_BYTES_PER_TOKEN ? (uint32_t)(len / KVR_BYTES_PER_TOKEN) : 1,
        .max_tokens = tr->output_length ? tr->output_length : 1,
        .now_ns = f->now,
        .role = (uint8_t)kvr_fleet_disagg_route_role(&q->pd),
    };
    if (f->cache_events)
        kvr_fleet_cache_events_deliver(f->cache_events);
    if (f->cfg.tokens)
        kvr_fleet_tokens_route_request(f->cfg.tokens, &q->tok, &rq);
    kvr_fleet_router_route(f->routers[q->router], &rq, &q->route);
    if (q->route.engine < 0) {
        /* Refused: the router answers at once, its one end of the request. */
        kvr_fleet_router_end(f->routers[q->router], &q->route, q->request_id, tr->session_id,
                             q->route.status, f->now);
        if (q->route.status == 429 && f->cfg.retry_429_ms > 0 &&
            q->tries_429 < f->cfg.retry_429_max) {
            /* The 429 goes back to the client, which waits and sends the same request to the router again. */
            q->tries_429++;
            f->answers_429++;
            f->results[i].retries_429 = q->tries_429;
            push(f, f->now + f->hop_ns + body_hop_ns(f, i) + ms_to_ns(f->cfg.retry_429_ms),
                 EV_ROUTE, (uint32_t)i, 0, NULL);
            return;
        }
        push(f, f->now + f->hop_ns, EV_CLIENT_DONE, (uint32_t)i, 0, NULL);
        return;
    }
    q->engine = q->route.engine;
    /* A decode engine starts once the prompt's KV has moved to it from the prefill engine. */
    uint64_t transfer = q->pd.phase == KVR_FLEET_PD_DECODE
                            ? kvr_fleet_disagg_transfer_ns(&f->cfg.disagg, q->mreq.prompt_tokens)
                            : 0;
    push(f, f->now + f->hop_ns + transfer, EV_ENGINE_RECV, (uint32_t)i, 0, NULL);
}

/* The prefill's answer is at the router: that attempt ends, and the decode phase is routed. */
static void on_pd_handoff(kvr_fleet_t *f, size_t i)
{
    fleet_req_t *q = &f->reqs[i];
    kvr_fleet_router_end(f->routers[q->router], &q->route, q->request_id,
                         f->trace->requests[i].session_id, 200, f->now);
    kvr_fleet_disagg_prefill_done(&q->pd, q->engine, q->mreq.cached_tokens);
    q->engine = -1;
    on_route(f, i);
}

static void on_engine_recv(kvr_fleet_t *f, size_t i)
{
    const kvr_trace_request_t *tr = &f->trace->requests[i];
    fleet_req_t *q = &f->reqs[i];
    if (q->direct) {
        make_hashes(f, i);
        q->engine = f->cfg.first_turn_engine;
    }
    fleet_engine_t *e = &f->engines[q->engine];
    uint32_t r = e->next_rank++ % f->cfg.dp;
    q->rank = (int)r;
    e->received++;
    q->mreq.id = i;
    q->mreq.prompt_tokens = tr->input_length ? tr->input_length : 1;
    q->mreq.max_tokens = kvr_fleet_disagg_max_tokens(&q->pd,
                                                     tr->output_length ? tr->output_length : 1);
    q->mreq.remote_kv_tokens = kvr_fleet_disagg_remote_kv(&q->pd, q->mreq.prompt_tokens);
    q->mreq.owner = q;
    kvr_fleet_tokens_engine_request(&q->tok, &q->mreq);
    kvr_sim_model_submit(&e->ranks[r].model, &q->mreq, f->now);
    /* A streaming engine answers its response head on accepting the request
     * (kvroute-sim, vLLM, SGLang), and the router counts the head as the
     * first byte: the prefill charge ends there, not at the first token. */
    if (!q->direct && !f->cfg.head_at_first_token)
        push(f, f->now + f->hop_ns, EV_ROUTER_FIRST_BYTE, (uint32_t)i, 0, NULL);
    rank_kick(f, e, r);
}

static void on_router_end(kvr_fleet_t *f, size_t i)
{
    fleet_req_t *q = &f->reqs[i];
    kvr_fleet_router_end(f->routers[q->router], &q->route, q->request_id,
                         f->trace->requests[i].session_id, 200, f->now);
    push(f, f->now + f->hop_ns, EV_CLIENT_DONE, (uint32_t)i, 0, NULL);
}

static void on_client_done(kvr_fleet_t *f, size_t i)
{
    fleet_req_t *q = &f->reqs[i];
    kvr_replay_result_t *res = &f->results[i];
    kvr_replay_req_t *r = &res->req;
    res->finished = true;
    r->end_ns = f->now;
    r->prompt_tokens = r->cached_tokens = r->completion_tokens = -1;
    if (q->engine >= 0) {
        const fleet_engine_t *e = &f->engines[q->engine];
        /* First token: engine -> (router ->) client. */
        uint64_t back = q->direct ? f->hop_ns : 2 * f->hop_ns;
        r->status = 200;
        r->first_token_ns = r->first_byte_ns = q->engine_first_token_ns + back;
        r->prompt_tokens = q->mreq.prompt_tokens;
        r->cached_tokens = q->pd.phase == KVR_FLEET_PD_DECODE ? q->pd.prefill_cached_tokens
                                                              : q->mreq.cached_tokens;
        r->completion_tokens = q->mreq.generated;
        r->content_chunks = q->mreq.generated;
        r->saw_done = true;
        snprintf(r->engine, sizeof r->engine, "%s", e->url);
    } else {
        r->status = q->route.status;
        f->refused++;
        if (r->status == 429)
            f->answers_429++;
        snprintf(r->error, sizeof r->error, "HTTP %d: %s", q->route.status,
                 q->route.status == 429 ? "no engine has room for this request; retry later"
                                        : "no healthy engine available");
    }
    if (f->now > f->last_end_ns)
        f->last_end_ns = f->now;
    q->done = true;
    size_t nx = f->next_in_session[i];
    if (nx == SIZE_MAX || f->reqs[nx].hashed) {
        free(q->mreq.hashes); /* else the next turn copies its shared blocks first */
        q->mreq.hashes = NULL;
    }
    f->done++;
    f->outstanding--;
    if (f->records)
        kvr_replay_write_record(f->records, &f->trace->requests[i], res, f->cfg.run_id,
                                f->start_ns);
    if (f->cfg.closed_loop && nx != SIZE_MAX) {
        uint64_t due = f->now + ms_to_ns(f->cfg.think_ms);
        f->results[nx].due_rel_ms = (double)(due - f->start_ns) / 1e6;
        push(f, due, EV_SEND, (uint32_t)nx, 0, NULL);
    }
}

/* ---- the feed writer ---- */

static void sample_engine(const kvr_fleet_t *f, const fleet_engine_t *e, kvr_engine_state_t *s)
{
    memset(s, 0, sizeof *s);
    kvr_source_t source = e->cfg.feed.source;
    s->dp_ranks = f->cfg.dp;
    s->kv_usage = 0;
    for (uint32_t r = 0; r < f->cfg.dp; r++) {
        const kvr_sim_model_t *m = &e->ranks[r].model;
        uint64_t used = kvr_sim_model_kv_used_tokens(m), cap = kvr_sim_model_kv_capacity_tokens(m);
        s->running += m->running.count;
        s->waiting += m->waiting.count;
        s->max_running += m->params.max_running;
        s->kv_tokens_used += used;
        s->kv_tokens_capacity += cap;
        double usage = cap ? (double)used / (double)cap : 0;
        if (usage > s->kv_usage)
            s->kv_usage = usage;
        uint64_t pending, largest;
        kvr_sim_model_pending_prefill(m, &pending, &largest);
        s->pending_prefill_tokens += pending;
        if (largest > s->max_prefill_remaining)
            s->max_prefill_remaining = largest;
    }
    /* What each source can tell, as statefeed's parsers fill it. */
    if (source == KVR_SOURCE_SCRAPE) {
        s->max_running = 0;
        s->pending_prefill_tokens = s->max_prefill_remaining = 0;
    } else {
        s->flags |= KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_PENDING_PREFILL;
        if (source == KVR_SOURCE_LOADS)
            s->max_prefill_remaining = 0;
    }
    if (in_window(f, &e->cfg.feed.lie)) {
        /* Telemetry that lies: an idle engine. */
        s->running = s->waiting = 0;
        s->kv_tokens_used = s->pending_prefill_tokens = s->max_prefill_remaining = 0;
        s->kv_usage = 0;
    }
}

static void feed_tick(kvr_fleet_t *f)
{
    if (!in_window(f, &f->cfg.writer_stall)) {
        kvr_shm_heartbeat(&f->shm, f->now);
        if (f->cache_events)
            kvr_fleet_cache_events_tick(f->cache_events);
    }
    for (uint32_t i = 0; i < f->cfg.n_engines; i++) {
        fleet_engine_t *e = &f->engines[i];
        if (in_window(f, &e->cfg.feed.stall))
            continue;
        kvr_engine_state_t *s = kvr_xmalloc(sizeof *s);
        sample_engine(f, e, s);
        s->sample_time_ns = f->now;
        double latency = e->cfg.feed.latency_ms +
                         e->cfg.feed.jitter_ms * kvr_rng_uniform(&e->feed_rng);
        f->feed_samples++;
        push(f, f->now + ms_to_ns(latency), EV_FEED_PUBLISH, i, 0, s);
    }
    push(f, f->now + ms_to_ns(f->cfg.feed_period_ms), EV_FEED_TICK, 0, 0, NULL);
}

static void feed_publish(kvr_fleet_t *f, fleet_engine_t *e, kvr_engine_state_t *sample)
{
    kvr_engine_state_t st;
    kvr_shm_writer_state(&f->shm, (uint32_t)e->slot, &st);
    /* As statefeed's publisher: a sample older than the published one never moves an age back. */
    if (sample->sample_time_ns >= st.sample_time_ns) {
        const uint32_t telemetry = KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_UTILIZATION |
                                   KVR_SLOT_HAS_PENDING_PREFILL;
        st.dp_ranks = sample->dp_ranks;
        st.running = sample->running;
        st.waiting = sample->waiting;
        st.max_running = sample->max_running;
        st.kv_tokens_used = sample->kv_tokens_used;
        st.kv_tokens_capacity = sample->kv_tokens_capacity;
        st.kv_usage = sample->kv_usage;
        st.pending_prefill_tokens = sample->pending_prefill_tokens;
        st.max_prefill_remaining = sample->max_prefill_remaining;
        st.flags = (st.flags & ~telemetry) | (sample->flags & telemetry);
        st.flags = kvr_slot_with_source(st.flags | KVR_SLOT_IN_USE | KVR_SLOT_HEALTHY,
                                        e->cfg.feed.source);
        st.sample_time_ns = sample->sample_time_ns;
        st.publish_time_ns = f->now;
        st.sample_seq++;
        st.consecutive_failures = 0;
        kvr_shm_write_slot(&f->shm, (uint32_t)e->slot, &st);
        f->feed_publishes++;
        if (f->feed_log)
            fprintf(f->feed_log,
                    "s %" PRIu64 " %d %" PRIu64 " %" PRIu64 " %u %u %u %" PRIu64 " %" PRIu64
                    " %s\n",
                    f->now, e->slot, st.sample_time_ns, st.sample_seq, st.flags, st.running,
                    st.waiting, st.pending_prefill_tokens, st.max_prefill_remaining, st.engine_id);
    }
    free(sample);
}

static int feed_open(kvr_fleet_t *f, const char *name, char *err, size_t err_len)
{
    snprintf(f->shm_name, sizeof f->shm_name, "%s", name);
    int rc = kvr_shm_create(&f->shm, name, f->cfg.n_engines < 16 ? 16 : f->cfg.n_engines);
    if (rc < 0) {
        char why[256];
        snprintf(err, err_len, "feed segment %s: %s", name,
                 kvr_shm_explain(&f->shm, rc, why, sizeof why));
        return rc;
    }
    f->shm_open = true;
    /* The writer's clock is the virtual one from the first store on. */
    kvr_shm_heartbeat(&f->shm, f->now);
    for (uint32_t i = 0; i < f->cfg.n_engines; i++) {
        rc = kvr_shm_add_engine(&f->shm, f->engines[i].url);
        if (rc < 0) {
            snprintf(err, err_len, "feed segment %s: engine %u: %s", name, i, strerror(-rc));
            return rc;
        }
        f->engines[i].slot = rc;
    }
    return 0;
}

/* The engines' KV events into a residency table beside the segment, read by the routers. */
static int cache_events_open(kvr_fleet_t *f, char *err, size_t err_len)
{
    if (!f->feed) {
        snprintf(err, err_len,
                 "--kv-events: the routers find engines in the residency table by "
                 "their feed slot: it needs a router with ES=1 and a feed period");
        return -EINVAL;
    }
    uint64_t blocks = 0;
    for (uint32_t i = 0; i < f->cfg.n_engines; i++)
        for (uint32_t r = 0; r < f->engines[i].n_ranks; r++)
            blocks += f->engines[i].ranks[r].model.cache.capacity_blocks;
    int rc = kvr_fleet_cache_events_create(
        &f->cache_events, f->shm_name, f->cfg.n_engines < 16 ? 16 : f->cfg.n_engines, blocks,
        ms_to_ns(f->cfg.kv_events_delay_ms), &f->now, err, err_len);
    if (rc < 0)
        return rc;
    for (uint32_t i = 0; i < f->cfg.n_engines; i++)
        for (uint32_t r = 0; r < f->engines[i].n_ranks; r++)
            kvr_fleet_cache_events_attach(f->cache_events, &f->engines[i].ranks[r].model,
                                          (uint32_t)f->engines[i].slot);
    return 0;
}

/* ---- set-up ---- */

/* Sessions in order of first appearance in the file; a request without a session is one of its own. */
static void number_sessions(size_t n, const size_t *prev, const size_t *next, size_t *ordinal,
                            size_t *count)
{
    size_t id = 0;
    for (size_t i = 0; i < n; i++)
        ordinal[i] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        if (ordinal[i] != SIZE_MAX)
            continue;
        size_t head = i;
        while (prev[head] != SIZE_MAX)
            head = prev[head];
        for (size_t k = head; k != SIZE_MAX; k = next[k])
            ordinal[k] = id;
        id++;
    }
    *count = id;
}

int kvr_fleet_create(kvr_fleet_t **out, const kvr_fleet_config_t *cfg, const kvr_trace_t *trace,
                     kvr_fleet_router_t **routers, bool feed, const char *shm_name, FILE *records,
                     char *err, size_t err_len)
{
    kvr_fleet_t *f = kvr_xcalloc(1, sizeof *f);
    f->cfg = *cfg;
    f->trace = trace;
    f->records = records;
    f->now = FLEET_EPOCH_NS;
    f->start_ns = FLEET_EPOCH_NS + FLEET_LEAD_NS;
    f->hop_ns = ms_to_ns(cfg->net_latency_ms);
    for (uint32_t k = 0; k < cfg->n_routers; k++) {
        f->routers[k] = routers[k];
        snprintf(f->router_targets[k], sizeof f->router_targets[k],
                 "http://router-%u/v1/chat/completions", k);
    }
    *out = f;
    int rc = -EINVAL;

    f->engines = kvr_xcalloc(cfg->n_engines, sizeof *f->engines);
    for (uint32_t i = 0; i < cfg->n_engines; i++) {
        fleet_engine_t *e = &f->engines[i];
        e->index = i;
        e->cfg = cfg->engines[i];
        kvr_fleet_engine_url(i, e->url, sizeof e->url);
        snprintf(e->target, sizeof e->target, "%s/v1/chat/completions", e->url);
        /* Independent streams per engine, so one engine's draws never shift another's. */
        kvr_rng_seed(&e->step_rng, cfg->seed ^ (0x5354455000000000ull + i));
        kvr_rng_seed(&e->feed_rng, cfg->seed ^ (0x4645454400000000ull + i));
        kvr_sim_params_t p = e->cfg.params;
        p.max_running = p.max_running / cfg->dp;
        p.kv_tokens = p.kv_tokens / cfg->dp;
        for (uint32_t r = 0; r < cfg->dp; r++) {
            if ((rc = kvr_sim_model_init(&e->ranks[r].model, &p)) < 0) {
                snprintf(
                    err, err_len,
                    "engine %u: impossible parameters (max_running %u per rank, kv_tokens %" PRIu64
                    " per rank)",
                    i, p.max_running, p.kv_tokens);
                goto fail;
            }
            e->n_ranks++;
        }
    }

    size_t n = trace->len;
    if (cfg->limit > 0 && (size_t)cfg->limit < n)
        n = (size_t)cfg->limit;
    f->n_selected = n;
    f->reqs = kvr_xcalloc(trace->len ? trace->len : 1, sizeof *f->reqs);
    f->results = kvr_xcalloc(trace->len ? trace->len : 1, sizeof *f->results);
    f->next_in_session = kvr_xmalloc((n ? n : 1) * sizeof *f->next_in_session);
    int lrc = 0;
    size_t *prev = kvr_replay_link_sessions(trace, n, f->next_in_session, &lrc);
    if (!prev) {
        snprintf(err, err_len, "out of memory");
        rc = lrc;
        goto fail;
    }
    size_t *ordinal = kvr_xmalloc((n ? n : 1) * sizeof *ordinal), n_sessions = 0;
    number_sessions(n, prev, f->next_in_session, ordinal, &n_sessions);
    if (n_sessions < cfg->n_routers) {
        snprintf(err, err_len,
                 "--routers %u: the trace has %zu requests in %zu sessions; every router needs one",
                 cfg->n_routers, n, n_sessions);
        free(prev);
        free(ordinal);
        rc = -EINVAL;
        goto fail;
    }
    for (size_t i = 0; cfg->tokens && i < n; i++)
        kvr_fleet_tokens_prompt(cfg->tokens, &trace->requests[i], cfg->block_size, i,
                                &f->reqs[i].tok);
    /* The KV of every rank must hold any one request, or it could never run. */
    for (size_t i = 0; i < n; i++) {
        const kvr_trace_request_t *tr = &trace->requests[i];
        uint64_t need = (uint64_t)(f->reqs[i].tok.exact ? f->reqs[i].tok.tokens
                                   : tr->input_length   ? tr->input_length
                                                        : 1) +
                        (tr->output_length ? tr->output_length : 1);
        for (uint32_t e = 0; e < cfg->n_engines; e++) {
            uint64_t cap = kvr_sim_model_kv_capacity_tokens(&f->engines[e].ranks[0].model);
            if (need + KVR_SIM_BLOCK_TOKENS > cap) {
                snprintf(err, err_len,
                         "trace request %zu needs %" PRIu64
                         " KV tokens (prompt + output) but engine %u holds %" PRIu64
                         " per rank: raise kv_tokens or lower --dp",
                         i, need, e, cap);
                free(prev);
                free(ordinal);
                rc = -EINVAL;
                goto fail;
            }
        }
    }

    uint64_t first_ts = UINT64_MAX;
    uint32_t forced = 0;
    for (size_t i = 0; i < n; i++)
        if (trace->requests[i].timestamp_ms < first_ts)
            first_ts = trace->requests[i].timestamp_ms;
    for (size_t i = 0; i < n; i++) {
        const kvr_trace_request_t *tr = &trace->requests[i];
        fleet_req_t *q = &f->reqs[i];
        q->router = (uint32_t)(ordinal[i] % cfg->n_routers);
        q->engine = -1;
        q->rank = -1;
        /* The first turns of the first N sessions that have one, in file order. */
        if (cfg->first_turn_engine >= 0 && tr->turn == 0 && tr->session_id &&
            forced < cfg->first_turn_sessions) {
            q->direct = true;
            forced++;
        }
        snprintf(q->request_id, sizeof q->request_id, "%s-%zu", cfg->run_id, i);
        kvr_replay_req_t *r = &f->results[i].req;
        r->index = i;
        r->url = q->direct ? f->engines[cfg->first_turn_engine].target
                           : f->router_targets[q->router];
        if (cfg->n_routers > 1 && !q->direct) {
            f->results[i].has_router = true;
            f->results[i].router = q->router;
        }
        f->results[i].has_retries = cfg->retry_429_ms > 0;
        f->outstanding++;
        if (cfg->closed_loop && prev[i] != SIZE_MAX)
            continue; /* sent when the turn before it ends */
        double rel_ms = (double)(tr->timestamp_ms - first_ts) / cfg->rate;
        uint64_t due = f->start_ns + ms_to_ns(rel_ms);
        if (cfg->arrival_jitter_ms > 0) {
            /* A draw per request index: the same request moves the same way in every arm. */
            uint64_t x = cfg->seed ^ (0x4a49545400000000ull + i);
            due += ms_to_ns(cfg->arrival_jitter_ms * kvr_splitmix64_unit(&x));
        }
        f->results[i].due_rel_ms = (double)(due - f->start_ns) / 1e6;
        push(f, due, EV_SEND, (uint32_t)i, 0, NULL);
    }
    f->prev_in_session = prev;
    free(ordinal);

    f->feed = feed && cfg->feed_period_ms > 0;
    if (f->feed) {
        if ((rc = feed_open(f, shm_name, err, err_len)) < 0)
            goto fail;
        push(f, f->now, EV_FEED_TICK, 0, 0, NULL);
    }
    if (cfg->kv_events && (rc = cache_events_open(f, err, err_len)) < 0)
        goto fail;
    return 0;

fail:
    return rc;
}

void kvr_fleet_log_feed(kvr_fleet_t *f, FILE *out)
{
    if (!f->feed)
        return;
    f->feed_log = out;
    fprintf(out, "# kvroute-fleetsim segment %s (virtual time)\nstart %" PRIu64 "\n", f->shm_name,
            f->now);
}

/* ---- the run ---- */

static void progress(kvr_fleet_t *f, bool last)
{
    uint64_t wall = kvr_clock_now_ns();
    if (!last && wall < f->next_progress_wall_ns)
        return;
    f->next_progress_wall_ns = wall + KVR_NS_PER_SEC;
    fprintf(
        stderr,
        "\rkvroute-fleetsim: virtual %8.1f s  sent %zu/%zu  done %zu  refused %zu  running %u   %s",
        f->now > f->start_ns ? (double)(f->now - f->start_ns) / 1e9 : 0.0, f->sent, f->n_selected,
        f->done, f->refused, f->fleet_running, last ? "\n" : "");
}

void kvr_fleet_run(kvr_fleet_t *f)
{
    struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    f->wall_start_ns = kvr_clock_now_ns();
    f->cpu_start_ns = cpu_now_ns();
    f->next_progress_wall_ns = f->wall_start_ns + KVR_NS_PER_SEC;
    while (f->heap_len && f->outstanding && !fleet_interrupted) {
        fleet_event_t ev = pop(f);
        f->now = ev.t;
        f->events++;
        switch ((fleet_event_kind_t)ev.kind) {
        case EV_SEND: on_send(f, ev.a); break;
        case EV_ROUTE: on_route(f, ev.a); break;
        case EV_ENGINE_RECV: on_engine_recv(f, ev.a); break;
        case EV_STEP_END: step_end(f, &f->engines[ev.a], (uint32_t)ev.b); break;
        case EV_ROUTER_FIRST_BYTE: kvr_fleet_router_first_byte(&f->reqs[ev.a].route); break;
        case EV_ROUTER_FIRST_TOKEN:
            kvr_fleet_router_first_token(&f->reqs[ev.a].route, f->now);
            break;
        case EV_ROUTER_END: on_router_end(f, ev.a); break;
        case EV_CLIENT_DONE: on_client_done(f, ev.a); break;
        case EV_FEED_TICK: feed_tick(f); break;
        case EV_FEED_PUBLISH: feed_publish(f, &f->engines[ev.a], ev.p); break;
        case EV_PD_HANDOFF: on_pd_handoff(f, ev.a); break;
        }
        if (f->cfg.progress && (f->events % FLEET_PROGRESS_EVERY) == 0)
            progress(f, false);
    }
    if (f->feed_log)
        fprintf(f->feed_log, "end %" PRIu64 " %" PRIu64 " 0\n", f->now, f->feed_publishes);
    f->wall_ns = kvr_clock_now_ns() - f->wall_start_ns;
    f->cpu_ns = cpu_now_ns() - f->cpu_start_ns;
    if (f->cfg.progress)
        progress(f, true);
    if (fleet_interrupted)
        fprintf(stderr,
                "kvroute-fleetsim: interrupted at virtual %.1f s; %zu requests unfinished\n",
                (double)(f->now - f->start_ns) / 1e9, f->outstanding);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
}

bool kvr_fleet_interrupted(void)
{
    return fleet_interrupted != 0;
}

void kvr_fleet_stats(const kvr_fleet_t *f, kvr_fleet_stats_t *out)
{
    memset(out, 0, sizeof *out);
    out->virtual_ns = f->last_end_ns > f->first_send_ns ? f->last_end_ns - f->first_send_ns : 0;
    out->wall_s = (double)f->wall_ns / 1e9;
    out->cpu_s = (double)f->cpu_ns / 1e9;
    out->events = f->events;
    out->sent = f->sent;
    out->finished = f->done;
    out->refused = f->refused;
    out->answers_429 = f->answers_429;
    out->fleet_peak_running = f->fleet_peak_running;
    out->feed_samples = f->feed_samples;
    out->feed_publishes = f->feed_publishes;
}

const kvr_replay_result_t *kvr_fleet_results(const kvr_fleet_t *f, size_t *n_selected)
{
    *n_selected = f->n_selected;
    return f->results;
}

void kvr_fleet_write_stats(const kvr_fleet_t *f, FILE *out)
{
    kvr_fleet_stats_t s;
    kvr_fleet_stats(f, &s);
    fprintf(out,
            "{\"requests\":%zu,\"sent\":%zu,\"finished\":%zu,\"refused\":%zu,\"unfinished\":%zu,"
            "\"answers_429\":%" PRIu64 ",\"virtual_s\":%.6f,\"events\":%" PRIu64
            ",\"fleet_peak_running\":%u,"
            "\"feed_samples\":%" PRIu64 ",\"feed_publishes\":%" PRIu64 ",\"engines\":[",
            f->n_selected, s.sent, s.finished, s.refused, f->outstanding, s.answers_429,
            (double)s.virtual_ns / 1e9, s.events, s.fleet_peak_running, s.feed_samples,
            s.feed_publishes);
    for (uint32_t i = 0; i < f->cfg.n_engines; i++) {
        const fleet_engine_t *e = &f->engines[i];
        uint64_t finished = 0, preemptions = 0, queries = 0, hits = 0, gen = 0, busy = 0,
                 evictions = 0;
        for (uint32_t r = 0; r < f->cfg.dp; r++) {
            const kvr_sim_model_t *m = &e->ranks[r].model;
            finished += m->requests_finished;
            preemptions += m->preemptions;
            queries += m->prefix_queries_tokens;
            hits += m->prefix_hits_tokens;
            gen += m->generation_tokens_total;
            busy += m->busy_ns;
            evictions += m->cache.evictions;
        }
        fprintf(out,
                "%s{\"engine\":\"%s\",\"received\":%" PRIu64 ",\"finished\":%" PRIu64
                ",\"peak_running\":%u,"
                "\"running_at_end\":%u,\"preemptions\":%" PRIu64 ",\"prefix_query_tokens\":%" PRIu64
                ",\"prefix_hit_tokens\":%" PRIu64 ",\"generated_tokens\":%" PRIu64
                ",\"evictions\":%" PRIu64 ",\"busy_s\":%.6f}",
                i ? "," : "", e->url, e->received, finished, e->peak_running, e->running,
                preemptions, queries, hits, gen, evictions, (double)busy / 1e9);
    }
    fputs("],\"routers\":[", out);
    for (uint32_t k = 0; k < f->cfg.n_routers; k++) {
        kvr_fleet_shadow_t sh;
        kvr_fleet_router_shadow(f->routers[k], &sh);
        char feed[512];
        kvr_fleet_router_feed_counts(f->routers[k], feed, sizeof feed);
        fprintf(out,
                "%s{\"router\":%u,\"policy\":\"%s\",\"es\":%s,\"shadow_requests\":%" PRIu64
                ",\"shadow_pending_prefill_tokens\":%" PRIu64 ",\"shadow_kv_tokens\":%" PRIu64
                ",\"feed\":\"%s\"}",
                k ? "," : "", k, kvr_fleet_router_policy(f->routers[k]),
                kvr_fleet_router_es(f->routers[k]) ? "true" : "false", sh.requests,
                sh.pending_prefill_tokens, sh.kv_tokens, feed);
    }
    fputs("]", out);
    if (f->cache_events) {
        fputs(",\"kv_events\":", out);
        kvr_fleet_cache_events_write_stats(f->cache_events, out);
    }
    if (f->cfg.tokens) {
        fputs(",\"tokens\":", out);
        kvr_fleet_tokens_write_stats(f->cfg.tokens, out);
    }
    fputs("}\n", out);
}

void kvr_fleet_destroy(kvr_fleet_t *f)
{
    if (!f)
        return;
    /* Requests still inside (an interrupted run) end at the router so its counters are released. */
    for (size_t i = 0; f->reqs && i < f->n_selected; i++) {
        fleet_req_t *q = &f->reqs[i];
        if (q->route.impl)
            kvr_fleet_router_end(f->routers[q->router], &q->route, q->request_id,
                                 f->trace->requests[i].session_id, 499, f->now);
        if (q->rank >= 0)
            kvr_sim_model_cancel(&f->engines[q->engine].ranks[q->rank].model, &q->mreq);
        free(q->mreq.hashes);
        kvr_fleet_prompt_free(&q->tok);
    }
    for (size_t i = 0; i < f->heap_len; i++)
        if (f->heap[i].kind == EV_FEED_PUBLISH)
            free(f->heap[i].p);
    for (uint32_t k = 0; k < f->cfg.n_routers; k++)
        kvr_fleet_router_destroy(f->routers[k]);
    for (uint32_t i = 0; f->engines && i < f->cfg.n_engines; i++)
        for (uint32_t r = 0; r < f->engines[i].n_ranks; r++)
            kvr_sim_model_close(&f->engines[i].ranks[r].model);
    kvr_fleet_cache_events_destroy(f->cache_events); /* after the models: they report to it */
    if (f->shm_open) {
        kvr_shm_mark_writer_stopped(&f->shm);
        kvr_shm_close(&f->shm);
        kvr_shm_unlink(f->shm_name);
    }
    free(f->engines);
    free(f->reqs);
    free(f->results);
    free(f->next_in_session);
    free(f->prev_in_session);
    free(f->heap);
    free(f->text);
    free(f);
}
