/* SPDX-License-Identifier: Apache-2.0 */
/*
 * KV events of the simulated engines, on the wire vLLM and SGLang use: per
 * rank a ZMQ PUB sending [topic, 8-byte big-endian sequence, msgpack batch]
 * and, with --kv-replay-port, a ROUTER answering a request [“”, start seq]
 * with every kept batch from start and then the end marker (sequence -1).
 * A block is stored when the step computing it is planned (vLLM caches a
 * block when it schedules its tokens) and removed when evicted, or when its
 * request leaves before the block was computed.
 * The events of a step go out as one batch, as an engine publishes them.
 */
#include <errno.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "bench/sim/sim.h"
#include "common/log.h"
#include "common/xmalloc.h"

#define KV_REPLAY_KEEP 4096 /* batches kept for replay, as vLLM's buffer_steps */
#define KV_TIMER_MS 5

typedef struct kept_s {
    uint64_t seq;
    char *data;
    size_t len;
} kept_t;

typedef struct kvr_sim_kv_pub_s {
    kvr_sim_rank_t *rank;
    void *pub, *router;
    uint64_t seq;
    bool positional;
    msgpack_sbuffer body; /* the pending events, packed */
    msgpack_packer pk;
    size_t n_events;
    kept_t kept[KV_REPLAY_KEEP];
    size_t kept_head, kept_count; /* ring: the oldest at kept_head */
    uint32_t drop_next;
    uint64_t subscriptions; /* subscribe messages the XPUB has seen */
} kvr_sim_kv_pub_t;

static void pack_str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str(pk, strlen(s));
    msgpack_pack_str_body(pk, s, strlen(s));
}

static void on_stored(void *ctx, uint64_t hash, const uint64_t *parent, const uint32_t *tokens)
{
    kvr_sim_kv_pub_t *p = ctx;
    msgpack_packer *pk = &p->pk;
    if (p->positional) {
        /* SGLang's BlockStored: [tag, block_hashes, parent_block_hash, token_ids, block_size, lora_id] */
        msgpack_pack_array(pk, 6);
        pack_str(pk, "BlockStored");
    } else {
        msgpack_pack_map(pk, 8);
        pack_str(pk, "type");
        pack_str(pk, "BlockStored");
        pack_str(pk, "block_hashes");
    }
    msgpack_pack_array(pk, 1);
    msgpack_pack_uint64(pk, hash);
    if (!p->positional)
        pack_str(pk, "parent_block_hash");
    if (parent)
        msgpack_pack_uint64(pk, *parent);
    else
        msgpack_pack_nil(pk);
    if (!p->positional)
        pack_str(pk, "token_ids");
    msgpack_pack_array(pk, KVR_SIM_BLOCK_TOKENS);
    for (unsigned i = 0; i < KVR_SIM_BLOCK_TOKENS; i++)
        msgpack_pack_uint32(pk, tokens ? tokens[i] : (uint32_t)(hash >> (i % 2 * 32)));
    if (!p->positional)
        pack_str(pk, "block_size");
    msgpack_pack_uint32(pk, KVR_SIM_BLOCK_TOKENS);
    if (!p->positional)
        pack_str(pk, "lora_id");
    msgpack_pack_nil(pk);
    if (!p->positional) {
        pack_str(pk, "medium");
        pack_str(pk, "GPU");
        pack_str(pk, "lora_name");
        msgpack_pack_nil(pk);
    }
    p->n_events++;
}

static void on_evict(void *ctx, uint64_t hash)
{
    kvr_sim_kv_pub_t *p = ctx;
    msgpack_packer *pk = &p->pk;
    if (p->positional) {
        msgpack_pack_array(pk, 2);
        pack_str(pk, "BlockRemoved");
    } else {
        msgpack_pack_map(pk, 3);
        pack_str(pk, "type");
        pack_str(pk, "BlockRemoved");
        pack_str(pk, "block_hashes");
    }
    msgpack_pack_array(pk, 1);
    msgpack_pack_uint64(pk, hash);
    if (!p->positional) {
        pack_str(pk, "medium");
        pack_str(pk, "GPU");
    }
    p->n_events++;
}

static void seq_bytes(uint64_t seq, uint8_t out[8])
{
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(seq >> (56 - 8 * i));
}

static void keep(kvr_sim_kv_pub_t *p, uint64_t seq, char *data, size_t len)
{
    if (p->kept_count == KV_REPLAY_KEEP) {
        free(p->kept[p->kept_head].data);
        p->kept_head = (p->kept_head + 1) % KV_REPLAY_KEEP;
        p->kept_count--;
    }
    kept_t *k = &p->kept[(p->kept_head + p->kept_count++) % KV_REPLAY_KEEP];
    k->seq = seq;
    k->data = data;
    k->len = len;
}

