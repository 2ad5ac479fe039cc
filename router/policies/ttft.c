/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ttft: the engine where this request's first token is predicted to come
 * soonest, counting the delay its prefill imposes on the requests already
 * running there.
 *
 * For each candidate, in seconds:
 *
 *   ttft   = (queued prefill + own uncached prefill) / prefill rate
 *            + step + slot wait,
 *   step   = step scale × (step ms + step per seq ms × (running + 1))
 *   slot wait (a full batch: running + waiting + 1 > max_running)
 *          = (running + waiting + 1 − max_running) × step × output tokens / max_running
 *   others = others weight × own uncached prefill / prefill rate
 *            × (running + waiting)
 *   unseen = EWMA of (observed − predicted ttft) over this engine's answers
 *            to this router's own picks, at least 0
 *   score  = ttft + unseen + others; the lowest wins, then fewer
 *            eff_requests, then the lower engine index.
 *
 * Queued prefill is the larger of eff_pending_prefill_tokens (max of shadow
 * and real: what engines report, the uncached tokens still to prefill) and
 * the last feed sample's pending plus the uncached tokens this router sent
 * since, less the learned rate's drain over the time since the sample.
 * Without a fresh sample (ES=0) it is the larger of eff pending and the
 * uncached tokens this router sent there, drained at the learned rate: the
 * shadow releases a request's prefill at the response head, which an
 * engine sends on accepting it, so eff pending alone shows every engine
 * empty one round trip after a send and a group of long prompts arriving
 * together is priced as if nothing were queued ahead.
 * Own uncached prefill is the prompt minus the prefix match, the match
 * counted at the engine's retention: the share of what the prefix index
 * attributes to the engine that fits in its KV capacity, 1 when it all
 * fits. The index keeps per engine an LRU budget of the capacity the feed
 * reports, so an engine with a smaller KV keeps fewer matches, and one whose
 * attributed prefixes exceed its capacity has each counted at the share
 * that fits. (Discounting by the KV the running work holds instead zeroes
 * every match on a busy engine, the recently ended turns an LRU cache keeps
 * longest included: measured, it spread sessions like load_only.)
 *
 * Unseen is the wait an engine's answers keep showing that the prediction
 * does not: work this router cannot see. Without a feed, each of several
 * routers counts only its own requests; measured in fleetsim (4 routers,
 * ES=0, the study preset) the engine a pick chose held 3.9 requests in
 * flight where the router's view showed 0.9, every router kept sending its
 * sessions to the same three cache-warm engines (busy 95% of the run) while
 * two stayed nearly idle, and TTFT p90 was 1.9 times Dynamo's rule. The
 * answers to those picks came seconds later than predicted; that excess,
 * learned per engine and added to its score, is the queue the other routers
 * put there. It is a level, not a burst: each answer moves it by a
 * twentieth (UNSEEN_WEIGHT), so one long prompt ahead, or the noise of an
 * overloaded fleet where every answer is late, does not turn a cache-warm
 * engine away (measured on the zoo: a weight of 0.2 lost on the long-tail
 * and tenants regimes, 0.02 kept most of mooncake's loss at 4 routers). It
 * has no time decay: an engine this
 * router stopped sending to is still taken once the others' predictions
 * exceed its unseen wait, and that answer corrects it.
 *
 * Others counts the running batch, whose next tokens wait for this
 * prefill's steps, and the queue: on a saturated engine every request
 * queued is one more that the added work will delay, so a cache miss is
 * dearer the busier the fleet is, and an idle fleet is routed on TTFT alone.
 *
 * Learned per engine, from a prior (the ttft-* options) on first sight:
 *  - not from the feed's pending drain (earlier pending + uncached tokens
 *    this router sent − later pending, over the interval): the engine's
 *    pending counts each request's uncached part as the engine finds it,
 *    the router's sends as the index predicts it, and other routers' sends
 *    not at all; measured in fleetsim, rates learned so came out two to six
 *    times the engine's where prefixes are shared and evicted, and ES=1
 *    routed worse than ES=0. The feed's samples still give the queue.
 *  - from the first byte of a streamed answer (on_first_byte): the observed
 *    time less the predicted slot wait is split between the two other terms
 *    of the prediction; the dominant one is corrected (prefill rate when the
 *    prefill term is the larger, the step scale otherwise). The prefill
 *    term is the one the pick priced: the queue it counted ahead (never
 *    less than the eff pending the core reports) and its own uncached
 *    tokens, kept per request in flight and found again by engine and
 *    prompt length. Eff pending alone, without a feed, is the shadow's,
 *    released by every earlier request's response head: the backlog this
 *    router sent would read as a slow prefill of the request's own tokens,
 *    the learned rate would fall to a fraction of the engine's, and that
 *    rate, draining the backlog, would keep every engine that took a burst
 *    looking busy long after it emptied, the next burst all on the rest.
 *    An answer whose predicted slot wait is over half the observed time
 *    teaches nothing: a full batch's wait would be read as a slow prefill.
 * Both are EWMAs with weight ttft-learn-rate for a sample faster than the
 * learned figure and a tenth of it for a slower one: what the model does
 * not see (a wait for KV room, a prefix the index credits but the engine
 * evicted, a preemption) only makes an answer later, so the figure follows
 * the faster answers; a mean of all of them read those waits as a slow
 * engine, which then got no traffic to correct it. A learned rate stays
 * within [prior / 100, prior × 100], the step scale within [0.1, 10] (samples
 * outside are limited to the range); queued prefill above 1e9 tokens is
 * read as 1e9. Bad input — a sample more than 100 times beyond its range,
 * a non-positive or non-finite one, a sample time from the past, an absurd
 * first-byte time, a non-finite score — sets KVR_DECISION_INPUT_CLAMPED on
 * the decision (the core counts it); one seen in on_first_byte is reported
 * on the next decision.
 *
 * Output tokens is the EWMA of max_tokens of the requests dispatched to
 * the engine (ttft-output-tokens until one is seen): one slot of a full
 * batch frees every step × output tokens / max_running. Without a cap
 * (max_running 0) there is no slot wait.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "common/clock.h"
