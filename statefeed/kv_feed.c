/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engines' KV event streams (kv_feed.h). Each tick drains every socket
 * with ZMQ_DONTWAIT on the loop thread instead of polling ZMQ_FD through the
 * ring: ZMQ_FD is edge-triggered and shared by sends and receives, so a ring
 * poll would still need a drain after every replay request, and a poll armed
 * on an engine removed by a reload would have to be cancelled before its
 * memory goes. A tick (50 ms by default) is also how fresh the load figures
 * are; zmq's own I/O thread keeps receiving in between, up to its HWM.
 *
 * Per rank: the sequence of the PUB stream is followed; a gap asks the replay
 * socket for the missed batches (live messages wait in zmq meanwhile), or
 * drops the rank's blocks when there is no replay socket or it cannot fill
 * the gap; a sequence lower than expected is a restarted engine: its blocks
 * are dropped at once.
 *
 * Per engine, over its ranks: a token bucket of --kv-max-block-events block
 * events (a block stored or removed) a second, one second's worth deep. A
 * batch arriving while the bucket is empty is received and discarded
 * undecoded, its sequence still followed; the first discard drops the
 * engine's blocks (a discarded removal would leave a block held that is
 * gone) and marks it untrusted until the bucket has refilled, when what it
 * holds (nothing since the drop but blocks stored after) is exact again.
 */
#include "statefeed/kv_feed.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zmq.h>

#include "common/clock.h"
#include "common/engine_spec.h"
#include "common/error.h"
#include "common/log.h"
#include "common/prom_writer.h"
#include "statefeed/feed.h"

#define KV_MAX_MSG_BYTES (64 * 1024 * 1024) /* a larger batch drops the connection (zmq) */
#define KV_DRAIN_BUDGET 1024                /* messages per rank per tick */
#define KV_REPLAY_TIMEOUT_NS (2000 * KVR_NS_PER_MS)
#define KV_RCVHWM 100000

typedef struct kvr__kv_rank_s {
    void *sub, *dealer;
    void *monitor; /* PAIR reading the SUB's disconnections (zmq_socket_monitor); NULL without */
    kvr_kv_cache_t cache;
    bool have_seq;
    int64_t next_seq;
    bool replaying;
    int64_t replay_from;
    uint64_t replay_deadline_ns;
    uint64_t batches, events, gaps, replays, replay_failures, resets, decode_errors, drops,
        disconnects;
} kvr__kv_rank_t;

typedef struct kvr__kv_engine_s {
    struct kvr__kv_s *kv;
    kvr__feed_engine_t *engine;
    unsigned rank_count;
    kvr__kv_rank_t *ranks;
    bool sticky_untrusted; /* a decode error or a lost stream: until the next clear */
    bool check_failed;     /* the last self-check */
    bool trusted;          /* what the sink was last told */
    bool logged_check;
    uint64_t check_failures, health_drops, usage_drops;
    double rate_tokens;      /* block events the engine may still send now */
    uint64_t rate_refill_ns; /* when rate_tokens was last refilled */
    bool rate_limited;       /* discarding until the bucket is full again */
    uint64_t rate_limited_batches, rate_limited_logged, rate_log_ns;
    bool have_sample;
    kvr_engine_state_t sample;
    double prev_usage;
} kvr__kv_engine_t;

typedef struct kvr__kv_s {
    void *zctx;
    kvr_kv_decoder_t dec;
    kvr_kv_sink_t sink;
} kvr__kv_t;

static void update_trust(kvr__kv_engine_t *ke)
{
    bool trusted = !ke->sticky_untrusted && !ke->check_failed && !ke->rate_limited;
    for (unsigned r = 0; r < ke->rank_count; r++)
        trusted = trusted && ke->ranks[r].cache.trusted;
    if (trusted == ke->trusted)
        return;
    ke->trusted = trusted;
    if (ke->kv->sink.trust != NULL)
        ke->kv->sink.trust(ke->kv->sink.ctx, ke->engine->slot, trusted);
}