void kvr_sim_kv_flush(kvr_sim_rank_t *rank)
{
    kvr_sim_kv_pub_t *p = rank->kv;
    if (p == NULL || p->n_events == 0)
        return;
    msgpack_sbuffer batch;
    msgpack_sbuffer_init(&batch);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &batch, msgpack_sbuffer_write);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    if (p->positional) {
        msgpack_pack_array(&pk, 3);
        msgpack_pack_double(&pk, now);
        msgpack_pack_array(&pk, p->n_events);
        msgpack_sbuffer_write(&batch, p->body.data, p->body.size);
        msgpack_pack_int(&pk, rank->index);
    } else {
        msgpack_pack_map(&pk, 3);
        pack_str(&pk, "ts");
        msgpack_pack_double(&pk, now);
        pack_str(&pk, "data_parallel_rank");
        msgpack_pack_int(&pk, rank->index);
        pack_str(&pk, "events");
        msgpack_pack_array(&pk, p->n_events);
        msgpack_sbuffer_write(&batch, p->body.data, p->body.size);
    }
    msgpack_sbuffer_clear(&p->body);
    p->n_events = 0;
    uint64_t seq = p->seq++;
    if (p->drop_next > 0) {
        p->drop_next--; /* lost on the way: only a replay brings it */
    } else {
        uint8_t sb[8];
        seq_bytes(seq, sb);
        zmq_send(p->pub, "", 0, ZMQ_SNDMORE | ZMQ_DONTWAIT);
        zmq_send(p->pub, sb, 8, ZMQ_SNDMORE | ZMQ_DONTWAIT);
        zmq_send(p->pub, batch.data, batch.size, ZMQ_DONTWAIT);
    }
    size_t len = batch.size;
    keep(p, seq, msgpack_sbuffer_release(&batch), len);
}

/* One replay request: [identity, "", start] -> [identity, "", seq, batch]... [identity, "", -1, ""]. */
static void serve_replay(kvr_sim_kv_pub_t *p)
{
    for (int n = 0; n < 64; n++) {
        zmq_msg_t part[4];
        int parts = 0;
        bool more = true;
        while (more) {
            zmq_msg_t m;
            zmq_msg_init(&m);
            if (zmq_msg_recv(&m, p->router, ZMQ_DONTWAIT) < 0) {
                zmq_msg_close(&m);
                break;
            }
            more = zmq_msg_more(&m);
            if (parts < 4)
                part[parts] = m;
            else
                zmq_msg_close(&m);
            parts++;
        }
        if (parts == 0)
            return;
        if (parts == 3 && zmq_msg_size(&part[2]) == 8) {
            const uint8_t *b = zmq_msg_data(&part[2]);
            uint64_t start = 0;
            for (int i = 0; i < 8; i++)
                start = start << 8 | b[i];
            size_t id_len = zmq_msg_size(&part[0]);
            const void *id = zmq_msg_data(&part[0]);
            for (size_t i = 0; i < p->kept_count; i++) {
                const kept_t *k = &p->kept[(p->kept_head + i) % KV_REPLAY_KEEP];
                if (k->seq < start)
                    continue;
                uint8_t sb[8];
                seq_bytes(k->seq, sb);
                zmq_send(p->router, id, id_len, ZMQ_SNDMORE | ZMQ_DONTWAIT);
                zmq_send(p->router, "", 0, ZMQ_SNDMORE | ZMQ_DONTWAIT);
                zmq_send(p->router, sb, 8, ZMQ_SNDMORE | ZMQ_DONTWAIT);
                zmq_send(p->router, k->data, k->len, ZMQ_DONTWAIT);
            }
            uint8_t end[8];
            seq_bytes(UINT64_MAX, end);
            zmq_send(p->router, id, id_len, ZMQ_SNDMORE | ZMQ_DONTWAIT);
            zmq_send(p->router, "", 0, ZMQ_SNDMORE | ZMQ_DONTWAIT);
            zmq_send(p->router, end, 8, ZMQ_SNDMORE | ZMQ_DONTWAIT);
            zmq_send(p->router, "", 0, ZMQ_DONTWAIT);
        } else {
            KVR_WARN("sim_kv_replay_refused parts=%d", parts);
        }
        for (int i = 0; i < parts && i < 4; i++)
            zmq_msg_close(&part[i]);
    }
}

/* An XPUB hands over its subscribers' (un)subscribe messages: a test waits for one. */
static void take_subscriptions(kvr_sim_kv_pub_t *p)
{
    for (int n = 0; n < 64; n++) {
        uint8_t msg[256];
        int len = zmq_recv(p->pub, msg, sizeof msg, ZMQ_DONTWAIT);
        if (len < 0)
            return;
        if (len >= 1 && msg[0] == 1)
            p->subscriptions++;
    }
}

static void kv_timer_cb(uv_timer_t *t)
{
    kvr_sim_fleet_t *fleet = t->data;
    for (int i = 0; i < fleet->cfg.engines; i++) {
        kvr_sim_engine_t *e = &fleet->engines[i];
        for (int r = 0; r < e->dp; r++) {
            kvr_sim_kv_flush(&e->ranks[r]);
            if (e->ranks[r].kv)
                take_subscriptions(e->ranks[r].kv);
            if (e->ranks[r].kv && e->ranks[r].kv->router)
                serve_replay(e->ranks[r].kv);
        }
    }
}

