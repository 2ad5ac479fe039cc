/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Source "relay", both ends, speaking relay_wire.h. --export sends each
 * subscriber a nonce and waits for its hello; with --relay-secret-file the
 * hello must carry an HMAC of that nonce and the exporter's welcome answers
 * with an HMAC of the importer's nonce, so each side knows the other holds
 * the secret. Then the exporter streams the whole table every tick.
 * Ages, not timestamps, cross hosts: the receiver's sample time is its
 * receipt time minus the age, so no clock needs to agree with another.
 * --import subscribes to such a stream and keeps one local slot per remote
 * engine; engines that leave the remote table leave the local one. A peer is
 * bounded: at most --relay-max-engines slots, and at most
 * --relay-max-changes slots added or removed per second. A peer named by a
 * host name is resolved at start-up, before the ring runs, then again after
 * each lost or refused connection on the resolver loop (discovery.c), never
 * on the ring's thread: reconnects use the last address until it answers.
 * Peers found by --import-dns (peers.c) come and go while the daemon runs:
 * their imports take free places of the same table, and one that leaves
 * takes its engines with it once no operation of it is in flight.
 */
#include <errno.h>
#include <msgpack.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include <openssl/crypto.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/state_frame.h"
#include "statefeed/feed.h"
#include "statefeed/relay_wire.h"
#include "statefeed/share.h"

/* Subscribers beside those --import-dns-max-peers adds: routers' hosts, tools, fixed peers. */
#define MAX_SUBSCRIBERS 16
#define IMPORT_RECV_CHUNK 65536
/* A subscriber that has not said hello by then is not a relay importer. */
#define HELLO_TIMEOUT_NS (2 * KVR_NS_PER_SEC)

typedef enum { SUB_FREE = 0, SUB_HANDSHAKE, SUB_STREAMING } sub_state_t;

typedef struct {
    int fd;
    sub_state_t state;
    kvr__op_t op;       /* table sends */
    kvr__op_t hello_op; /* the hello's receive */
    struct __kernel_timespec ts;
    uint64_t hello_deadline_ns;
    uint8_t nonce[KVR_RELAY_NONCE_LEN];
    uint8_t rx[KVR_RELAY_HEADER + KVR_RELAY_HELLO_MAX];
    size_t rx_len;
    char *buf;
    size_t len, sent;
    bool sending, receiving;   /* an operation holds the slot until it completes */
    kvr__share_cursor_t share; /* --share: its place in the local ring */
} subscriber_t;

typedef struct import_s import_t;

/* An import peer's name being resolved again; imp is NULL once the relay stopped. */
typedef struct {
    uv_getaddrinfo_t req;
    import_t *imp;
} import_resolve_t;

/* One --import: a subscription to another statefeed's export. */
struct import_s {
    unsigned index;                       /* engines it owns carry index + 1 in relay_source */
    const char *addr_text;                /* "tcp:HOST:PORT" as configured, or addr_own */
    char addr_own[KVR_DNS_PEER_ADDR_MAX]; /* a DNS peer's "tcp:ADDR:PORT" */
    bool in_use;                          /* a configured or discovered peer holds this place */
    bool leaving; /* a DNS peer that left: freed when its operation completes */
    bool self;    /* the challenge was one of our own: never connected again */
    struct sockaddr_storage addr;
    socklen_t addr_len;
    /* A host name (not an address literal): resolved again after a lost connection. */
    bool named;
    char host[256], port[8];
    import_resolve_t *resolving;       /* in flight on the resolver loop, or NULL */
    struct sockaddr_storage next_addr; /* its answer, taken at the next connect */
    socklen_t next_addr_len;           /* 0: none waiting */
    bool unresolved;                   /* the last resolution failed (logged once) */
    int fd;
    bool connected, busy;
    bool greeted;                       /* the challenge was answered */
    bool welcomed;                      /* the exporter's welcome checked: tables follow */
    uint8_t nonce[KVR_RELAY_NONCE_LEN]; /* ours, for the exporter's proof */
    bool tabled;                        /* a table arrived on this connection */
    kvr__op_t op;
    struct __kernel_timespec ts;
    uint8_t *rx; /* bytes of frames not yet complete */
    size_t rx_len, rx_cap;
    uint64_t backoff_ns, retry_at_ns, last_frame_ns;
    /* --relay-max-changes: a token bucket, refilled per second */
    double change_tokens;
    uint64_t tokens_at_ns;
    bool over_engines, deferring; /* log each limit once per episode */
    uint64_t frames_rejected, engines_refused, changes_deferred;
};

typedef struct kvr__relay_s {
    uint8_t secret[KVR_RELAY_SECRET_MAX];
    size_t secret_len; /* 0: no --relay-secret-file */
    /* export */
    int listen_fd;
    struct sockaddr_storage export_addr; /* bound, port included */
    socklen_t export_len;
    kvr__op_t accept_op;
    subscriber_t *subs;
    unsigned sub_cap;
    uint64_t export_refused;
    uint64_t refused_logged_ns, refused_unlogged;
    /* imports */
    import_t *imports;
    unsigned import_cap;   /* the --import peers, then --import-dns-max-peers places */
    unsigned import_count; /* places ever used: the loops' bound */
} kvr_relay_t;

/* Resolves [HOST:]PORT now (blocking: start-up only); numeric: fails for a host name. */
static int resolve(const char *hostport, bool passive, bool numeric, struct sockaddr_storage *addr,
                   socklen_t *len)
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
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0) |
                                         (numeric ? AI_NUMERICHOST : 0)};
    struct addrinfo *res = NULL;
    /* No host on --export means loopback: serving other hosts is a choice. */
    if (getaddrinfo(h && h[0] ? h : (passive ? "127.0.0.1" : NULL), port, &hints, &res) != 0 ||
        res == NULL)
        return -EINVAL;
    if (res->ai_addrlen > sizeof(*addr)) {
        freeaddrinfo(res);
        return -EINVAL;
    }
    memcpy(addr, res->ai_addr, res->ai_addrlen);
    *len = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