#include "router/policies/policy_util.h"

#define MAX_TOKENS 1e9  /* queued prefill read as at most this: hours of work on any engine */
#define RATE_SPAN 100.0 /* learned prefill rate within [prior / span, prior × span] */
#define SCALE_MIN 0.1
#define SCALE_MAX 10.0
#define ABSURD 100.0 /* a sample this many times beyond its learnable range is bad input */
#define MAX_TTFT_NS                                                                                \
    (3600ull * KVR_NS_PER_SEC) /* a first byte later than this is not a prefill figure */
#define MIN_DRAIN_TOKENS 16.0  /* one block: less is sampling noise */
#define SLOWER_WEIGHT 0.1      /* a sample slower than the learned figure moves it this much less */
#define UNSEEN_WEIGHT 0.05 /* each answer's share of the learned wait the prediction does not see */

typedef struct {
    bool known; /* false: priors apply on first sight */
    bool has_sample;
    double prefill_rate;     /* tokens/s */
    double step_scale;       /* multiplies the prior step model */
    uint64_t sample_ns;      /* time of the last feed sample seen */
    uint64_t sample_pending; /* its real pending prefill */
    uint64_t sent_since;     /* uncached tokens this router sent since that sample */
    double output_tokens;    /* EWMA of max_tokens dispatched here */
    double backlog; /* uncached tokens this router sent, less the learned drain, at backlog_ns */
    uint64_t backlog_ns;
    double unseen_s; /* EWMA of first-byte time beyond the pick's prediction, at least 0 */
} engine_model_t;