/* Forgets a rank's blocks; the state is exact again from here on (under-reporting at worst). */
static void drop_rank(kvr__kv_engine_t *ke, kvr__kv_rank_t *rk, const char *why)
{
    rk->drops++;
    kvr_kv_cache_clear(&rk->cache);
    rk->cache.trusted = true;
    KVR_INFO("kv_blocks_dropped engine=%s rank=%u reason=\"%s\"", ke->engine->id,
             (unsigned)(rk - ke->ranks), why);
}

static void drop_all(kvr__kv_engine_t *ke, const char *why)
{
    for (unsigned r = 0; r < ke->rank_count; r++)
        drop_rank(ke, &ke->ranks[r], why);
    ke->sticky_untrusted = false;
    update_trust(ke);
}

typedef struct applying_s {
    kvr__kv_engine_t *ke;
    kvr__kv_rank_t *rk;
    uint64_t block_events;
} applying_t;

static int on_event(void *arg, const kvr_kv_event_t *ev)
{
    applying_t *a = arg;
    a->rk->events++;
    a->block_events += ev->kind == KVR_KV_EVENT_CLEARED ? 1 : ev->n_hashes;
    kvr_kv_cache_apply(&a->rk->cache, ev);
    if (ev->kind == KVR_KV_EVENT_CLEARED && a->ke->rank_count == 1) {
        /* the engine holds nothing: what we hold (nothing) is exact again */
        a->rk->cache.trusted = true;
        a->ke->sticky_untrusted = false;
        update_trust(a->ke);
    }
    return 0;
}

static void apply_batch(kvr__kv_engine_t *ke, kvr__kv_rank_t *rk, const void *payload, size_t len)
{
    kvr_kv_batch_t batch;
    const char *why;
    applying_t a = {ke, rk, 0};
    int rc = kvr_kv_batch_decode(&ke->kv->dec, payload, len, on_event, &a, &batch, &why);
    rk->batches++;
    ke->rate_tokens -= (double)a.block_events;
    if (rc < 0) {
        rk->decode_errors++;
        if (!ke->sticky_untrusted)
            KVR_WARN("kv_events_rejected engine=%s rank=%u reason=\"%s\" bytes=%zu", ke->engine->id,
                     (unsigned)(rk - ke->ranks), why, len);
        ke->sticky_untrusted = true;
        update_trust(ke);
    }
}

/* The engine's bucket, refilled to now; an engine held back is let go once it is full again. */
static void rate_refill(kvr__kv_engine_t *ke, uint64_t now_ns)
{
    uint64_t rate = ke->engine->feed->cfg.kv_max_block_events;
    if (rate == 0)
        return;
    if (now_ns > ke->rate_refill_ns) {
        ke->rate_tokens += (double)rate * (double)(now_ns - ke->rate_refill_ns) / 1e9;
        if (ke->rate_tokens > (double)rate)
            ke->rate_tokens = (double)rate;
    }
    ke->rate_refill_ns = now_ns;
    if (ke->rate_limited && ke->rate_tokens >= (double)rate) {
        ke->rate_limited = false;
        KVR_INFO("kv_events_rate_resumed engine=%s discarded_batches=%llu", ke->engine->id,
                 (unsigned long long)ke->rate_limited_batches);
        update_trust(ke);
    }
}

/* Whether the engine may have this batch applied; a discard is counted, logged once a second. */
static bool rate_admit(kvr__kv_engine_t *ke, uint64_t now_ns)
{
    if (ke->engine->feed->cfg.kv_max_block_events == 0)
        return true;
    rate_refill(ke, now_ns);
    if (!ke->rate_limited && ke->rate_tokens > 0)
        return true;
    ke->rate_limited_batches++;
    if (!ke->rate_limited) {
        ke->rate_limited = true;
        drop_all(ke, "events over --kv-max-block-events");
    }
    if (ke->rate_log_ns == 0 || now_ns - ke->rate_log_ns >= KVR_NS_PER_SEC) {
        KVR_WARN("kv_events_rate_limited engine=%s max_block_events_per_sec=%llu "
                 "discarded_batches=%llu",
                 ke->engine->id, (unsigned long long)ke->engine->feed->cfg.kv_max_block_events,
                 (unsigned long long)(ke->rate_limited_batches - ke->rate_limited_logged));
        ke->rate_limited_logged = ke->rate_limited_batches;
        ke->rate_log_ns = now_ns;
    }
    return false;
}

