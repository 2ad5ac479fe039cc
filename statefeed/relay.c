/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Source "relay", both ends. --export streams the whole table every tick to
 * each subscriber as one msgpack map:
 *   {"relay": 1, "engines": [ {"state": <state frame map>, "age_ns": uint,
 *                              "healthy": bool, "sampled": bool}, ... ]}
 * Ages, not timestamps, cross hosts: the receiver's sample time is its
 * receipt time minus the age, so no clock needs to agree with another.
 * --import subscribes to such a stream and keeps one local slot per remote
 * engine; engines that leave the remote table leave the local one.
 */
#include <errno.h>
#include <msgpack.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/state_frame.h"
#include "statefeed/feed.h"

#define MAX_SUBSCRIBERS 16
#define IMPORT_RECV_CHUNK 65536
#define IMPORT_MAX_BUFFER (16u << 20)

typedef struct {
    int fd;
    kvr_op_t op;
    char *buf;
    size_t len, sent;
    bool sending;
} subscriber_t;

/* One --import: a subscription to another statefeed's export. */
typedef struct {
    unsigned index;              /* engines it owns carry index + 1 in relay_source */
    const char *addr_text;       /* "tcp:HOST:PORT" as configured */
    struct sockaddr_storage addr;
    socklen_t addr_len;
    int fd;
    bool connected, busy;
    kvr_op_t op;
    struct __kernel_timespec ts;
    msgpack_unpacker unpacker;
    bool unpacker_ready;
    uint64_t backoff_ns, retry_at_ns, last_frame_ns;
    uint64_t frames_rejected;
} import_t;

typedef struct kvr_relay_s {
    /* export */
    int listen_fd;
    kvr_op_t accept_op;
    subscriber_t subs[MAX_SUBSCRIBERS];
    /* imports */
    import_t imports[KVR_FEED_MAX_IMPORTS];
    unsigned import_count;
} kvr_relay_t;

static int resolve(const char *hostport, bool passive, struct sockaddr_storage *addr, socklen_t *len)
{
    char host[256];
    snprintf(host, sizeof(host), "%s", hostport);
    char *colon = strrchr(host, ':');
    const char *port = host;
    char *h = NULL;
    if (colon != NULL) {
        *colon = '\0';
        port = colon + 1;
        h = host;
        if (h[0] == '[') {
            h++;
            char *close = strchr(h, ']');
            if (close != NULL)
                *close = '\0';
        }
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)};
    struct addrinfo *res = NULL;
    if (getaddrinfo(h && h[0] ? h : (passive ? "0.0.0.0" : NULL), port, &hints, &res) != 0 || res == NULL)
        return -EINVAL;
    memcpy(addr, res->ai_addr, res->ai_addrlen);
    *len = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

static void arm_accept(kvr_feed_t *feed, kvr_relay_t *r)
{
    struct io_uring_sqe *sqe = kvr_ring_sqe(&feed->ring);
    if (sqe == NULL)
        return;
    io_uring_prep_accept(sqe, r->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    io_uring_sqe_set_data(sqe, &r->accept_op);
}

static int export_start(kvr_feed_t *feed, kvr_relay_t *r)
{
    struct sockaddr_storage addr;
    socklen_t len;
    if (resolve(feed->cfg.export_addr + 4, true, &addr, &len) < 0) {
        KVR_ERROR("export_failed addr=%s reason=\"expected tcp:[HOST:]PORT\"", feed->cfg.export_addr);
        return -EINVAL;
    }
    int fd = socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, (struct sockaddr *)&addr, len) < 0 || listen(fd, 16) < 0) {
        int err = -errno;
        close(fd);
        KVR_ERROR("export_failed addr=%s reason=\"%s\"", feed->cfg.export_addr, kvr_strerror(err));
        return err;
    }
    r->listen_fd = fd;
    KVR_INFO("export_listening addr=%s", feed->cfg.export_addr);
    arm_accept(feed, r);
    return 0;
}