/*
 * What the prediction counted for a request in flight, found again by its
 * first byte: the core reports the engine's eff pending at dispatch, which
 * without a feed is the shadow's, already released by the response head of
 * everything sent before, so the queue this router's own backlog put ahead
 * would be learned as a slow prefill of the request's own tokens.
 */
#define INFLIGHT_SLOTS 4096 /* more requests in flight than this are learned from eff pending */
#define INFLIGHT_PROBE 8

typedef struct {
    uint32_t engine_plus1; /* 0: free */
    uint32_t prompt_tokens;
    double queued;      /* queued prefill ahead, as predicted at dispatch */
    double own;         /* its own uncached prefill, as predicted */
    double predicted_s; /* the time to first token the pick predicted; NaN: not scored */
    uint64_t seq; /* dispatch order: the oldest is overwritten when the probe window is full */
} inflight_t;

typedef struct {
    kvr__indexed_t base; /* first: the shared kvr__indexed_* functions take this state */
    engine_model_t model[KVR_MAX_ENGINES];
    uint64_t late_clamps; /* clamps in on_first_byte, reported on the next decision */
    /* The last pick, so on_dispatch can credit its uncached tokens. */
    const kvr_route_request_t *last_req;
    uint64_t last_now_ns;
    uint32_t last_engine;
    uint64_t last_uncached;
    double last_queued;
    double last_ttft;
    double uncached[KVR_MAX_ENGINES]; /* per view, for the current decision */
    double queued[KVR_MAX_ENGINES];   /* per view, for the current decision */
    double ttft[KVR_MAX_ENGINES];     /* per view, for the current decision */
    inflight_t inflight[INFLIGHT_SLOTS];
    uint64_t inflight_seq;
} ttft_t;

/* Priors every prediction divides by or multiplies with: a caller past the flag parser's bounds gets -EINVAL. */
static bool priors_valid(const kvr_policy_config_t *c)
{
    return isfinite(c->ttft_prefill_tokens_per_s) && c->ttft_prefill_tokens_per_s >= 1 &&
           c->ttft_prefill_tokens_per_s <= 1e9 && isfinite(c->ttft_step_ms) &&
           c->ttft_step_ms > 0 && isfinite(c->ttft_step_per_seq_ms) &&
           c->ttft_step_per_seq_ms >= 0 && isfinite(c->ttft_others_weight) &&
           c->ttft_others_weight >= 0 && isfinite(c->ttft_learn_rate) && c->ttft_learn_rate >= 0 &&
           c->ttft_learn_rate <= 1 && c->ttft_output_tokens >= 1;
}

static int ttft_create(const kvr_policy_config_t *config, void **state)
{
    if (!priors_valid(config))
        return -EINVAL;
    kvr__indexed_t *st;
    int rc = kvr__indexed_create(config, sizeof(ttft_t), &st);
    if (rc < 0)
        return rc;
    ((ttft_t *)st)->last_engine = UINT32_MAX;
    *state = st;
    return 0;
}

static engine_model_t *model_of(ttft_t *t, uint32_t engine_index)
{
    engine_model_t *m = &t->model[engine_index];
    if (!m->known) {
        m->known = true;
        m->prefill_rate = t->base.config.ttft_prefill_tokens_per_s;
        m->step_scale = 1.0;
        m->output_tokens = (double)t->base.config.ttft_output_tokens;
    }
    return m;
}

/* x limited to [lo, hi]; NaN becomes fallback. Counts into *clamps when it changed x. */
static double clamp(double x, double lo, double hi, double fallback, uint32_t *clamps)
{
    if (isnan(x)) {
        (*clamps)++;
        return fallback;
    }
    if (x < lo || x > hi) {
        (*clamps)++;
        return x < lo ? lo : hi;
    }
    return x;
}

/*
 * A sample outside the learnable range is limited to it: an engine faster
 * or slower than the range allows is simply learned at its edge. Only one
 * beyond the range by more than ABSURD times is bad input, and counted.
 */