/* One sequenced batch from the stream or a replay; false when it must wait (a gap to replay). */
static bool take_batch(kvr__kv_engine_t *ke, kvr__kv_rank_t *rk, int64_t seq, const void *payload,
                       size_t len, bool from_replay, uint64_t now_ns)
{
    bool joining = !rk->have_seq;
    rk->have_seq = true;
    if (joining && (seq == 0 || rk->dealer == NULL)) {
        /* from the engine's start, or no history to ask for: taken as it comes */
    } else if (!joining && seq < rk->next_seq) {
        if (from_replay || (seq >= rk->replay_from && rk->replays > 0))
            return true; /* already applied: the stream repeats what the replay gave */
        rk->resets++;
        drop_rank(ke, rk, "sequence restarted: engine restarted");
        ke->sticky_untrusted = false;
    } else if (joining || seq > rk->next_seq) {
        if (joining)
            rk->next_seq = 0; /* subscribed late: ask for what the engine kept from its start */
        if (from_replay) {
            /* history trimmed by the engine's buffer before anything was held: no loss of ours */
            if (rk->replay_from != 0 || kvr_kv_cache_blocks(&rk->cache) != 0) {
                rk->replay_failures++;
                drop_rank(ke, rk, "replay could not fill the gap");
            }
        } else {
            if (!joining)
                rk->gaps++;
            if (rk->dealer != NULL && !rk->replaying) {
                uint8_t req[8];
                for (int i = 0; i < 8; i++)
                    req[i] = (uint8_t)((uint64_t)rk->next_seq >> (56 - 8 * i));
                if (zmq_send(rk->dealer, "", 0, ZMQ_SNDMORE | ZMQ_DONTWAIT) == 0 &&
                    zmq_send(rk->dealer, req, 8, ZMQ_DONTWAIT) == 8) {
                    rk->replays++;
                    rk->replaying = true;
                    rk->replay_from = rk->next_seq;
                    rk->replay_deadline_ns = now_ns + KV_REPLAY_TIMEOUT_NS;
                    return false;
                }
            }
            drop_rank(ke, rk, "sequence gap without replay");
        }
    }
    rk->next_seq = seq + 1;
    if (rate_admit(ke, now_ns))
        apply_batch(ke, rk, payload, len);
    return true;
}

/* Receives one multipart message of at most 4 parts into msgs; the part count, or -1 when none. */
static int recv_parts(void *sock, zmq_msg_t *msgs, int max)
{
    int parts = 0;
    for (;;) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            return parts ? parts : -1; /* a multipart message arrives whole: no partial reads */
        }
        bool more = zmq_msg_more(&m);
        if (parts < max)
            msgs[parts] = m;
        else
            zmq_msg_close(&m);
        parts++;
        if (!more)
            return parts;
    }
}

static void close_parts(zmq_msg_t *msgs, int parts, int max)
{
    for (int i = 0; i < parts && i < max; i++)
        zmq_msg_close(&msgs[i]);
}

static void bad_frame(kvr__kv_engine_t *ke, kvr__kv_rank_t *rk, const char *why)
{
    rk->decode_errors++;
    if (!ke->sticky_untrusted)
        KVR_WARN("kv_events_rejected engine=%s rank=%u reason=\"%s\"", ke->engine->id,
                 (unsigned)(rk - ke->ranks), why);
    ke->sticky_untrusted = true;
    update_trust(ke);
}

