/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Push: a msgpack state frame (common/state_frame.h) per engine after each
 * step, at most one per push interval, and one per idle interval while
 * nothing happens, to a Unix datagram socket or UDP. A frame that cannot go
 * out (no listener yet, full buffer) is dropped, as an engine-side hook
 * would do. A Unix datagram socket queues only net.unix.max_dgram_qlen (10)
 * frames; real hooks are separate processes that each wait a moment for
 * room, so here a send to a full Unix queue waits up to PUSH_UNIX_WAIT_MS for
 * the reader. A reader that lets one such wait expire is taken as stalled:
 * sends stop waiting until one goes through again, so a stopped reader
 * cannot slow the fleet down.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "bench/sim/sim.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/state_frame.h"

#define PUSH_UNIX_WAIT_MS 10

int kvr_sim_push_open(kvr_sim_fleet_t *fleet)
{
    const char *target = fleet->cfg.push;
    fleet->push_fd = -1;
    if (!target || !*target)
        return 0;
    int family;
    memset(&fleet->push_addr, 0, sizeof fleet->push_addr);
    if (strncmp(target, "unix:", 5) == 0) {
        struct sockaddr_un *sun = (struct sockaddr_un *)&fleet->push_addr;
        const char *path = target + 5;
        if (!*path || strlen(path) >= sizeof sun->sun_path)
            return -EINVAL;
        sun->sun_family = AF_UNIX;
        memcpy(sun->sun_path, path, strlen(path) + 1);
        fleet->push_addr_len = (socklen_t)sizeof *sun;
        family = AF_UNIX;
    } else if (strncmp(target, "udp:", 4) == 0) {
        char host[128];
        const char *hp = target + 4;
        const char *colon = strrchr(hp, ':');
        if (!colon || colon == hp || (size_t)(colon - hp) >= sizeof host)
            return -EINVAL;
        memcpy(host, hp, (size_t)(colon - hp));
        host[colon - hp] = '\0';
        /* [::1]:port */
        char *h = host;
        if (h[0] == '[' && h[strlen(h) - 1] == ']') {
            h[strlen(h) - 1] = '\0';
            h++;
        }
        struct addrinfo hints = {.ai_socktype = SOCK_DGRAM, .ai_flags = AI_NUMERICHOST};
        struct addrinfo *res = NULL;
        if (getaddrinfo(h, colon + 1, &hints, &res) != 0 || !res)
            return -EINVAL;
        memcpy(&fleet->push_addr, res->ai_addr, res->ai_addrlen);
        fleet->push_addr_len = res->ai_addrlen;
        family = res->ai_family;
        freeaddrinfo(res);
    } else {
        return -EINVAL;
    }
    fleet->push_fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fleet->push_fd < 0)
        return -errno;
    fleet->push_blocking = family == AF_UNIX;
    if (fleet->push_blocking) {
        struct timeval tv = {.tv_sec = 0, .tv_usec = PUSH_UNIX_WAIT_MS * 1000};
        setsockopt(fleet->push_fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    }
    KVR_INFO("sim_push_target target=%s", target);
    return 0;
}

void kvr_sim_push_close(kvr_sim_fleet_t *fleet)
{
    if (fleet->push_fd >= 0)
        close(fleet->push_fd);
    fleet->push_fd = -1;
}

void kvr_sim_push_frame(kvr_sim_engine_t *e, bool force)
{
    kvr_sim_fleet_t *fleet = e->fleet;
    if (fleet->push_fd < 0 || e->faults.crashed || e->faults.stalled)
        return;
    uint64_t now = kvr_clock_now_ns();
    if (!force && now - e->last_push_ns < (uint64_t)fleet->cfg.push_interval_ms * KVR_NS_PER_MS)
        return;
    e->last_push_ns = now;
    kvr_state_frame_t f;
    memset(&f, 0, sizeof f);
    f.sample_unix_ns = kvr_clock_wall_ns();
    f.has_seq = true;
    f.seq = ++e->push_seq;
    kvr_engine_state_t *s = &f.state;
    snprintf(s->engine_id, sizeof s->engine_id, "%s", e->engine_id);
    s->dp_ranks = (uint32_t)e->dp;
    s->flags = KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_PENDING_PREFILL | KVR_SLOT_HAS_UTILIZATION;
    double usage = 0;
    for (int r = 0; r < e->dp; r++) {
        kvr_sim_rank_t *rank = &e->ranks[r];
        kvr_sim_model_t *m = &rank->model;
        uint64_t pending, largest;
        kvr_sim_model_pending_prefill(m, &pending, &largest);
        s->running += m->running.count;
        s->waiting += m->waiting.count;
        s->max_running += m->params.max_running;
        s->kv_tokens_used += kvr_sim_model_kv_used_tokens(m);
        s->kv_tokens_capacity += kvr_sim_model_kv_capacity_tokens(m);
        s->pending_prefill_tokens += pending;
        if (largest > s->max_prefill_remaining)
            s->max_prefill_remaining = largest;
        uint64_t cap = kvr_sim_model_kv_capacity_tokens(m);
        double u = cap ? (double)kvr_sim_model_kv_used_tokens(m) / (double)cap : 0;
        if (u > usage)
            usage = u;
        /* Busy while a step is in flight or work is queued: the push sees the instant. */
        double util = m->running.count ? 1.0 : 0.0;
        if (util > s->utilization)
            s->utilization = util;
    }
    s->kv_usage = usage;
    unsigned char buf[KVR_STATE_FRAME_MAX];
    size_t len;
    if (kvr_state_frame_encode(&f, buf, sizeof buf, &len) < 0)
        return;
    bool unix_target = fleet->push_addr.ss_family == AF_UNIX;
    int flags = MSG_NOSIGNAL | (unix_target && fleet->push_blocking ? 0 : MSG_DONTWAIT);
    ssize_t sent = sendto(fleet->push_fd, buf, len, flags, (struct sockaddr *)&fleet->push_addr,
                          fleet->push_addr_len);
    if (unix_target)
        fleet->push_blocking = sent >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
    if (sent < 0) {
        /* Logged once per thousand, so a missing listener does not flood the log. */
        if (fleet->push_errors++ % 1000 == 0)
            KVR_WARN("sim_push_failed error=\"%s\" failures=%llu", strerror(errno),
                     (unsigned long long)fleet->push_errors);
    }
}