int kvr_feed_relay_start(kvr_feed_t *feed)
{
    if (feed->cfg.export_addr[0] == '\0' && feed->cfg.import_count == 0)
        return 0;
    kvr_relay_t *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return -ENOMEM;
    r->listen_fd = -1;
    r->accept_op.kind = KVR_OP_EXPORT_ACCEPT;
    for (int i = 0; i < MAX_SUBSCRIBERS; i++) {
        r->subs[i].fd = -1;
        r->subs[i].op.kind = KVR_OP_EXPORT_SEND;
        r->subs[i].op.owner = &r->subs[i];
    }
    feed->relay = r;
    if (feed->cfg.export_addr[0] != '\0') {
        int rc = export_start(feed, r);
        if (rc < 0)
            return rc;
    }
    for (unsigned i = 0; i < feed->cfg.import_count; i++) {
        import_t *imp = &r->imports[i];
        imp->index = i;
        imp->fd = -1;
        imp->op.kind = KVR_OP_IMPORT;
        imp->op.owner = imp;
        imp->addr_text = feed->cfg.import_addrs[i];
        r->import_count++;
        if (resolve(imp->addr_text + 4, false, &imp->addr, &imp->addr_len) < 0) {
            KVR_ERROR("import_failed addr=%s reason=\"expected tcp:HOST:PORT\"", imp->addr_text);
            return -EINVAL;
        }
        if (!msgpack_unpacker_init(&imp->unpacker, IMPORT_RECV_CHUNK))
            return -ENOMEM;
        imp->unpacker_ready = true;
    }
    return 0;
}

/* ---- export ---------------------------------------------------------------- */

static void pack_str(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

static void build_table(kvr_feed_t *feed, msgpack_sbuffer *sb, uint64_t now_ns)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    unsigned count = 0;
    for (unsigned i = 0; i < feed->engine_count; i++)
        count += !feed->engines[i]->removed;
    msgpack_pack_map(&pk, 2);
    pack_str(&pk, "relay");
    msgpack_pack_uint32(&pk, 1);
    pack_str(&pk, "engines");
    msgpack_pack_array(&pk, count);
    uint64_t wall = kvr_clock_wall_ns();
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr_feed_engine_t *e = feed->engines[i];
        if (e->removed)
            continue;
        kvr_state_frame_t f;
        memset(&f, 0, sizeof(f));
        f.version = KVR_STATE_FRAME_VERSION;
        kvr_shm_writer_state(&feed->shm, e->slot, &f.state);
        bool sampled = f.state.sample_time_ns != 0;
        uint64_t age = sampled ? kvr_clock_age_ns(now_ns, f.state.sample_time_ns) : 0;
        f.sample_unix_ns = wall - age;
        f.has_seq = true;
        f.seq = f.state.sample_seq;
        msgpack_pack_map(&pk, 4);
        pack_str(&pk, "state");
        kvr_state_frame_pack(&pk, &f);
        pack_str(&pk, "age_ns");
        msgpack_pack_uint64(&pk, age);
        pack_str(&pk, "healthy");
        if (f.state.flags & KVR_SLOT_HEALTHY)
            msgpack_pack_true(&pk);
        else
            msgpack_pack_false(&pk);
        pack_str(&pk, "sampled");
        if (sampled)
            msgpack_pack_true(&pk);
        else
            msgpack_pack_false(&pk);
    }
}

static void sub_close(subscriber_t *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    s->sending = false;
}

static void sub_send(kvr_feed_t *feed, subscriber_t *s)
{
    struct io_uring_sqe *sqe = kvr_ring_sqe(&feed->ring);
    if (sqe == NULL) {
        sub_close(s);
        return;
    }
    s->sending = true;
    io_uring_prep_send(sqe, s->fd, s->buf + s->sent, s->len - s->sent, MSG_NOSIGNAL);
    io_uring_sqe_set_data(sqe, &s->op);
}

static void export_tick(kvr_feed_t *feed, kvr_relay_t *r, uint64_t now_ns)
{
    bool any = false;
    for (int i = 0; i < MAX_SUBSCRIBERS; i++)
        any |= r->subs[i].fd >= 0 && !r->subs[i].sending;
    if (!any)
        return;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    build_table(feed, &sb, now_ns);
    for (int i = 0; i < MAX_SUBSCRIBERS; i++) {
        subscriber_t *s = &r->subs[i];
        /* A subscriber still taking the last table skips this one: each table
         * is complete, so it loses nothing but a tick of freshness. */
        if (s->fd < 0 || s->sending)
            continue;
        char *buf = realloc(s->buf, sb.size);
        if (buf == NULL)
            continue;
        s->buf = buf;
        memcpy(s->buf, sb.data, sb.size);
        s->len = sb.size;
        s->sent = 0;
        sub_send(feed, s);
    }
    msgpack_sbuffer_destroy(&sb);
}