/* Replay answers: ["", seq, payload] ... ["", -1, ""]. */
static void drain_replay(kvr__kv_engine_t *ke, kvr__kv_rank_t *rk, uint64_t now_ns)
{
    for (int n = 0; n < KV_DRAIN_BUDGET && rk->replaying; n++) {
        zmq_msg_t m[4];
        int parts = recv_parts(rk->dealer, m, 4);
        if (parts < 0)
            break;
        int64_t seq;
        if (parts != 3 || zmq_msg_size(&m[0]) != 0 ||
            kvr_kv_seq_parse(zmq_msg_data(&m[1]), zmq_msg_size(&m[1]), &seq) < 0) {
            bad_frame(ke, rk, "replay message is not [\"\", seq, batch]");
        } else if (seq == -1) {
            rk->replaying = false;
        } else if (seq < 0) {
            bad_frame(ke, rk, "negative replay sequence");
        } else {
            take_batch(ke, rk, seq, zmq_msg_data(&m[2]), zmq_msg_size(&m[2]), true, now_ns);
        }
        close_parts(m, parts, 4);
    }
    if (rk->replaying && now_ns >= rk->replay_deadline_ns) {
        rk->replaying = false;
        rk->replay_failures++;
        drop_rank(ke, rk, "replay timed out");
    }
}

static void drain_stream(kvr__kv_engine_t *ke, kvr__kv_rank_t *rk, uint64_t now_ns)
{
    for (int n = 0; n < KV_DRAIN_BUDGET && !rk->replaying; n++) {
        zmq_msg_t m[4];
        int parts = recv_parts(rk->sub, m, 4);
        if (parts < 0)
            break;
        int64_t seq;
        if (parts != 3 || kvr_kv_seq_parse(zmq_msg_data(&m[1]), zmq_msg_size(&m[1]), &seq) < 0 ||
            seq < 0) {
            bad_frame(ke, rk, "message is not [topic, 8-byte sequence, batch]");
            close_parts(m, parts, 4);
            continue;
        }
        if (!take_batch(ke, rk, seq, zmq_msg_data(&m[2]), zmq_msg_size(&m[2]), false, now_ns)) {
            /* asked for a replay: this message comes again in it (or is past it: a gap again) */
            close_parts(m, parts, 4);
            break;
        }
        close_parts(m, parts, 4);
    }
}

/*
 * The publisher's connection broke: the engine died or restarted (a blip of the network
 * reads the same, and under-reporting is the safe side). Run after the stream's drain, so
 * what the engine sent before it went is not applied after the drop.
 */
static void drain_monitor(kvr__kv_engine_t *ke, kvr__kv_rank_t *rk)
{
    for (int n = 0; rk->monitor != NULL && n < KV_DRAIN_BUDGET; n++) {
        zmq_msg_t m[4];
        int parts = recv_parts(rk->monitor, m, 4);
        if (parts < 0)
            break;
        uint16_t event = 0;
        if (parts >= 1 && zmq_msg_size(&m[0]) >= sizeof event)
            memcpy(&event, zmq_msg_data(&m[0]), sizeof event);
        close_parts(m, parts, 4);
        if (event != ZMQ_EVENT_DISCONNECTED)
            continue;
        rk->disconnects++;
        if (kvr_kv_cache_blocks(&rk->cache) != 0 || !rk->cache.trusted) {
            drop_rank(ke, rk, "publisher disconnected: engine stopped or restarted");
            ke->sticky_untrusted = false;
            update_trust(ke);
        }
    }
}