static double limit_sample(double x, double lo, double hi, uint32_t *clamps)
{
    if (x < lo / ABSURD || x > hi * ABSURD)
        (*clamps)++;
    return x < lo ? lo : x > hi ? hi : x;
}

static void learn_rate(ttft_t *t, engine_model_t *m, double sample, uint32_t *clamps)
{
    double prior = t->base.config.ttft_prefill_tokens_per_s;
    if (!isfinite(sample) || sample <= 0) {
        (*clamps)++;
        return;
    }
    sample = limit_sample(sample, prior / RATE_SPAN, prior * RATE_SPAN, clamps);
    double a = t->base.config.ttft_learn_rate * (sample < m->prefill_rate ? SLOWER_WEIGHT : 1);
    m->prefill_rate = clamp((1 - a) * m->prefill_rate + a * sample, prior / RATE_SPAN,
                            prior * RATE_SPAN, prior, clamps);
}

static void learn_scale(ttft_t *t, engine_model_t *m, double sample, uint32_t *clamps)
{
    if (!isfinite(sample) || sample < 0) {
        (*clamps)++;
        return;
    }
    sample = limit_sample(sample, SCALE_MIN, SCALE_MAX, clamps);
    double a = t->base.config.ttft_learn_rate * (sample > m->step_scale ? SLOWER_WEIGHT : 1);
    m->step_scale = clamp((1 - a) * m->step_scale + a * sample, SCALE_MIN, SCALE_MAX, 1.0, clamps);
}

/* Keeps the last fresh sample: the queue is its pending + what this router sent since, drained. */
static void track_feed(ttft_t *t, const kvr_route_request_t *req, const kvr_engine_view_t *v,
                       uint32_t *clamps)
{
    if (!v->feed_fresh || v->index >= KVR_MAX_ENGINES)
        return;
    engine_model_t *m = model_of(t, v->index);
    if (v->feed_age_ns > req->now_ns) {
        (*clamps)++; /* a sample older than the clock's origin: not a time */
        return;
    }
    uint64_t sample_ns = req->now_ns - v->feed_age_ns;
    uint64_t pending = v->real_pending_prefill_tokens;
    if (!m->has_sample || sample_ns < m->sample_ns) {
        if (m->has_sample)
            (*clamps)++; /* time went backwards: start over from this sample */
        m->has_sample = true;
        m->sample_ns = sample_ns;
        m->sample_pending = pending;
        m->sent_since = 0;
        return;
    }
    if (sample_ns == m->sample_ns)
        return; /* the same sample */
    m->sample_ns = sample_ns;
    m->sample_pending = pending;
    m->sent_since = 0;
}

/*
 * The prefill queued ahead now: the last feed sample's pending plus what
 * this router sent since, less what the engine drained meanwhile at its
 * learned rate, and never below eff pending. The router releases a
 * request's shadow prefill charge on the response head, one round trip
 * after sending, so within one feed period the burst it just placed is
 * otherwise invisible, and a spike of arrivals would all go to the same
 * engine.
 */
static double backlog_at(const engine_model_t *m, double rate, uint64_t now_ns)
{
    if (now_ns <= m->backlog_ns)
        return m->backlog;
    double left = m->backlog - rate * (double)(now_ns - m->backlog_ns) / 1e9;
    return left > 0 ? left : 0;
}

static double queued_now(const kvr_engine_view_t *v, const engine_model_t *m, double rate,
                         uint64_t now_ns)
{
    double eff = (double)v->eff_pending_prefill_tokens;
    if (!v->feed_fresh) {
        /*
         * No sample (ES=0, or a stale feed): the shadow's pending prefill is
         * released at the response head, sent when the engine accepts the
         * request, before any prefill, so it shows nothing queued one round
         * trip after each send. What this router sent, drained at the learned
         * rate, is the queue it knows of.
         */
        double own = backlog_at(m, rate, now_ns);
        return own > eff ? own : eff;
    }
    if (!m->has_sample || now_ns < m->sample_ns)
        return eff;
    double drained = rate * (double)(now_ns - m->sample_ns) / 1e9;
    double since = (double)m->sample_pending + (double)m->sent_since - drained;
    return since > eff ? since : eff;
}

