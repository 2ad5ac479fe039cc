/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Source "push": msgpack state frames from engine-side hooks, one per
 * datagram, on a Unix datagram socket and optionally UDP. The only source
 * of pending-prefill for vLLM, and the freshest one: while a pushed sample is
 * young it wins over polling the same engine.
 */
#include <errno.h>
#include <assert.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/engine_spec.h"
#include "common/error.h"
#include "common/log.h"
#include "common/state_frame.h"
#include "statefeed/feed.h"

/* Largest gap in a sender's frame counter counted as lost frames (a second of a very busy hook). */
#define PUSH_MAX_GAP (1u << 20)

static int arm(kvr__feed_t *feed, kvr__push_sock_t *sock)
{
    struct io_uring_sqe *sqe = kvr__ring_sqe(&feed->ring);
    if (sqe == NULL)
        return -EBUSY;
    /* One byte more than the largest frame, so an oversize datagram shows. */
    size_t cap = KVR_STATE_FRAME_MAX + 1 < sizeof(sock->buf) ? KVR_STATE_FRAME_MAX + 1
                                                             : sizeof(sock->buf);
    io_uring_prep_recv(sqe, sock->fd, sock->buf, cap, 0);
    io_uring_sqe_set_data(sqe, &sock->op);
    return 0;
}

static int bind_unix(const char *path)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof(addr.sun_path))
        return -ENAMETOOLONG;
    snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    /* A stale socket file from a previous run blocks bind; a live one would
     * too, but then two daemons share one segment name, which create refuses. */
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
        unlink(path);
    if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
        int err = -errno;
        close(fd);
        return err;
    }
    chmod(path, 0660);
    int size = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
    return fd;
}

static int bind_udp(const char *hostport)
{
    char host[256];
    snprintf(host, sizeof(host), "%s", hostport);
    char *colon = strrchr(host, ':');
    if (colon == NULL)
        return -EINVAL;
    *colon = '\0';
    const char *port = colon + 1;
    char *h = host;
    if (h[0] == '[') {
        h++;
        char *close = strchr(h, ']');
        if (close == NULL)
            return -EINVAL;
        *close = '\0';
    }
    /* Push frames carry no credentials: a bare ":PORT" is loopback, and
     * reaching other hosts takes naming an interface (or 0.0.0.0). */
    if (h[0] == '\0')
        h = "127.0.0.1";
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC, .ai_socktype = SOCK_DGRAM, .ai_flags = AI_NUMERICSERV};
    struct addrinfo *res = NULL;
    if (getaddrinfo(h, port, &hints, &res) != 0 || res == NULL)
        return -EINVAL;
    if (strcmp(h, "0.0.0.0") == 0 || strcmp(h, "::") == 0)
        KVR_WARN(
            "push_udp_unauthenticated addr=%s reason=\"any host that reaches this port can push "
            "engine state; bind a private interface or firewall it\"",
            hostport);
    int fd = socket(res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        freeaddrinfo(res);
        return -errno;
    }
    int rc = bind(fd, res->ai_addr, res->ai_addrlen);
    freeaddrinfo(res);
    if (rc < 0) {
        int err = -errno;
        close(fd);
        return err;
    }
    int size = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
    return fd;
}

int kvr__feed_push_start(kvr__feed_t *feed)
{
    feed->push_unix.fd = -1;
    feed->push_udp.fd = -1;
    kvr__push_sock_t *socks[2] = {&feed->push_unix, &feed->push_udp};
    for (int i = 0; i < 2; i++) {
        socks[i]->op.kind = KVR_OP_PUSH;
        socks[i]->op.owner = socks[i];
        socks[i]->feed = feed;
    }
    if (feed->cfg.push_socket[0] != '\0') {
        int fd = bind_unix(feed->cfg.push_socket);
        if (fd < 0) {
            KVR_ERROR("push_socket_failed path=%s reason=\"%s\"", feed->cfg.push_socket,
                      kvr_strerror(fd));
            return fd;
        }
        feed->push_unix.fd = fd;
        KVR_INFO("push_listening socket=%s", feed->cfg.push_socket);
        if (arm(feed, &feed->push_unix) < 0)
            return -EBUSY;
    }
    if (feed->cfg.push_udp[0] != '\0') {
        int fd = bind_udp(feed->cfg.push_udp);
        if (fd < 0) {
            KVR_ERROR("push_udp_failed addr=%s reason=\"%s\"", feed->cfg.push_udp,
                      kvr_strerror(fd));
            return fd;
        }
        feed->push_udp.fd = fd;
        KVR_INFO("push_listening udp=%s", feed->cfg.push_udp);
        if (arm(feed, &feed->push_udp) < 0)
            return -EBUSY;
    }
    return 0;
}