/* The self-check: held blocks against the engine's own KV figures. */
static void self_check(kvr__kv_engine_t *ke)
{
    if (!ke->have_sample)
        return;
    uint64_t held = 0, block = 0;
    for (unsigned r = 0; r < ke->rank_count; r++) {
        held += ke->ranks[r].cache.blocks[KVR_KV_TIER_GPU];
        if (ke->ranks[r].cache.block_size > block)
            block = ke->ranks[r].cache.block_size;
    }
    if (block == 0)
        return;
    /* held * block, saturating: an engine's numbers are input too */
    uint64_t held_tokens = held > UINT64_MAX / block ? UINT64_MAX : held * block;
    const kvr_engine_state_t *s = &ke->sample;
    uint64_t slack = (uint64_t)(s->running + 1) * block * (ke->rank_count ? ke->rank_count : 1);
    bool over = s->kv_tokens_capacity > 0 &&
                held_tokens > s->kv_tokens_capacity + s->kv_tokens_capacity / 8 + slack;
    bool under = s->kv_tokens_used > held_tokens + slack + s->kv_tokens_used / 4;
    bool failed = over || under;
    if (failed && !ke->check_failed) {
        ke->check_failures++;
        if (!ke->logged_check) {
            KVR_WARN("kv_state_untrusted engine=%s held_tokens=%llu kv_tokens_used=%llu "
                     "kv_tokens_capacity=%llu reason=\"%s\"",
                     ke->engine->id, (unsigned long long)held_tokens,
                     (unsigned long long)s->kv_tokens_used,
                     (unsigned long long)s->kv_tokens_capacity,
                     over ? "more blocks than the engine has room for"
                          : "fewer blocks than the engine uses");
            ke->logged_check = true;
        }
    }
    ke->check_failed = failed;
    update_trust(ke);
}

void kvr__feed_kv_tick(kvr__feed_t *feed, uint64_t now_ns)
{
    if (feed->kv == NULL)
        return;
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__kv_engine_t *ke = feed->engines[i]->kv;
        if (ke == NULL || feed->engines[i]->removed)
            continue;
        for (unsigned r = 0; r < ke->rank_count; r++) {
            kvr__kv_rank_t *rk = &ke->ranks[r];
            if (rk->replaying)
                drain_replay(ke, rk, now_ns);
            if (!rk->replaying)
                drain_stream(ke, rk, now_ns);
            drain_monitor(ke, rk);
        }
        if (feed->cfg.kv_max_block_events != 0)
            rate_refill(ke, now_ns);
        self_check(ke);
    }
}

void kvr__feed_kv_sample(kvr__feed_engine_t *engine, const kvr_engine_state_t *sample)
{
    kvr__kv_engine_t *ke = engine->kv;
    if (ke == NULL)
        return;
    /*
     * A cache that empties between two samples may be an engine that restarted. Off by
     * default: vLLM and SGLang count evictable cached blocks as free, so their usage also
     * falls to ~0 whenever a burst ends while every cached block is still there.
     */
    if (ke->engine->feed->cfg.kv_drop_on_usage_fall && ke->have_sample && ke->prev_usage >= 0.5 &&
        sample->kv_usage <= 0.01) {
        ke->usage_drops++;
        drop_all(ke, "KV usage fell sharply");
    }
    ke->prev_usage = sample->kv_usage;
    ke->sample = *sample;
    ke->have_sample = true;
}

void kvr__feed_kv_unhealthy(kvr__feed_engine_t *engine)
{
    kvr__kv_engine_t *ke = engine->kv;
    if (ke == NULL)
        return;
    ke->health_drops++;
    ke->have_sample = false;
    drop_all(ke, "engine unhealthy");
}