static void arm_accept(kvr__feed_t *feed, kvr_relay_t *r)
{
    struct io_uring_sqe *sqe = kvr__ring_sqe(&feed->ring);
    if (sqe == NULL)
        return;
    io_uring_prep_accept(sqe, r->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    io_uring_sqe_set_data(sqe, &r->accept_op);
}

static bool is_loopback(const struct sockaddr_storage *addr)
{
    if (addr->ss_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)addr)->sin_addr.s_addr) >> 24) == 127;
    if (addr->ss_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)addr)->sin6_addr, &in6addr_loopback,
                      sizeof(struct in6_addr)) == 0;
    return false;
}

static int export_start(kvr__feed_t *feed, kvr_relay_t *r)
{
    struct sockaddr_storage addr;
    socklen_t len;
    if (resolve(feed->cfg.export_addr + 4, true, false, &addr, &len) < 0) {
        KVR_ERROR("export_failed addr=%s reason=\"expected tcp:[HOST:]PORT\"",
                  feed->cfg.export_addr);
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
    r->export_addr = addr;
    r->export_len = len;
    char host[64] = "?";
    getnameinfo((struct sockaddr *)&addr, len, host, sizeof(host), NULL, 0, NI_NUMERICHOST);
    KVR_INFO("export_listening addr=%s bound=%s auth=%s", feed->cfg.export_addr, host,
             r->secret_len ? "hmac" : "none");
    if (!is_loopback(&addr) && r->secret_len == 0)
        KVR_WARN("export_unauthenticated addr=%s reason=\"serving beyond loopback without "
                 "--relay-secret-file: anyone who reaches the port reads the engine table\"",
                 feed->cfg.export_addr);
    arm_accept(feed, r);
    return 0;
}

/* Keeps the host and port of a peer given by name, for resolving it again off the ring. */
static void import_name(import_t *imp)
{
    struct sockaddr_storage literal;
    socklen_t len;
    const char *hostport = imp->addr_text + 4;
    imp->named = resolve(hostport, false, true, &literal, &len) < 0;
    if (!imp->named)
        return;
    const char *colon = strrchr(hostport, ':');
    snprintf(imp->host, sizeof(imp->host), "%.*s", (int)(colon - hostport), hostport);
    snprintf(imp->port, sizeof(imp->port), "%s", colon + 1);
}

static void on_import_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
    import_resolve_t *q = req->data;
    import_t *imp = q->imp;
    if (imp != NULL) {
        imp->resolving = NULL;
        if (status == 0 && res != NULL && res->ai_addrlen <= sizeof(imp->next_addr)) {
            memcpy(&imp->next_addr, res->ai_addr, res->ai_addrlen);
            imp->next_addr_len = res->ai_addrlen;
            char host[64] = "?";
            getnameinfo(res->ai_addr, res->ai_addrlen, host, sizeof(host), NULL, 0, NI_NUMERICHOST);
            if (imp->unresolved || imp->next_addr_len != imp->addr_len ||
                memcmp(&imp->next_addr, &imp->addr, imp->addr_len) != 0)
                KVR_INFO("import_resolved addr=%s address=%s", imp->addr_text, host);
            else
                KVR_DEBUG("import_resolved addr=%s address=%s unchanged=1", imp->addr_text, host);
            imp->unresolved = false;
        } else if (!imp->unresolved) {
            imp->unresolved = true;
            KVR_WARN("import_unresolved addr=%s error=\"%s\" reason=\"reconnecting to the last "
                     "address\"",
                     imp->addr_text, status < 0 ? uv_strerror(status) : "no address");
        }
    }
    uv_freeaddrinfo(res);
    free(q);
}

/* A named peer whose connection was lost may have moved: its name is resolved again, off the ring. */
static void import_resolve_again(kvr__feed_t *feed, import_t *imp)
{
    uv_loop_t *loop = kvr__feed_resolver_loop(feed);
    if (!imp->named || imp->resolving != NULL || loop == NULL)
        return;
    import_resolve_t *q = calloc(1, sizeof(*q));
    if (q == NULL)
        return;
    q->imp = imp;
    q->req.data = q;
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
    if (uv_getaddrinfo(loop, &q->req, on_import_resolved, imp->host, imp->port, &hints) < 0) {
        free(q);
        return;
    }
    imp->resolving = q;
}