static double retention(const kvr__indexed_t *st, const kvr_engine_view_t *v)
{
    double capacity = (double)(v->kv_capacity_tokens ? v->kv_capacity_tokens
                                                     : st->config.index_tokens_per_engine);
    double indexed = (double)kvr_prefix_index_engine_tokens(st->index, v->index);
    return indexed <= capacity ? 1.0 : capacity / indexed;
}

static double step_seconds(const kvr_policy_config_t *cfg, const engine_model_t *m, double running)
{
    return m->step_scale * (cfg->ttft_step_ms + cfg->ttft_step_per_seq_ms * running) / 1e3;
}

/*
 * A full batch admits a waiting request only when a running one finishes:
 * with finishes spread evenly, one slot frees every step × output tokens /
 * max_running, and this request waits behind everyone already waiting.
 */
static double slot_wait(uint32_t running, uint32_t waiting, uint32_t max_running,
                        const engine_model_t *m, double step)
{
    if (max_running == 0)
        return 0; /* cap unknown: no slot model (admission fails open the same way) */
    uint64_t queued = (uint64_t)running + waiting + 1;
    if (queued <= max_running)
        return 0;
    return (double)(queued - max_running) * step * m->output_tokens / (double)max_running;
}

static size_t inflight_home(uint32_t engine_index, uint32_t prompt_tokens)
{
    uint64_t h = ((uint64_t)engine_index << 32 | prompt_tokens) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 52) % INFLIGHT_SLOTS;
}

static void inflight_put(ttft_t *t, uint32_t engine_index, uint32_t prompt_tokens, double queued,
                         double own, double predicted_s)
{
    size_t home = inflight_home(engine_index, prompt_tokens), victim = home;
    for (size_t k = 0; k < INFLIGHT_PROBE; k++) {
        inflight_t *e = &t->inflight[(home + k) % INFLIGHT_SLOTS];
        if (e->engine_plus1 == 0) {
            victim = (home + k) % INFLIGHT_SLOTS;
            break;
        }
        if (e->seq < t->inflight[victim].seq)
            victim = (home + k) % INFLIGHT_SLOTS;
    }
    t->inflight[victim] = (inflight_t){.engine_plus1 = engine_index + 1,
                                       .prompt_tokens = prompt_tokens,
                                       .queued = queued,
                                       .own = own,
                                       .predicted_s = predicted_s,
                                       .seq = ++t->inflight_seq};
}

/* Takes the oldest record of a request of this length in flight on this engine; false: none. */
static bool inflight_take(ttft_t *t, uint32_t engine_index, uint32_t prompt_tokens, inflight_t *out)
{
    size_t home = inflight_home(engine_index, prompt_tokens), found = SIZE_MAX;
    for (size_t k = 0; k < INFLIGHT_PROBE; k++) {
        inflight_t *e = &t->inflight[(home + k) % INFLIGHT_SLOTS];
        if (e->engine_plus1 == engine_index + 1 && e->prompt_tokens == prompt_tokens &&
            (found == SIZE_MAX || e->seq < t->inflight[found].seq))
            found = (home + k) % INFLIGHT_SLOTS;
    }
    if (found == SIZE_MAX)
        return false;
    *out = t->inflight[found];
    t->inflight[found] = (inflight_t){0};
    return true;
}