static int open_socket(kvr__kv_t *kv, int type, const char *endpoint, bool ipv6, void **out)
{
    void *s = zmq_socket(kv->zctx, type);
    if (s == NULL)
        return -errno;
    int linger = 0, hwm = KV_RCVHWM, v6 = ipv6;
    int64_t max = KV_MAX_MSG_BYTES;
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(s, ZMQ_RCVHWM, &hwm, sizeof hwm);
    zmq_setsockopt(s, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(s, ZMQ_IPV6, &v6, sizeof v6);
    if (type == ZMQ_SUB)
        zmq_setsockopt(s, ZMQ_SUBSCRIBE, "", 0);
    if (zmq_connect(s, endpoint) < 0) {
        int rc = -errno;
        zmq_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

/* Disconnections of the rank's SUB; without them a restart is still seen by its sequence. */
static void open_monitor(kvr__kv_t *kv, const kvr__feed_engine_t *engine, kvr__kv_rank_t *rk,
                         unsigned rank)
{
    char ep[80];
    snprintf(ep, sizeof ep, "inproc://kv-monitor-%p-%u", (void *)rk, rank);
    void *pair = NULL;
    if (zmq_socket_monitor(rk->sub, ep, ZMQ_EVENT_DISCONNECTED) == 0 &&
        (pair = zmq_socket(kv->zctx, ZMQ_PAIR)) != NULL) {
        int linger = 0;
        zmq_setsockopt(pair, ZMQ_LINGER, &linger, sizeof linger);
        if (zmq_connect(pair, ep) == 0) {
            rk->monitor = pair;
            return;
        }
        zmq_close(pair);
    }
    zmq_socket_monitor(rk->sub, NULL, 0);
    KVR_WARN("kv_events_monitor_failed engine=%s rank=%u reason=\"%s\"", engine->id, rank,
             zmq_strerror(zmq_errno()));
}

int kvr__feed_kv_attach(kvr__feed_t *feed, kvr__feed_engine_t *engine,
                        const kvr__feed_engine_spec_t *spec)
{
    if (spec->kv_events_port == 0)
        return 0;
    kvr__kv_t *kv = feed->kv;
    if (kv == NULL)
        return -EINVAL;
    kvr_engine_spec_t parsed;
    char err[200];
    int rc = kvr_engine_spec_parse_url(engine->id, &parsed, err, sizeof err);
    if (rc < 0)
        return rc;
    kvr__kv_engine_t *ke = calloc(1, sizeof(*ke));
    unsigned ranks = spec->kv_dp_ranks ? spec->kv_dp_ranks : 1;
    if (ke == NULL || (ke->ranks = calloc(ranks, sizeof(*ke->ranks))) == NULL) {
        free(ke);
        return -ENOMEM;
    }
    ke->kv = kv;
    ke->engine = engine;
    ke->trusted = true;
    ke->rate_tokens = (double)feed->cfg.kv_max_block_events;
    ke->rate_refill_ns = kvr_clock_now_ns();
    engine->kv = ke;
    bool v6 = parsed.family == AF_INET6;
    kvr_kv_sink_t rank_sink = kv->sink;
    rank_sink.trust = NULL; /* trust is the engine's, over its ranks (update_trust) */
    for (unsigned r = 0; r < ranks; r++) {
        kvr__kv_rank_t *rk = &ke->ranks[r];
        rc = kvr_kv_cache_init(&rk->cache, engine->slot, &rank_sink, feed->cfg.kv_max_blocks);
        if (rc < 0)
            goto fail;
        ke->rank_count = r + 1;
        char ep[KVR_ENGINE_SPEC_HOST_MAX + 32];
        snprintf(ep, sizeof ep, v6 ? "tcp://[%s]:%u" : "tcp://%s:%u", parsed.host,
                 spec->kv_events_port + r);
        rc = open_socket(kv, ZMQ_SUB, ep, v6, &rk->sub);
        if (rc < 0)
            goto fail;
        open_monitor(kv, engine, rk, r);
        if (spec->kv_replay_port) {
            snprintf(ep, sizeof ep, v6 ? "tcp://[%s]:%u" : "tcp://%s:%u", parsed.host,
                     spec->kv_replay_port + r);
            rc = open_socket(kv, ZMQ_DEALER, ep, v6, &rk->dealer);
            if (rc < 0)
                goto fail;
        }
    }
    /* The slot may have held another engine's blocks: this one starts empty and trusted. */
    if (kv->sink.cleared != NULL)
        kv->sink.cleared(kv->sink.ctx, engine->slot);
    if (kv->sink.trust != NULL)
        kv->sink.trust(kv->sink.ctx, engine->slot, true);
    KVR_INFO("kv_events_subscribed engine=%s port=%u replay_port=%u ranks=%u", engine->id,
             spec->kv_events_port, spec->kv_replay_port, ranks);
    return 0;
fail:
    KVR_ERROR("kv_events_subscribe_failed engine=%s reason=\"%s\"", engine->id, kvr_strerror(rc));
    kvr__feed_kv_detach(engine);
    return rc;
}

void kvr__feed_kv_detach(kvr__feed_engine_t *engine)
{
    kvr__kv_engine_t *ke = engine->kv;
    if (ke == NULL)
        return;
    for (unsigned r = 0; r < ke->rank_count; r++) {
        kvr__kv_rank_t *rk = &ke->ranks[r];
        if (rk->monitor != NULL) {
            zmq_socket_monitor(rk->sub, NULL, 0);
            zmq_close(rk->monitor);
        }
        if (rk->sub != NULL)
            zmq_close(rk->sub);
        if (rk->dealer != NULL)
            zmq_close(rk->dealer);
        kvr_kv_cache_clear(&rk->cache);
        kvr_kv_cache_close(&rk->cache);
    }
    free(ke->ranks);
    free(ke);
    engine->kv = NULL;
}

int kvr__feed_kv_start(kvr__feed_t *feed, const kvr_kv_sink_t *sink)
{
    bool wanted = false;
    for (unsigned i = 0; i < feed->cfg.engine_count; i++)
        wanted = wanted || feed->cfg.engines[i].kv_events_port != 0;
    if (!wanted && feed->cfg.config_path[0] == '\0')
        return 0;
    kvr__kv_t *kv = calloc(1, sizeof(*kv));
    if (kv == NULL)
        return -ENOMEM;
    if (sink != NULL)
        kv->sink = *sink;
    int rc = kvr_kv_decoder_init(&kv->dec);
    if (rc < 0) {
        free(kv);
        return rc;
    }
    kv->zctx = zmq_ctx_new();
    if (kv->zctx == NULL) {
        rc = -errno;
        kvr_kv_decoder_close(&kv->dec);
        free(kv);
        KVR_ERROR("kv_events_start_failed reason=\"%s\"", kvr_strerror(rc));
        return rc;
    }
    feed->kv = kv;
    return 0;
}

void kvr__feed_kv_stop(kvr__feed_t *feed)
{
    kvr__kv_t *kv = feed->kv;
    if (kv == NULL)
        return;
    for (unsigned i = 0; i < feed->engine_count; i++)
        kvr__feed_kv_detach(feed->engines[i]);
    zmq_ctx_term(kv->zctx);
    kvr_kv_decoder_close(&kv->dec);
    free(kv);
    feed->kv = NULL;
}

typedef uint64_t (*rank_counter_fn)(const kvr__kv_rank_t *rk);
#define RANK_COUNTER(field)                                                                        \
    static uint64_t rank_##field(const kvr__kv_rank_t *rk)                                         \
    {                                                                                              \
        return rk->field;                                                                          \
    }
RANK_COUNTER(events)
RANK_COUNTER(batches)
RANK_COUNTER(gaps)
RANK_COUNTER(replays)
RANK_COUNTER(replay_failures)
RANK_COUNTER(resets)
RANK_COUNTER(decode_errors)
RANK_COUNTER(drops)
RANK_COUNTER(disconnects)
static uint64_t rank_orphans(const kvr__kv_rank_t *rk)
{
    return rk->cache.orphans;
}
static uint64_t rank_stored(const kvr__kv_rank_t *rk)
{
    return rk->cache.stored;
}
static uint64_t rank_removed(const kvr__kv_rank_t *rk)
{
    return rk->cache.removed;
}

void kvr__feed_kv_metrics(kvr__feed_t *feed, struct kvr_prom_writer_s *w)
{
    if (feed->kv == NULL)
        return;
    static const struct {
        const char *name, *help;
        rank_counter_fn get;
    } counters[] = {
        {"kvroute_statefeed_kv_events_total", "KV events applied per engine.", rank_events},
        {"kvroute_statefeed_kv_batches_total", "KV event batches received per engine.",
         rank_batches},
        {"kvroute_statefeed_kv_blocks_stored_total", "Blocks stored by an engine's events.",
         rank_stored},
        {"kvroute_statefeed_kv_blocks_removed_total", "Blocks removed by an engine's events.",
         rank_removed},
        {"kvroute_statefeed_kv_gaps_total", "Sequence gaps in an engine's event stream.",
         rank_gaps},
        {"kvroute_statefeed_kv_replays_total", "Replays asked of an engine's replay socket.",
         rank_replays},
        {"kvroute_statefeed_kv_replay_failures_total",
         "Replays that timed out or could not fill the gap.", rank_replay_failures},
        {"kvroute_statefeed_kv_resets_total",
         "Sequence restarts (engine restarts) seen per engine.", rank_resets},
        {"kvroute_statefeed_kv_decode_errors_total",
         "KV event messages rejected per engine (the state turns untrusted).", rank_decode_errors},
        {"kvroute_statefeed_kv_drops_total", "Times an engine's blocks were all dropped.",
         rank_drops},
        {"kvroute_statefeed_kv_disconnects_total",
         "Connections to an engine's event publisher that broke (its blocks are dropped).",
         rank_disconnects},
        {"kvroute_statefeed_kv_orphan_blocks_total",
         "Stored blocks kvroute could not name (unknown parent, extra keys, unnamed adapter).",
         rank_orphans},
    };
    for (size_t c = 0; c < sizeof counters / sizeof counters[0]; c++) {
        kvr_prom_family(w, counters[c].name, KVR_PROM_COUNTER, counters[c].help);
        for (unsigned i = 0; i < feed->engine_count; i++) {
            kvr__kv_engine_t *ke = feed->engines[i]->kv;
            if (ke == NULL || feed->engines[i]->removed)
                continue;
            uint64_t sum = 0;
            for (unsigned r = 0; r < ke->rank_count; r++)
                sum += counters[c].get(&ke->ranks[r]);
            kvr_prom_label_t l = {"engine", ke->engine->id};
            kvr_prom_sample_u64(w, counters[c].name, &l, 1, sum);
        }
    }
    kvr_prom_family(w, "kvroute_statefeed_kv_blocks", KVR_PROM_GAUGE,
                    "Blocks an engine's KV events say it holds, per tier.");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__kv_engine_t *ke = feed->engines[i]->kv;
        if (ke == NULL || feed->engines[i]->removed)
            continue;
        for (int t = 0; t < KVR_KV_TIERS; t++) {
            uint64_t sum = 0;
            for (unsigned r = 0; r < ke->rank_count; r++)
                sum += ke->ranks[r].cache.blocks[t];
            kvr_prom_label_t l[] = {{"engine", ke->engine->id},
                                    {"tier", kvr_kv_tier_name((kvr_kv_tier_t)t)}};
            kvr_prom_sample_u64(w, "kvroute_statefeed_kv_blocks", l, 2, sum);
        }
    }
    kvr_prom_family(w, "kvroute_statefeed_kv_trusted", KVR_PROM_GAUGE,
                    "1 while an engine's block state is trusted.");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__kv_engine_t *ke = feed->engines[i]->kv;
        if (ke == NULL || feed->engines[i]->removed)
            continue;
        kvr_prom_label_t l = {"engine", ke->engine->id};
        kvr_prom_sample_u64(w, "kvroute_statefeed_kv_trusted", &l, 1, ke->trusted ? 1 : 0);
    }
    kvr_prom_family(w, "kvroute_statefeed_kv_rate_limited_batches_total", KVR_PROM_COUNTER,
                    "KV event batches discarded undecoded: the engine sent block events faster "
                    "than --kv-max-block-events.");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__kv_engine_t *ke = feed->engines[i]->kv;
        if (ke == NULL || feed->engines[i]->removed)
            continue;
        kvr_prom_label_t l = {"engine", ke->engine->id};
        kvr_prom_sample_u64(w, "kvroute_statefeed_kv_rate_limited_batches_total", &l, 1,
                            ke->rate_limited_batches);
    }
    kvr_prom_family(w, "kvroute_statefeed_kv_check_failures_total", KVR_PROM_COUNTER,
                    "Self-checks where held blocks disagreed with the engine's KV usage.");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__kv_engine_t *ke = feed->engines[i]->kv;
        if (ke == NULL || feed->engines[i]->removed)
            continue;
        kvr_prom_label_t l = {"engine", ke->engine->id};
        kvr_prom_sample_u64(w, "kvroute_statefeed_kv_check_failures_total", &l, 1,
                            ke->check_failures);
    }
}