/* ---- import ---------------------------------------------------------------- */

static void import_disconnect(kvr_feed_t *feed, import_t *imp, int why)
{
    if (imp->fd >= 0)
        close(imp->fd);
    if (imp->connected || why != -ECONNREFUSED)
        KVR_WARN("import_disconnected addr=%s reason=\"%s\"", imp->addr_text, kvr_strerror(why));
    imp->fd = -1;
    imp->connected = false;
    imp->busy = false;
    imp->backoff_ns = imp->backoff_ns ? imp->backoff_ns * 2 : feed->cfg.period_ns;
    if (imp->backoff_ns > feed->cfg.backoff_max_ns)
        imp->backoff_ns = feed->cfg.backoff_max_ns;
    imp->retry_at_ns = kvr_clock_now_ns() + imp->backoff_ns;
    msgpack_unpacker_reset(&imp->unpacker);
}

static void import_arm(kvr_feed_t *feed, import_t *imp)
{
    if (io_uring_sq_space_left(&feed->ring) < 2)
        io_uring_submit(&feed->ring);
    struct io_uring_sqe *sqe = io_uring_get_sqe(&feed->ring);
    if (sqe == NULL) {
        import_disconnect(feed, imp, -EBUSY);
        return;
    }
    /* The exporter sends every tick: a second of silence means a dead stream. */
    uint64_t idle = 20 * feed->cfg.period_ns > KVR_NS_PER_SEC ? 20 * feed->cfg.period_ns : KVR_NS_PER_SEC;
    if (!imp->connected) {
        io_uring_prep_connect(sqe, imp->fd, (struct sockaddr *)&imp->addr, imp->addr_len);
    } else {
        if (!msgpack_unpacker_reserve_buffer(&imp->unpacker, IMPORT_RECV_CHUNK) ||
            msgpack_unpacker_buffer_capacity(&imp->unpacker) == 0) {
            io_uring_prep_nop(sqe);
            io_uring_sqe_set_data(sqe, NULL);
            import_disconnect(feed, imp, -ENOMEM);
            return;
        }
        io_uring_prep_recv(sqe, imp->fd, msgpack_unpacker_buffer(&imp->unpacker),
                           msgpack_unpacker_buffer_capacity(&imp->unpacker), 0);
    }
    io_uring_sqe_set_data(sqe, &imp->op);
    imp->busy = true;
    kvr_ring_link_timeout(&feed->ring, sqe, &imp->ts, kvr_clock_now_ns() + idle);
}