int kvr__feed_push_frame(kvr__feed_t *feed, const void *buf, size_t len, uint64_t now_ns)
{
    kvr_state_frame_t frame;
    const char *reason = NULL;
    int rc = kvr_state_frame_decode(buf, len, &frame, &reason);
    if (rc < 0) {
        feed->push_rejected++;
        /* Logged at most every 1024 rejects: a broken hook sends at step rate. */
        if ((feed->push_rejected & 1023) == 1)
            KVR_WARN("push_frame_rejected reason=\"%s\" bytes=%zu rejected_total=%llu",
                     reason ? reason : kvr_strerror(rc), len,
                     (unsigned long long)feed->push_rejected);
        return rc;
    }
    kvr__feed_engine_t *e = kvr__feed_engine_find(feed, frame.state.engine_id);
    kvr_engine_spec_t spec;
    char why[160];
    /* A hook may name its engine as the operator wrote it ("http://h/"): the id is its normal form. */
    if (e == NULL && kvr_engine_spec_parse_url(frame.state.engine_id, &spec, why, sizeof why) == 0)
        e = kvr__feed_engine_find(feed, spec.url);
    if (e == NULL || e->kind == KVR_FEED_KIND_RELAY) {
        feed->push_unknown_engine++;
        if ((feed->push_unknown_engine & 1023) == 1)
            KVR_WARN("push_frame_unknown_engine engine=%s unknown_total=%llu",
                     frame.state.engine_id, (unsigned long long)feed->push_unknown_engine);
        return -ENOENT;
    }
    /* Reordered datagrams need no sequence check here: the publisher drops a
     * sample older than the one in the slot, and a restarted hook's counter
     * starting over must not be mistaken for a replay. */
    bool skewed = false;
    uint64_t sample_ns = kvr_state_frame_local_sample_time(&frame, now_ns, kvr_clock_wall_ns(),
                                                           &skewed);
    if (skewed && (e->push_frames & 1023) == 0)
        KVR_WARN("push_clock_skew engine=%s reason=\"sender clock differs by over 60 s\"", e->id);
    e->push_frames++;
    e->last_push_ns = now_ns;
    if (frame.has_seq) {
        /* Gaps in the sender's counter are frames lost on the way (a full
         * datagram queue, UDP loss); a counter that starts over is a restart. */
        if (e->has_push_seq && frame.seq > e->last_push_seq) {
            /* A jump past PUSH_MAX_GAP is a new counter (or a lie), not that many
             * losses: one frame must not move the loss metric by 2^64. */
            uint64_t gap = frame.seq - e->last_push_seq - 1;
            if (gap <= PUSH_MAX_GAP)
                e->push_frames_lost += gap;
        }
        e->last_push_seq = frame.seq;
        e->has_push_seq = true;
    }
    kvr__feed_publish_sample(feed, e, &frame.state, KVR_SOURCE_PUSH, sample_ns, now_ns);
    return 0;
}

/*
 * Takes every datagram already queued, KVR_FEED_PUSH_DRAIN_BATCH per syscall. A Unix
 * datagram socket queues only net.unix.max_dgram_qlen frames (10 by default),
 * and a fleet's hooks tend to send in bursts, so one frame per completion
 * would drop most of a burst at the sender. The buffers live in the feed.
 */
static_assert(KVR_FEED_PUSH_DGRAM_MAX == KVR_STATE_FRAME_MAX + 1, "push datagram buffer size");

static void drain(kvr__feed_t *feed, kvr__push_sock_t *sock)
{
    char(*bufs)[KVR_FEED_PUSH_DGRAM_MAX] = feed->push_drain_bufs;
    struct mmsghdr msgs[KVR_FEED_PUSH_DRAIN_BATCH];
    struct iovec iov[KVR_FEED_PUSH_DRAIN_BATCH];
    for (int round = 0; round < 64; round++) {
        for (int i = 0; i < KVR_FEED_PUSH_DRAIN_BATCH; i++) {
            iov[i].iov_base = bufs[i];
            iov[i].iov_len = sizeof(bufs[i]);
            memset(&msgs[i], 0, sizeof(msgs[i]));
            msgs[i].msg_hdr.msg_iov = &iov[i];
            msgs[i].msg_hdr.msg_iovlen = 1;
        }
        int n = recvmmsg(sock->fd, msgs, KVR_FEED_PUSH_DRAIN_BATCH, MSG_DONTWAIT, NULL);
        if (n <= 0)
            return;
        uint64_t now = kvr_clock_now_ns();
        for (int i = 0; i < n; i++)
            kvr__feed_push_frame(feed, bufs[i], msgs[i].msg_len, now);
        if (n < KVR_FEED_PUSH_DRAIN_BATCH)
            return;
    }
}

void kvr__feed_push_on_cqe(kvr__feed_t *feed, kvr__push_sock_t *sock, int res)
{
    if (sock->fd < 0)
        return;
    if (res >= 0) {
        kvr__feed_push_frame(feed, sock->buf, (size_t)res, kvr_clock_now_ns());
        drain(feed, sock);
    } else if (res != -EINTR && res != -EAGAIN) {
        KVR_WARN("push_recv_failed reason=\"%s\"", kvr_strerror(res));
    }
    if (!feed->stopping)
        arm(feed, sock);
}

void kvr__feed_push_stop(kvr__feed_t *feed)
{
    if (feed->push_unix.fd >= 0) {
        close(feed->push_unix.fd);
        feed->push_unix.fd = -1;
        unlink(feed->cfg.push_socket);
    }
    if (feed->push_udp.fd >= 0) {
        close(feed->push_udp.fd);
        feed->push_udp.fd = -1;
    }
}