static void ttft_pick(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                      size_t n, kvr_route_decision_t *out)
{
    ttft_t *t = state;
    kvr__indexed_t *st = &t->base;
    const kvr_policy_config_t *cfg = &st->config;
    uint32_t clamps = t->late_clamps ? 1 : 0;
    t->late_clamps = 0;
    kvr__indexed_match(st, req, views, n);
    double prompt = (double)kvr__policy_uncached_tokens(req, 0);
    size_t best = 0;
    double best_score = INFINITY;
    for (size_t v = 0; v < n; v++) {
        const kvr_engine_view_t *view = &views[v];
        track_feed(t, req, view, &clamps);
        engine_model_t fallback = {.known = true,
                                   .prefill_rate = cfg->ttft_prefill_tokens_per_s,
                                   .step_scale = 1,
                                   .output_tokens = (double)cfg->ttft_output_tokens};
        const engine_model_t *m = view->index < KVR_MAX_ENGINES ? model_of(t, view->index)
                                                                : &fallback;
        double rate = clamp(m->prefill_rate, cfg->ttft_prefill_tokens_per_s / RATE_SPAN,
                            cfg->ttft_prefill_tokens_per_s * RATE_SPAN,
                            cfg->ttft_prefill_tokens_per_s, &clamps);
        double queued = clamp(queued_now(view, m, rate, req->now_ns), 0, MAX_TOKENS, MAX_TOKENS,
                              &clamps);
        double cached = (double)st->match[v] * KVR_PREFIX_INDEX_TOKENS_PER_BLOCK *
                        retention(st, view);
        double own = prompt > cached ? prompt - cached : 0;
        double running = (double)view->eff_running;
        double step = step_seconds(cfg, m, running + 1);
        double ttft = (queued + own) / rate + step +
                      slot_wait(view->eff_running, view->eff_waiting, view->max_running, m, step);
        t->ttft[v] = ttft;
        double score = ttft + m->unseen_s +
                       cfg->ttft_others_weight * (own / rate) *
                           (running + (double)view->eff_waiting);
        if (!isfinite(score)) {
            clamps++;
            score = HUGE_VAL;
        }
        t->uncached[v] = own;
        t->queued[v] = queued;
        st->score[v] = score;
        if (v == 0 || score < best_score ||
            (score == best_score && (view->eff_requests < views[best].eff_requests ||
                                     (view->eff_requests == views[best].eff_requests &&
                                      view->index < views[best].index)))) {
            best = v;
            best_score = score;
        }
    }
    /* One request more ahead on the best: its own prefill. */
    double best_rate = views[best].index < KVR_MAX_ENGINES
                           ? model_of(t, views[best].index)->prefill_rate
                           : cfg->ttft_prefill_tokens_per_s;
    best = kvr__policy_spread(views, n, st->score, best, t->uncached[best] / best_rate);
    out->view = (int)best;
    out->reason = "ttft";
    out->prefix_match_blocks = st->match[best];
    out->flags = clamps ? KVR_DECISION_INPUT_CLAMPED : 0;
    t->last_req = req;
    t->last_now_ns = req->now_ns;
    t->last_engine = views[best].index;
    t->last_uncached = (uint64_t)t->uncached[best];
    t->last_queued = t->queued[best];
    t->last_ttft = t->ttft[best];
}

static void ttft_on_dispatch(void *state, const kvr_route_request_t *req, uint32_t engine_index)
{
    ttft_t *t = state;
    kvr__indexed_on_dispatch(state, req, engine_index);
    if (engine_index >= KVR_MAX_ENGINES)
        return;
    /* A pin or a retry was not scored here: its whole prompt counts as sent. */
    bool scored = t->last_req == req && t->last_now_ns == req->now_ns &&
                  t->last_engine == engine_index;
    uint64_t sent = scored ? t->last_uncached : kvr__policy_uncached_tokens(req, 0);
    engine_model_t *m = model_of(t, engine_index);
    double ahead = scored ? t->last_queued : backlog_at(m, m->prefill_rate, req->now_ns);
    inflight_put(t, engine_index, req->prompt_tokens, ahead, (double)sent,
                 scored ? t->last_ttft : NAN);
    if (req->max_tokens > 0) {
        double a = t->base.config.ttft_learn_rate;
        m->output_tokens = (1 - a) * m->output_tokens + a * (double)req->max_tokens;
    }
    m->sent_since = m->sent_since + sent < m->sent_since ? UINT64_MAX : m->sent_since + sent;
    double left = backlog_at(m, m->prefill_rate, req->now_ns) + (double)sent;
    m->backlog = left < MAX_TOKENS ? left : MAX_TOKENS;
    if (req->now_ns > m->backlog_ns)
        m->backlog_ns = req->now_ns;
    t->last_req = NULL;
}