static int bind_socket(kvr_sim_fleet_t *fleet, int type, int port, void **out)
{
    void *s = zmq_socket(fleet->zctx, type);
    if (s == NULL)
        return -errno;
    int linger = 0, v6 = strchr(fleet->cfg.host, ':') != NULL;
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(s, ZMQ_IPV6, &v6, sizeof v6);
    char ep[128];
    snprintf(ep, sizeof ep, v6 ? "tcp://[%s]:%d" : "tcp://%s:%d", fleet->cfg.host, port);
    if (zmq_bind(s, ep) < 0) {
        int rc = -errno;
        KVR_ERROR("sim_kv_bind_failed endpoint=%s error=\"%s\"", ep, zmq_strerror(-rc));
        zmq_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

int kvr_sim_kv_open(kvr_sim_fleet_t *fleet)
{
    const kvr_sim_config_t *cfg = &fleet->cfg;
    if (cfg->kv_events_port == 0)
        return 0;
    fleet->zctx = zmq_ctx_new();
    if (fleet->zctx == NULL)
        return -errno;
    for (int i = 0; i < cfg->engines; i++) {
        kvr_sim_engine_t *e = &fleet->engines[i];
        for (int r = 0; r < e->dp; r++) {
            kvr_sim_rank_t *rank = &e->ranks[r];
            kvr_sim_kv_pub_t *p = kvr_xcalloc(1, sizeof *p);
            p->rank = rank;
            p->positional = cfg->kv_encoding == 1;
            msgpack_sbuffer_init(&p->body);
            msgpack_packer_init(&p->pk, &p->body, msgpack_sbuffer_write);
            rank->kv = p;
            int off = i * e->dp + r;
            /* XPUB: a PUB that also tells who subscribed (GET /admin/state) */
            int rc = bind_socket(fleet, ZMQ_XPUB, cfg->kv_events_port + off, &p->pub);
            if (rc == 0 && cfg->kv_replay_port)
                rc = bind_socket(fleet, ZMQ_ROUTER, cfg->kv_replay_port + off, &p->router);
            if (rc < 0)
                return rc;
            rank->model.on_stored = on_stored;
            rank->model.stored_ctx = p;
            rank->model.cache.on_evict = on_evict;
            rank->model.cache.evict_ctx = p;
        }
    }
    uv_timer_init(fleet->loop, &fleet->kv_timer);
    fleet->kv_timer.data = fleet;
    uv_timer_start(&fleet->kv_timer, kv_timer_cb, KV_TIMER_MS, KV_TIMER_MS);
    KVR_INFO("sim_kv_events port=%d replay_port=%d encoding=%s", cfg->kv_events_port,
             cfg->kv_replay_port, cfg->kv_encoding == 1 ? "array" : "map");
    return 0;
}

static void forget_kept(kvr_sim_kv_pub_t *p)
{
    for (size_t i = 0; i < p->kept_count; i++)
        free(p->kept[(p->kept_head + i) % KV_REPLAY_KEEP].data);
    p->kept_head = p->kept_count = 0;
}

void kvr_sim_kv_restart(kvr_sim_engine_t *e)
{
    for (int r = 0; r < e->dp; r++) {
        kvr_sim_kv_pub_t *p = e->ranks[r].kv;
        if (p == NULL)
            continue;
        kvr_sim_kv_flush(&e->ranks[r]);
        p->seq = 0;
        forget_kept(p);
    }
    KVR_INFO("sim_kv_restarted engine=%s", e->engine_id);
}

void kvr_sim_kv_drop(kvr_sim_engine_t *e, uint32_t n)
{
    for (int r = 0; r < e->dp; r++)
        if (e->ranks[r].kv)
            e->ranks[r].kv->drop_next = n;
}

uint64_t kvr_sim_kv_seq(const kvr_sim_rank_t *rank)
{
    return rank->kv ? rank->kv->seq : 0;
}

uint64_t kvr_sim_kv_subscriptions(const kvr_sim_rank_t *rank)
{
    return rank->kv ? rank->kv->subscriptions : 0;
}

void kvr_sim_kv_close(kvr_sim_fleet_t *fleet)
{
    if (fleet->zctx == NULL)
        return;
    uv_close((uv_handle_t *)&fleet->kv_timer, NULL);
    for (int i = 0; fleet->engines && i < fleet->cfg.engines; i++) {
        kvr_sim_engine_t *e = &fleet->engines[i];
        for (int r = 0; r < e->dp; r++) {
            kvr_sim_kv_pub_t *p = e->ranks[r].kv;
            if (p == NULL)
                continue;
            if (p->pub)
                zmq_close(p->pub);
            if (p->router)
                zmq_close(p->router);
            forget_kept(p);
            msgpack_sbuffer_destroy(&p->body);
            e->ranks[r].model.on_stored = NULL;
            e->ranks[r].model.cache.on_evict = NULL;
            free(p);
            e->ranks[r].kv = NULL;
        }
    }
    zmq_ctx_term(fleet->zctx);
    fleet->zctx = NULL;
}