int kvr__feed_relay_start(kvr__feed_t *feed)
{
    if (feed->cfg.export_addr[0] == '\0' && feed->cfg.import_count == 0 &&
        feed->cfg.import_dns_count == 0)
        return 0;
    int share_rc = kvr__feed_share_start(feed);
    if (share_rc < 0)
        return share_rc;
    kvr_relay_t *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return -ENOMEM;
    feed->relay = r;
    unsigned dns_peers = feed->cfg.import_dns_count ? feed->cfg.import_dns_max_peers : 0;
    r->sub_cap = MAX_SUBSCRIBERS + dns_peers;
    r->import_cap = feed->cfg.import_count + dns_peers;
    r->subs = calloc(r->sub_cap, sizeof(*r->subs));
    r->imports = r->import_cap ? calloc(r->import_cap, sizeof(*r->imports)) : NULL;
    if (r->subs == NULL || (r->import_cap && r->imports == NULL))
        return -ENOMEM;
    r->listen_fd = -1;
    r->accept_op.kind = KVR_OP_EXPORT_ACCEPT;
    for (unsigned i = 0; i < r->sub_cap; i++) {
        r->subs[i].fd = -1;
        r->subs[i].op.kind = KVR_OP_EXPORT_SEND;
        r->subs[i].op.owner = &r->subs[i];
        r->subs[i].hello_op.kind = KVR_OP_EXPORT_HELLO;
        r->subs[i].hello_op.owner = &r->subs[i];
    }
    if (feed->cfg.relay_secret_file[0] != '\0') {
        const char *reason = NULL;
        int rc = kvr__relay_secret_read(feed->cfg.relay_secret_file, r->secret, sizeof(r->secret),
                                        &r->secret_len, &reason);
        if (rc < 0) {
            KVR_ERROR("relay_secret_failed path=%s reason=\"%s: %s\"", feed->cfg.relay_secret_file,
                      reason, kvr_strerror(rc));
            return rc;
        }
        struct stat st;
        if (stat(feed->cfg.relay_secret_file, &st) == 0 && (st.st_mode & 077) != 0)
            KVR_WARN(
                "relay_secret_exposed path=%s mode=%04o reason=\"other users can read the secret: chmod 600\"",
                feed->cfg.relay_secret_file, (unsigned)(st.st_mode & 07777));
    }
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
        imp->in_use = true;
        /* The first table lands whole; the limit applies to what follows. */
        imp->change_tokens = (double)feed->cfg.relay_max_engines;
        r->import_count++;
        if (resolve(imp->addr_text + 4, false, false, &imp->addr, &imp->addr_len) < 0) {
            KVR_ERROR("import_failed addr=%s reason=\"expected tcp:HOST:PORT\"", imp->addr_text);
            return -EINVAL;
        }
        import_name(imp);
        imp->rx = malloc(IMPORT_RECV_CHUNK);
        if (imp->rx == NULL)
            return -ENOMEM;
        imp->rx_cap = IMPORT_RECV_CHUNK;
    }
    return 0;
}

/* ---- export ---------------------------------------------------------------- */

/*
 * What a DNS peer relayed is not passed on: every replica of a mesh imports
 * every other itself, and an engine handed round the mesh would come back to
 * the replica that dropped it with its owner and outlive them both.
 */
static bool exported(const kvr__feed_t *feed, const kvr__feed_engine_t *e)
{
    return !e->removed &&
           !(e->kind == KVR_FEED_KIND_RELAY && e->relay_source > feed->cfg.import_count);
}

/* The table, and with --share the share of the subscriber at cursor (NULL: none). */
static void build_table(kvr__feed_t *feed, msgpack_sbuffer *sb, uint64_t now_ns,
                        kvr__share_cursor_t *cursor)
{
    msgpack_packer pk;
    unsigned count = 0;
    for (unsigned i = 0; i < feed->engine_count; i++)
        count += exported(feed, feed->engines[i]);
    kvr__relay_frame_begin(&pk, sb, count, cursor != NULL);
    uint64_t wall = kvr_clock_wall_ns();
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__feed_engine_t *e = feed->engines[i];
        if (!exported(feed, e))
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
        kvr__relay_table_add(&pk, &f, age, (f.state.flags & KVR_SLOT_HEALTHY) != 0, sampled);
    }
    if (cursor != NULL)
        kvr__feed_share_export(feed, cursor, &pk, now_ns);
}

static bool sub_idle(const subscriber_t *s)
{
    return s->state == SUB_FREE && !s->sending && !s->receiving;
}

static void sub_close(subscriber_t *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    s->state = SUB_FREE;
}

/* Counted always, logged at most once a second: a port scanner must not flood the log. */
static void refuse_log(kvr_relay_t *r, int slot, const char *reason)
{
    r->export_refused++;
    uint64_t now = kvr_clock_now_ns();
    if (r->refused_logged_ns == 0 ||
        kvr_clock_age_ns(now, r->refused_logged_ns) >= KVR_NS_PER_SEC) {
        KVR_WARN("export_subscriber_refused slot=%d reason=\"%s\" refused_total=%llu unlogged=%llu",
                 slot, reason, (unsigned long long)r->export_refused,
                 (unsigned long long)r->refused_unlogged);
        r->refused_logged_ns = now;
        r->refused_unlogged = 0;
    } else {
        r->refused_unlogged++;
    }
}

static void sub_refuse(kvr_relay_t *r, subscriber_t *s, const char *reason)
{
    refuse_log(r, (int)(s - r->subs), reason);
    sub_close(s);
}

static void sub_send(kvr__feed_t *feed, subscriber_t *s)
{
    struct io_uring_sqe *sqe = kvr__ring_sqe(&feed->ring);
    if (sqe == NULL) {
        sub_close(s);
        return;
    }
    s->sending = true;
    io_uring_prep_send(sqe, s->fd, s->buf + s->sent, s->len - s->sent, MSG_NOSIGNAL);
    io_uring_sqe_set_data(sqe, &s->op);
    /* A subscriber that stops reading would hold its slot forever: as long
     * as an importer waits for a table before calling the stream dead. */
    uint64_t idle = 20 * feed->cfg.period_ns > KVR_NS_PER_SEC ? 20 * feed->cfg.period_ns
                                                              : KVR_NS_PER_SEC;
    kvr__ring_link_timeout(&feed->ring, sqe, &s->ts, kvr_clock_now_ns() + idle);
}

static void sub_arm_hello(kvr__feed_t *feed, kvr_relay_t *r, subscriber_t *s)
{
    struct io_uring_sqe *sqe = kvr__ring_sqe(&feed->ring);
    if (sqe == NULL) {
        sub_refuse(r, s, "no submission queue entry for the hello");
        return;
    }
    s->receiving = true;
    io_uring_prep_recv(sqe, s->fd, s->rx + s->rx_len, sizeof(s->rx) - s->rx_len, 0);
    io_uring_sqe_set_data(sqe, &s->hello_op);
    kvr__ring_link_timeout(&feed->ring, sqe, &s->ts, s->hello_deadline_ns);
}