static void import_connect(kvr_feed_t *feed, import_t *imp)
{
    imp->fd = socket(imp->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (imp->fd < 0) {
        import_disconnect(feed, imp, -errno);
        return;
    }
    int one = 1;
    setsockopt(imp->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    import_arm(feed, imp);
}

static const msgpack_object *map_get(const msgpack_object *map, const char *key)
{
    size_t klen = strlen(key);
    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object_kv *kv = &map->via.map.ptr[i];
        if (kv->key.type == MSGPACK_OBJECT_STR && kv->key.via.str.size == klen &&
            memcmp(kv->key.via.str.ptr, key, klen) == 0)
            return &kv->val;
    }
    return NULL;
}

static int import_table(kvr_feed_t *feed, import_t *imp, const msgpack_object *root, uint64_t now_ns)
{
    if (root->type != MSGPACK_OBJECT_MAP)
        return KVR_EPARSE;
    const msgpack_object *ver = map_get(root, "relay");
    const msgpack_object *engines = map_get(root, "engines");
    if (ver == NULL || ver->type != MSGPACK_OBJECT_POSITIVE_INTEGER || ver->via.u64 != 1 ||
        engines == NULL || engines->type != MSGPACK_OBJECT_ARRAY)
        return KVR_EPARSE;
    /* Mark-and-sweep: relay engines absent from this table leave ours. */
    bool seen[feed->engine_count + 1];
    memset(seen, 0, sizeof(seen));
    unsigned known = feed->engine_count;
    for (uint32_t i = 0; i < engines->via.array.size; i++) {
        const msgpack_object *entry = &engines->via.array.ptr[i];
        if (entry->type != MSGPACK_OBJECT_MAP)
            return KVR_EPARSE;
        const msgpack_object *st = map_get(entry, "state");
        const msgpack_object *age = map_get(entry, "age_ns");
        const msgpack_object *healthy = map_get(entry, "healthy");
        const msgpack_object *sampled = map_get(entry, "sampled");
        if (st == NULL || age == NULL || age->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
            healthy == NULL || healthy->type != MSGPACK_OBJECT_BOOLEAN || sampled == NULL ||
            sampled->type != MSGPACK_OBJECT_BOOLEAN)
            return KVR_EPARSE;
        kvr_state_frame_t f;
        const char *reason = NULL;
        int rc = kvr_state_frame_from_object(st, &f, &reason);
        if (rc < 0)
            return rc;
        kvr_feed_engine_t *e = kvr_feed_engine_find(feed, f.state.engine_id);
        if (e == NULL) {
            if (kvr_feed_engine_add(feed, f.state.engine_id, KVR_FEED_KIND_RELAY, false) < 0)
                continue;
            e = feed->engines[feed->engine_count - 1];
            e->relay_source = imp->index + 1;
        } else if (e->kind != KVR_FEED_KIND_RELAY || e->relay_source != imp->index + 1) {
            continue; /* polled here, or relayed by another import first: one writer per slot */
        }
        for (unsigned j = 0; j < known; j++)
            if (feed->engines[j] == e)
                seen[j] = true;
        if (!sampled->via.boolean)
            continue;
        uint64_t age_ns = age->via.u64 < now_ns ? age->via.u64 : now_ns - 1;
        kvr_feed_publish_relayed(feed, e, &f.state, now_ns - age_ns, healthy->via.boolean, now_ns);
    }
    for (unsigned j = 0; j < known; j++)
        if (!seen[j] && feed->engines[j]->kind == KVR_FEED_KIND_RELAY &&
            feed->engines[j]->relay_source == imp->index + 1)
            kvr_feed_engine_remove(feed, feed->engines[j]);
    return 0;
}

static void import_on_cqe(kvr_feed_t *feed, import_t *imp, int res)
{
    imp->busy = false;
    if (res == -ECANCELED)
        res = -ETIMEDOUT;
    if (res < 0) {
        import_disconnect(feed, imp, res);
        return;
    }
    if (!imp->connected) {
        imp->connected = true;
        KVR_INFO("import_connected addr=%s", imp->addr_text);
        import_arm(feed, imp);
        return;
    }
    if (res == 0) {
        import_disconnect(feed, imp, -ECONNRESET);
        return;
    }
    msgpack_unpacker_buffer_consumed(&imp->unpacker, (size_t)res);
    uint64_t now = kvr_clock_now_ns();
    msgpack_unpacked result;
    msgpack_unpacked_init(&result);
    msgpack_unpack_return ret = MSGPACK_UNPACK_CONTINUE;
    bool rejected = false;
    while (!rejected && (ret = msgpack_unpacker_next(&imp->unpacker, &result)) == MSGPACK_UNPACK_SUCCESS) {
        int rc = import_table(feed, imp, &result.data, now);
        if (rc < 0) {
            /* A stream that carried one bad table cannot be trusted to be in
             * step: drop it and reconnect with backoff (one log line each). */
            imp->frames_rejected++;
            KVR_WARN("import_frame_rejected addr=%s reason=\"%s\" rejected_total=%llu", imp->addr_text,
                     kvr_strerror(rc), (unsigned long long)imp->frames_rejected);
            rejected = true;
        } else {
            imp->last_frame_ns = now;
            imp->backoff_ns = 0; /* a good table, not a connect, proves the peer */
        }
    }
    msgpack_unpacked_destroy(&result);
    if (rejected || ret == MSGPACK_UNPACK_PARSE_ERROR ||
        msgpack_unpacker_message_size(&imp->unpacker) > IMPORT_MAX_BUFFER) {
        import_disconnect(feed, imp, KVR_EPARSE);
        return;
    }
    import_arm(feed, imp);
}

/* ---- both ------------------------------------------------------------------ */

void kvr_feed_relay_tick(kvr_feed_t *feed, uint64_t now_ns)
{
    kvr_relay_t *r = feed->relay;
    if (r == NULL)
        return;
    if (r->listen_fd >= 0)
        export_tick(feed, r, now_ns);
    for (unsigned k = 0; k < r->import_count; k++) {
        import_t *imp = &r->imports[k];
        if (imp->fd < 0 && !imp->busy && now_ns >= imp->retry_at_ns)
            import_connect(feed, imp);
        /* No table for two periods: each engine of this import counts a failure
         * per tick, so health follows the link while sample times stay put. */
        if (kvr_clock_age_ns(now_ns, imp->last_frame_ns) <= 2 * feed->cfg.period_ns)
            continue;
        for (unsigned i = 0; i < feed->engine_count; i++) {
            kvr_feed_engine_t *e = feed->engines[i];
            if (!e->removed && e->kind == KVR_FEED_KIND_RELAY && e->relay_source == imp->index + 1)
                kvr_feed_publish_failure(feed, e, "relay stream silent", false, now_ns);
        }
    }
}

void kvr_feed_relay_on_cqe(kvr_feed_t *feed, kvr_op_t *op, int res)
{
    kvr_relay_t *r = feed->relay;
    if (r == NULL)
        return;
    switch (op->kind) {
    case KVR_OP_EXPORT_ACCEPT:
        if (res >= 0) {
            int slot = -1;
            for (int i = 0; i < MAX_SUBSCRIBERS && slot < 0; i++)
                if (r->subs[i].fd < 0)
                    slot = i;
            if (slot < 0) {
                KVR_WARN("export_refused reason=\"%d subscribers already\"", MAX_SUBSCRIBERS);
                close(res);
            } else {
                int one = 1;
                setsockopt(res, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
                r->subs[slot].fd = res;
                r->subs[slot].sending = false;
                KVR_INFO("export_subscriber slot=%d", slot);
            }
        }
        if (!feed->stopping)
            arm_accept(feed, r);
        return;
    case KVR_OP_EXPORT_SEND: {
        subscriber_t *s = op->owner;
        s->sending = false;
        if (s->fd < 0)
            return;
        if (res <= 0) {
            KVR_INFO("export_subscriber_gone reason=\"%s\"", kvr_strerror(res ? res : -ECONNRESET));
            sub_close(s);
            return;
        }
        s->sent += (size_t)res;
        if (s->sent < s->len)
            sub_send(feed, s);
        return;
    }
    case KVR_OP_IMPORT:
        import_on_cqe(feed, op->owner, res);
        return;
    default:
        return;
    }
}

void kvr_feed_relay_stats(const kvr_feed_t *feed, kvr_feed_relay_stats_t *out)
{
    memset(out, 0, sizeof(*out));
    const kvr_relay_t *r = feed->relay;
    if (r == NULL)
        return;
    for (int i = 0; i < MAX_SUBSCRIBERS; i++)
        out->subscribers += r->subs[i].fd >= 0;
    out->imports = r->import_count;
    for (unsigned k = 0; k < r->import_count; k++) {
        out->import_addr[k] = r->imports[k].addr_text;
        out->import_connected[k] = r->imports[k].connected;
        out->import_rejected[k] = r->imports[k].frames_rejected;
    }
}

void kvr_feed_relay_stop(kvr_feed_t *feed)
{
    kvr_relay_t *r = feed->relay;
    if (r == NULL)
        return;
    if (r->listen_fd >= 0)
        close(r->listen_fd);
    for (int i = 0; i < MAX_SUBSCRIBERS; i++) {
        sub_close(&r->subs[i]);
        free(r->subs[i].buf);
    }
    for (unsigned k = 0; k < r->import_count; k++) {
        if (r->imports[k].fd >= 0)
            close(r->imports[k].fd);
        if (r->imports[k].unpacker_ready)
            msgpack_unpacker_destroy(&r->imports[k].unpacker);
    }
    free(r);
    feed->relay = NULL;
}