static void ttft_on_engine_removed(void *state, uint32_t engine_index)
{
    ttft_t *t = state;
    kvr__indexed_on_engine_removed(state, engine_index);
    if (engine_index >= KVR_MAX_ENGINES)
        return;
    t->model[engine_index] = (engine_model_t){0};
    for (size_t k = 0; k < INFLIGHT_SLOTS; k++)
        if (t->inflight[k].engine_plus1 == engine_index + 1)
            t->inflight[k] = (inflight_t){0};
}

static void ttft_on_first_byte(void *state, const kvr_first_byte_t *fb)
{
    ttft_t *t = state;
    const kvr_policy_config_t *cfg = &t->base.config;
    uint32_t clamps = 0;
    if (fb->engine_index >= KVR_MAX_ENGINES || fb->ttft_ns == 0 || fb->ttft_ns > MAX_TTFT_NS) {
        t->late_clamps++;
        return;
    }
    engine_model_t *m = model_of(t, fb->engine_index);
    double observed = (double)fb->ttft_ns / 1e9;
    /*
     * The queue ahead as the prediction counted it (the backlog this router
     * sent, which eff pending without a feed no longer shows), and never
     * less than what the core saw; the own part as the prediction priced it.
     */
    double queued = (double)fb->queued_prefill_tokens, own = (double)fb->uncached_tokens;
    inflight_t rec;
    if (inflight_take(t, fb->engine_index, fb->prompt_tokens, &rec)) {
        if (rec.queued > queued)
            queued = rec.queued;
        own = rec.own;
        if (isfinite(rec.predicted_s)) {
            double u = (1 - UNSEEN_WEIGHT) * m->unseen_s +
                       UNSEEN_WEIGHT * (observed - rec.predicted_s);
            m->unseen_s = u > 0 ? u : 0;
        }
    }
    double tokens = clamp(queued + own, 0, MAX_TOKENS, MAX_TOKENS, &clamps);
    double prefill = tokens / m->prefill_rate;
    double step_prior = step_seconds(cfg, &(engine_model_t){.step_scale = 1},
                                     (double)fb->running + 1);
    double step = m->step_scale * step_prior;
    double slot = slot_wait(fb->running, fb->waiting, fb->max_running, m, step);
    if (slot > observed / 2) {
        /* The wait for a batch slot explains most of the time: it says little of either speed. */
    } else if (prefill >= step) {
        /* Step and slot shares are taken as predicted; at least a tenth of the time is left to prefill. */
        double left = observed - step - slot > observed / 10 ? observed - step - slot
                                                             : observed / 10;
        if (tokens >= MIN_DRAIN_TOKENS)
            learn_rate(t, m, tokens / left, &clamps);
    } else if (step_prior > 0) {
        /* Nothing left for the step: the prefill term explains the time; no step figure to learn. */
        if (observed > prefill + slot)
            learn_scale(t, m, (observed - prefill - slot) / step_prior, &clamps);
    }
    t->late_clamps += clamps;
}

const kvr_policy_ops_t kvr__policy_ttft = {
    .name = "ttft",
    .create = ttft_create,
    .destroy = kvr__indexed_destroy,
    .pick = ttft_pick,
    .on_dispatch = ttft_on_dispatch,
    .on_engine_removed = ttft_on_engine_removed,
    .on_first_byte = ttft_on_first_byte,
};