static void sub_accept(kvr__feed_t *feed, kvr_relay_t *r, int fd)
{
    subscriber_t *s = NULL;
    for (unsigned i = 0; i < r->sub_cap && s == NULL; i++)
        if (sub_idle(&r->subs[i]))
            s = &r->subs[i];
    if (s == NULL) {
        refuse_log(r, -1, "every subscriber slot is taken");
        close(fd);
        return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    s->fd = fd;
    s->state = SUB_HANDSHAKE;
    s->rx_len = 0;
    s->hello_deadline_ns = kvr_clock_now_ns() + HELLO_TIMEOUT_NS;
    uint8_t frame[KVR_RELAY_HEADER + KVR_RELAY_HELLO_MAX];
    int n = -1;
    if (getrandom(s->nonce, sizeof(s->nonce), 0) == (ssize_t)sizeof(s->nonce))
        n = kvr__relay_handshake_encode(s->nonce, NULL, frame, sizeof(frame));
    /* A fresh socket's buffer takes these few bytes at once. */
    if (n < 0 || send(fd, frame, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) != n) {
        sub_refuse(r, s, "could not send the challenge");
        return;
    }
    sub_arm_hello(feed, r, s);
}

static void sub_on_hello(kvr__feed_t *feed, kvr_relay_t *r, subscriber_t *s, int res)
{
    s->receiving = false;
    if (s->state != SUB_HANDSHAKE)
        return;
    if (res <= 0) {
        sub_refuse(r, s, res == -ECANCELED ? "no hello within 2 s" : "closed before its hello");
        return;
    }
    s->rx_len += (size_t)res;
    uint32_t n = 0;
    if (s->rx_len >= KVR_RELAY_HEADER &&
        kvr__relay_frame_length(s->rx, KVR_RELAY_HELLO_MAX, &n) < 0) {
        sub_refuse(r, s, "not a relay v2 hello");
        return;
    }
    if (s->rx_len < KVR_RELAY_HEADER || s->rx_len < KVR_RELAY_HEADER + n) {
        sub_arm_hello(feed, r, s);
        return;
    }
    kvr__relay_handshake_t hello;
    const char *reason = NULL;
    if (kvr__relay_handshake_decode(s->rx + KVR_RELAY_HEADER, n, &hello, &reason) < 0) {
        sub_refuse(r, s, reason);
        return;
    }
    if (!hello.has_nonce) {
        sub_refuse(r, s, "hello carries no nonce");
        return;
    }
    uint8_t mac[KVR_RELAY_MAC_LEN];
    if (r->secret_len > 0) {
        if (!hello.has_mac) {
            sub_refuse(r, s, "hello carries no hmac and --relay-secret-file is set");
            return;
        }
        bool match = kvr__relay_mac(r->secret, r->secret_len, KVR_RELAY_ROLE_IMPORTER, s->nonce,
                                    mac) == 0 &&
                     kvr__relay_mac_equal(mac, hello.mac);
        if (!match) {
            OPENSSL_cleanse(mac, sizeof(mac));
            sub_refuse(r, s, "hello hmac does not match the shared secret");
            return;
        }
        if (kvr__relay_mac(r->secret, r->secret_len, KVR_RELAY_ROLE_EXPORTER, hello.nonce, mac) <
            0) {
            sub_refuse(r, s, "hmac failed");
            return;
        }
    }
    /* The welcome: a few bytes on a socket whose buffer holds nothing yet. */
    uint8_t frame[KVR_RELAY_HEADER + KVR_RELAY_HELLO_MAX];
    int len = kvr__relay_handshake_encode(NULL, r->secret_len > 0 ? mac : NULL, frame,
                                          sizeof(frame));
    OPENSSL_cleanse(mac, sizeof(mac));
    if (len < 0 || send(s->fd, frame, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT) != len) {
        sub_refuse(r, s, "could not send the welcome");
        return;
    }
    s->state = SUB_STREAMING;
    s->share.epoch = 0; /* its first table places its ring cursor */
    KVR_INFO("export_subscriber slot=%d auth=%s", (int)(s - r->subs),
             r->secret_len ? "hmac" : "none");
}

/*
 * --share: placements are news, not state, so each subscriber gets its own
 * frame from its own ring cursor; one still taking its last frame keeps its
 * cursor and gets what it missed with the next.
 */
static void export_shared(kvr__feed_t *feed, kvr_relay_t *r, uint64_t now_ns)
{
    for (unsigned i = 0; i < r->sub_cap; i++) {
        subscriber_t *s = &r->subs[i];
        if (s->state != SUB_STREAMING || s->sending)
            continue;
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        build_table(feed, &sb, now_ns, &s->share);
        if (kvr__relay_table_end(&sb) < 0) {
            KVR_WARN("export_table_too_large bytes=%zu max=%u", sb.size, KVR_RELAY_FRAME_MAX);
            msgpack_sbuffer_destroy(&sb);
            return;
        }
        /* The subscriber takes the buffer: no copy per tick. */
        free(s->buf);
        s->buf = sb.data;
        s->len = sb.size;
        s->sent = 0;
        sub_send(feed, s);
    }
}

static void export_tick(kvr__feed_t *feed, kvr_relay_t *r, uint64_t now_ns)
{
    bool any = false;
    for (unsigned i = 0; i < r->sub_cap; i++)
        any |= r->subs[i].state == SUB_STREAMING && !r->subs[i].sending;
    if (!any)
        return;
    if (kvr__feed_share_enabled(feed)) {
        export_shared(feed, r, now_ns);
        return;
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    build_table(feed, &sb, now_ns, NULL);
    if (kvr__relay_table_end(&sb) < 0) {
        /* Only a segment of thousands of long ids gets here; a cut table would lie. */
        KVR_WARN("export_table_too_large bytes=%zu max=%u", sb.size, KVR_RELAY_FRAME_MAX);
        msgpack_sbuffer_destroy(&sb);
        return;
    }
    for (unsigned i = 0; i < r->sub_cap; i++) {
        subscriber_t *s = &r->subs[i];
        /* A subscriber still taking the last table skips this one: each table
         * is complete, so it loses nothing but a tick of freshness. */
        if (s->state != SUB_STREAMING || s->sending)
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

static bool owned_by(const kvr__feed_engine_t *e, const import_t *imp);

/* A DNS peer that left, with nothing of it in flight: its engines go and its place is free. */
static void import_release(kvr__feed_t *feed, import_t *imp)
{
    if (imp->fd >= 0)
        close(imp->fd);
    for (unsigned i = 0; i < feed->engine_count; i++)
        if (owned_by(feed->engines[i], imp))
            kvr__feed_engine_remove(feed, feed->engines[i]);
    kvr__feed_share_forget(feed, imp->index);
    KVR_INFO("import_removed addr=%s", imp->addr_text);
    free(imp->rx);
    unsigned index = imp->index;
    kvr__op_t op = imp->op;
    memset(imp, 0, sizeof(*imp));
    imp->index = index;
    imp->op = op;
    imp->fd = -1;
}

static void import_disconnect(kvr__feed_t *feed, import_t *imp, int why, bool quiet)
{
    if (imp->fd >= 0)
        close(imp->fd);
    if (!quiet && (imp->connected || why != -ECONNREFUSED))
        KVR_WARN("import_disconnected addr=%s reason=\"%s%s\"", imp->addr_text, kvr_strerror(why),
                 imp->greeted && !imp->welcomed
                     ? " before its welcome: does --relay-secret-file match the exporter's?"
                     : "");
    imp->fd = -1;
    imp->connected = false;
    imp->busy = false;
    imp->greeted = false;
    imp->welcomed = false;
    imp->tabled = false;
    imp->backoff_ns = imp->backoff_ns ? imp->backoff_ns * 2 : feed->cfg.period_ns;
    if (imp->backoff_ns > feed->cfg.backoff_max_ns)
        imp->backoff_ns = feed->cfg.backoff_max_ns;
    imp->retry_at_ns = kvr_clock_now_ns() + imp->backoff_ns;
    /* Nothing of a dropped stream may reach the next one. */
    imp->rx_len = 0;
    import_resolve_again(feed, imp);
}

static void import_arm(kvr__feed_t *feed, import_t *imp)
{
    if (io_uring_sq_space_left(&feed->ring) < 2)
        io_uring_submit(&feed->ring);
    struct io_uring_sqe *sqe = io_uring_get_sqe(&feed->ring);
    if (sqe == NULL) {
        import_disconnect(feed, imp, -EBUSY, false);
        return;
    }
    /* The exporter sends every tick: a second of silence means a dead stream. */
    uint64_t idle = 20 * feed->cfg.period_ns > KVR_NS_PER_SEC ? 20 * feed->cfg.period_ns
                                                              : KVR_NS_PER_SEC;
    if (!imp->connected)
        io_uring_prep_connect(sqe, imp->fd, (struct sockaddr *)&imp->addr, imp->addr_len);
    else
        io_uring_prep_recv(sqe, imp->fd, imp->rx + imp->rx_len, imp->rx_cap - imp->rx_len, 0);
    io_uring_sqe_set_data(sqe, &imp->op);
    imp->busy = true;
    kvr__ring_link_timeout(&feed->ring, sqe, &imp->ts, kvr_clock_now_ns() + idle);
}

static void import_connect(kvr__feed_t *feed, import_t *imp)
{
    if (imp->next_addr_len > 0) { /* the last answer; no connect of the old address is in flight */
        imp->addr = imp->next_addr;
        imp->addr_len = imp->next_addr_len;
        imp->next_addr_len = 0;
    }
    imp->fd = socket(imp->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (imp->fd < 0) {
        import_disconnect(feed, imp, -errno, false);
        return;
    }
    int one = 1;
    setsockopt(imp->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    import_arm(feed, imp);
}

/* Spends one table change of the peer's budget; false when none is left. */
static bool take_change(kvr__feed_t *feed, import_t *imp, uint64_t now_ns)
{
    double rate = (double)feed->cfg.relay_max_changes;
    if (imp->change_tokens < rate) {
        double refill = (double)kvr_clock_age_ns(now_ns, imp->tokens_at_ns) /
                        (double)KVR_NS_PER_SEC * rate;
        imp->change_tokens = imp->change_tokens + refill < rate ? imp->change_tokens + refill
                                                                : rate;
    }
    imp->tokens_at_ns = now_ns;
    if (imp->change_tokens < 1.0)
        return false;
    imp->change_tokens -= 1.0;
    return true;
}

static unsigned engine_index(kvr__feed_t *feed, const char *id)
{
    for (unsigned j = 0; j < feed->engine_count; j++)
        if (!feed->engines[j]->removed && strcmp(feed->engines[j]->id, id) == 0)
            return j;
    return UINT32_MAX;
}

static bool owned_by(const kvr__feed_engine_t *e, const import_t *imp)
{
    return !e->removed && e->kind == KVR_FEED_KIND_RELAY && e->relay_source == imp->index + 1;
}

/*
 * Applies one decoded table. Removals go first so a peer replacing engines
 * frees slots before it takes new ones; both spend the change budget, and
 * what the budget does not cover waits for a later table.
 */
static int import_apply(kvr__feed_t *feed, import_t *imp, const kvr__relay_table_t *t,
                        uint64_t now_ns)
{
    uint32_t limit = feed->cfg.relay_max_engines;
    uint32_t n = t->count < limit ? t->count : limit;
    uint64_t refused = t->count - n, deferred = 0;
    unsigned known = feed->engine_count;
    bool *seen = calloc(known + 1, sizeof(*seen));
    if (seen == NULL)
        return -ENOMEM;
    for (uint32_t i = 0; i < n; i++) {
        unsigned j = engine_index(feed, t->entries[i].frame.state.engine_id);
        if (j != UINT32_MAX && owned_by(feed->engines[j], imp))
            seen[j] = true;
    }
    uint32_t owned = 0;
    for (unsigned j = 0; j < known; j++) {
        kvr__feed_engine_t *e = feed->engines[j];
        if (!owned_by(e, imp))
            continue;
        if (!seen[j] && take_change(feed, imp, now_ns))
            kvr__feed_engine_remove(feed, e);
        else
            owned++, deferred += !seen[j];
    }
    free(seen);
    for (uint32_t i = 0; i < n; i++) {
        const kvr__relay_entry_t *en = &t->entries[i];
        kvr__feed_engine_t *e = kvr__feed_engine_find(feed, en->frame.state.engine_id);
        if (e == NULL) {
            if (owned >= limit) {
                refused++;
                continue;
            }
            if (!take_change(feed, imp, now_ns)) {
                deferred++;
                continue;
            }
            if (kvr__feed_engine_add(feed, en->frame.state.engine_id, KVR_FEED_KIND_RELAY, false) <
                0)
                continue;
            e = feed->engines[feed->engine_count - 1];
            e->relay_source = imp->index + 1;
            owned++;
        } else if (!owned_by(e, imp)) {
            continue; /* polled here, or relayed by another import first: one writer per slot */
        }
        if (!en->sampled)
            continue;
        uint64_t age_ns = en->age_ns < now_ns ? en->age_ns : now_ns - 1;
        kvr__feed_publish_relayed(feed, e, &en->frame.state, now_ns - age_ns, en->healthy, now_ns);
    }
    imp->engines_refused += refused;
    imp->changes_deferred += deferred;
    if ((refused > 0) != imp->over_engines) {
        imp->over_engines = refused > 0;
        if (refused > 0)
            KVR_WARN("import_engines_over_limit addr=%s table=%u max=%u reason=\"entries past "
                     "--relay-max-engines are ignored\"",
                     imp->addr_text, t->count, limit);
        else
            KVR_INFO("import_engines_within_limit addr=%s table=%u", imp->addr_text, t->count);
    }
    if ((deferred > 0) != imp->deferring) {
        imp->deferring = deferred > 0;
        if (deferred > 0)
            KVR_WARN(
                "import_changes_deferred addr=%s pending=%llu max_per_sec=%u reason=\"the table "
                "changes faster than --relay-max-changes\"",
                imp->addr_text, (unsigned long long)deferred, feed->cfg.relay_max_changes);
        else
            KVR_INFO("import_changes_caught_up addr=%s", imp->addr_text);
    }
    return 0;
}

/* Answers the exporter's challenge: a few bytes on a socket whose buffer holds nothing yet. */
static int import_greet(kvr__feed_t *feed, import_t *imp, const uint8_t *body, uint32_t n,
                        const char **reason)
{
    kvr_relay_t *r = feed->relay;
    kvr__relay_handshake_t challenge;
    int rc = kvr__relay_handshake_decode(body, n, &challenge, reason);
    if (rc < 0)
        return rc;
    if (!challenge.has_nonce) {
        *reason = "challenge carries no nonce";
        return KVR_EPARSE;
    }
    /* Our own export's challenge: a name that answers this host's address too. */
    for (unsigned i = 0; i < r->sub_cap; i++)
        if (r->subs[i].state == SUB_HANDSHAKE &&
            CRYPTO_memcmp(r->subs[i].nonce, challenge.nonce, sizeof(challenge.nonce)) == 0) {
            imp->self = true;
            *reason = "our own export";
            return -ELOOP;
        }
    if (getrandom(imp->nonce, sizeof(imp->nonce), 0) != (ssize_t)sizeof(imp->nonce)) {
        *reason = "no random bytes for our nonce";
        return -EIO;
    }
    uint8_t mac[KVR_RELAY_MAC_LEN], frame[KVR_RELAY_HEADER + KVR_RELAY_HELLO_MAX];
    if (r->secret_len > 0 && kvr__relay_mac(r->secret, r->secret_len, KVR_RELAY_ROLE_IMPORTER,
                                            challenge.nonce, mac) < 0) {
        *reason = "hmac failed";
        return -EIO;
    }
    int len = kvr__relay_handshake_encode(imp->nonce, r->secret_len > 0 ? mac : NULL, frame,
                                          sizeof(frame));
    OPENSSL_cleanse(mac, sizeof(mac));
    if (len < 0 || send(imp->fd, frame, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT) != len) {
        *reason = "could not send the hello";
        return len < 0 ? len : -EIO;
    }
    imp->greeted = true;
    return 0;
}

/* Checks the exporter's welcome: with a secret, its proof over our nonce. */
static int import_welcome(kvr__feed_t *feed, import_t *imp, const uint8_t *body, uint32_t n,
                          const char **reason)
{
    kvr_relay_t *r = feed->relay;
    kvr__relay_handshake_t welcome;
    int rc = kvr__relay_handshake_decode(body, n, &welcome, reason);
    if (rc < 0)
        return rc;
    if (r->secret_len > 0) {
        uint8_t want[KVR_RELAY_MAC_LEN];
        bool match = welcome.has_mac &&
                     kvr__relay_mac(r->secret, r->secret_len, KVR_RELAY_ROLE_EXPORTER, imp->nonce,
                                    want) == 0 &&
                     kvr__relay_mac_equal(want, welcome.mac);
        OPENSSL_cleanse(want, sizeof(want));
        if (!match) {
            *reason = "the exporter did not prove the shared secret";
            return -EACCES;
        }
    }
    imp->welcomed = true;
    return 0;
}

/* Takes every complete frame in rx; 0, or negative with *reason when the stream must go. */
static int import_frames(kvr__feed_t *feed, import_t *imp, uint64_t now_ns, const char **reason)
{
    size_t off = 0;
    int rc = 0;
    while (rc == 0 && imp->rx_len - off >= KVR_RELAY_HEADER) {
        uint32_t n = 0;
        if (kvr__relay_frame_length(
                imp->rx + off, imp->welcomed ? KVR_RELAY_FRAME_MAX : KVR_RELAY_HELLO_MAX, &n) < 0) {
            *reason = imp->welcomed ? "frame length is 0 or over 4 MiB" : "not a relay v2 exporter";
            rc = -EMSGSIZE;
            break;
        }
        size_t need = KVR_RELAY_HEADER + (size_t)n;
        if (imp->rx_len - off < need) {
            if (need > imp->rx_cap) {
                /* Grow only for a frame that passed the length check. */
                memmove(imp->rx, imp->rx + off, imp->rx_len - off);
                imp->rx_len -= off;
                off = 0;
                uint8_t *grown = realloc(imp->rx, need);
                if (grown == NULL) {
                    *reason = "out of memory";
                    return -ENOMEM;
                }
                imp->rx = grown;
                imp->rx_cap = need;
            }
            break;
        }
        const uint8_t *body = imp->rx + off + KVR_RELAY_HEADER;
        off += need;
        if (!imp->greeted) {
            rc = import_greet(feed, imp, body, n, reason);
            continue;
        }
        if (!imp->welcomed) {
            rc = import_welcome(feed, imp, body, n, reason);
            continue;
        }
        kvr__relay_table_t table;
        rc = kvr__relay_table_decode(body, n, &table, reason);
        if (rc == 0) {
            rc = import_apply(feed, imp, &table, now_ns);
            if (rc == 0)
                kvr__feed_share_import(feed, imp->index, &table.share, now_ns);
            kvr__relay_table_free(&table);
        }
        if (rc == 0) {
            imp->last_frame_ns = now_ns;
            imp->tabled = true;
            imp->backoff_ns = 0; /* a good table, not a connect, proves the peer */
        }
    }
    memmove(imp->rx, imp->rx + off, imp->rx_len - off);
    imp->rx_len -= off;
    return rc;
}

static void import_on_cqe(kvr__feed_t *feed, import_t *imp, int res)
{
    imp->busy = false;
    if (imp->leaving) {
        import_release(feed, imp);
        return;
    }
    if (res == -ECANCELED)
        res = -ETIMEDOUT;
    if (res < 0) {
        import_disconnect(feed, imp, res, false);
        return;
    }
    if (!imp->connected) {
        imp->connected = true;
        KVR_INFO("import_connected addr=%s", imp->addr_text);
        import_arm(feed, imp);
        return;
    }
    if (res == 0) {
        import_disconnect(feed, imp, -ECONNRESET, false);
        return;
    }
    imp->rx_len += (size_t)res;
    const char *reason = NULL;
    int rc = import_frames(feed, imp, kvr_clock_now_ns(), &reason);
    if (rc < 0) {
        /* A stream that carried one bad frame cannot be trusted to be in
         * step: drop it (one log line) and reconnect with backoff. */
        if (imp->self) {
            KVR_INFO("import_self addr=%s reason=\"the peer is this daemon's own --export: not "
                     "imported\"",
                     imp->addr_text);
            if (imp->fd >= 0)
                close(imp->fd);
            imp->fd = -1;
            imp->connected = false;
            return;
        }
        imp->frames_rejected++;
        KVR_WARN("import_stream_rejected addr=%s reason=\"%s\" rejected_total=%llu", imp->addr_text,
                 reason ? reason : kvr_strerror(rc), (unsigned long long)imp->frames_rejected);
        import_disconnect(feed, imp, rc, true);
        return;
    }
    import_arm(feed, imp);
}

/* ---- both ------------------------------------------------------------------ */

void kvr__feed_relay_tick(kvr__feed_t *feed, uint64_t now_ns)
{
    kvr_relay_t *r = feed->relay;
    if (r == NULL)
        return;
    kvr__feed_share_tick(feed, now_ns);
    if (r->listen_fd >= 0)
        export_tick(feed, r, now_ns);
    for (unsigned k = 0; k < r->import_count; k++) {
        import_t *imp = &r->imports[k];
        if (!imp->in_use || imp->leaving || imp->self)
            continue;
        if (imp->fd < 0 && !imp->busy && now_ns >= imp->retry_at_ns)
            import_connect(feed, imp);
        /* No table for two periods: each engine of this import counts a failure
         * per tick, so health follows the link while sample times stay put. */
        if (kvr_clock_age_ns(now_ns, imp->last_frame_ns) <= 2 * feed->cfg.period_ns)
            continue;
        for (unsigned i = 0; i < feed->engine_count; i++) {
            kvr__feed_engine_t *e = feed->engines[i];
            if (owned_by(e, imp))
                kvr__feed_publish_failure(feed, e, "relay stream silent", false, now_ns);
        }
    }
}

void kvr__feed_relay_on_cqe(kvr__feed_t *feed, kvr__op_t *op, int res)
{
    kvr_relay_t *r = feed->relay;
    if (r == NULL)
        return;
    switch (op->kind) {
    case KVR_OP_EXPORT_ACCEPT:
        if (res >= 0)
            sub_accept(feed, r, res);
        if (!feed->stopping)
            arm_accept(feed, r);
        return;
    case KVR_OP_EXPORT_HELLO: sub_on_hello(feed, r, op->owner, res); return;
    case KVR_OP_EXPORT_SEND: {
        subscriber_t *s = op->owner;
        s->sending = false;
        if (s->state != SUB_STREAMING)
            return;
        if (res <= 0) {
            KVR_INFO("export_subscriber_gone slot=%d reason=\"%s\"", (int)(s - r->subs),
                     res == -ECANCELED ? "stopped reading: a table took over the send timeout"
                                       : kvr_strerror(res ? res : -ECONNRESET));
            sub_close(s);
            return;
        }
        s->sent += (size_t)res;
        if (s->sent < s->len)
            sub_send(feed, s);
        return;
    }
    case KVR_OP_IMPORT: import_on_cqe(feed, op->owner, res); return;
    default: return;
    }
}

void kvr__feed_relay_stats(const kvr__feed_t *feed, kvr__feed_relay_stats_t *out)
{
    memset(out, 0, sizeof(*out));
    const kvr_relay_t *r = feed->relay;
    if (r == NULL)
        return;
    for (unsigned i = 0; i < r->sub_cap; i++)
        out->subscribers += r->subs[i].state == SUB_STREAMING;
    out->export_refused = r->export_refused;
    out->imports = r->import_count;
}

bool kvr__feed_relay_import_stats(const kvr__feed_t *feed, unsigned k,
                                  kvr__feed_import_stats_t *out)
{
    const kvr_relay_t *r = feed->relay;
    if (r == NULL || k >= r->import_count || !r->imports[k].in_use || r->imports[k].leaving)
        return false;
    const import_t *imp = &r->imports[k];
    out->addr = imp->addr_text;
    out->connected = imp->connected && !imp->self;
    out->self = imp->self;
    out->rejected = imp->frames_rejected;
    out->engines_refused = imp->engines_refused;
    out->changes_deferred = imp->changes_deferred;
    return true;
}

int kvr__feed_relay_export_bound(const kvr__feed_t *feed, struct sockaddr_storage *addr,
                                 socklen_t *len)
{
    const kvr_relay_t *r = feed->relay;
    if (r == NULL || r->listen_fd < 0)
        return -ENOENT;
    *addr = r->export_addr;
    *len = r->export_len;
    return 0;
}

static import_t *import_find(kvr_relay_t *r, const char *addr_text)
{
    for (unsigned k = 0; k < r->import_count; k++)
        if (r->imports[k].in_use && !r->imports[k].leaving &&
            strcmp(r->imports[k].addr_text, addr_text) == 0)
            return &r->imports[k];
    return NULL;
}

int kvr__feed_relay_import_add(kvr__feed_t *feed, const struct sockaddr *sa, socklen_t len,
                               const char *addr_text)
{
    kvr_relay_t *r = feed->relay;
    if (r == NULL || len > sizeof(struct sockaddr_storage) ||
        strlen(addr_text) >= KVR_DNS_PEER_ADDR_MAX)
        return -EINVAL;
    /* A fixed --import of the same address, or another name's peer: one stream per exporter. */
    for (unsigned k = 0; k < r->import_count; k++) {
        const import_t *o = &r->imports[k];
        if (o->in_use && !o->leaving && o->addr_len == len && memcmp(&o->addr, sa, len) == 0)
            return -EEXIST;
    }
    import_t *imp = NULL;
    for (unsigned k = feed->cfg.import_count; k < r->import_cap && imp == NULL; k++)
        if (!r->imports[k].in_use)
            imp = &r->imports[k];
    if (imp == NULL)
        return -ENOSPC;
    unsigned index = (unsigned)(imp - r->imports);
    uint8_t *rx = malloc(IMPORT_RECV_CHUNK);
    if (rx == NULL)
        return -ENOMEM;
    memset(imp, 0, sizeof(*imp));
    imp->index = index;
    imp->fd = -1;
    imp->op.kind = KVR_OP_IMPORT;
    imp->op.owner = imp;
    snprintf(imp->addr_own, sizeof(imp->addr_own), "%s", addr_text);
    imp->addr_text = imp->addr_own;
    memcpy(&imp->addr, sa, len);
    imp->addr_len = len;
    imp->change_tokens = (double)feed->cfg.relay_max_engines;
    imp->rx = rx;
    imp->rx_cap = IMPORT_RECV_CHUNK;
    imp->in_use = true;
    if (index >= r->import_count)
        r->import_count = index + 1;
    kvr__feed_share_forget(feed, index);
    KVR_INFO("import_added addr=%s", imp->addr_text);
    return 0;
}

void kvr__feed_relay_import_remove(kvr__feed_t *feed, const char *addr_text)
{
    kvr_relay_t *r = feed->relay;
    import_t *imp = r ? import_find(r, addr_text) : NULL;
    if (imp == NULL || imp->index < feed->cfg.import_count)
        return;
    imp->leaving = true;
    if (!imp->busy) {
        import_release(feed, imp);
        return;
    }
    /* The operation in flight ends now (a receive sees the shutdown) or at its timeout. */
    if (imp->fd >= 0)
        shutdown(imp->fd, SHUT_RDWR);
}

void kvr__feed_relay_stop(kvr__feed_t *feed)
{
    kvr__feed_share_stop(feed);
    kvr_relay_t *r = feed->relay;
    if (r == NULL)
        return;
    if (r->listen_fd >= 0)
        close(r->listen_fd);
    for (unsigned i = 0; r->subs != NULL && i < r->sub_cap; i++) {
        sub_close(&r->subs[i]);
        free(r->subs[i].buf);
    }
    for (unsigned k = 0; k < r->import_count; k++) {
        if (r->imports[k].fd >= 0)
            close(r->imports[k].fd);
        free(r->imports[k].rx);
        if (r->imports[k].resolving != NULL) { /* its answer reaches nobody; the loop frees it */
            r->imports[k].resolving->imp = NULL;
            (void)uv_cancel((uv_req_t *)&r->imports[k].resolving->req);
        }
    }
    OPENSSL_cleanse(r->secret, sizeof(r->secret));
    free(r->subs);
    free(r->imports);
    free(r);
    feed->relay = NULL;
}
