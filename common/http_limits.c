/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HTTP server's connection limits: open connections per peer address,
 * refusals counted and logged at most once a second, and the process's
 * open-file limit against max_connections.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/http_internal.h"
#include "common/log.h"
#include "common/prom_writer.h"
#include "common/xmalloc.h"

/* ---- connections per peer address ---- */

/* The slot holding (family, addr), or the free slot where it would go. */
static kvr__http_peer_slot_t *peer_slot(kvr_http_server_t *srv, uint8_t family,
                                        const uint8_t addr[16])
{
    uint64_t h = 1469598103934665603ull ^ family; /* FNV-1a */
    for (int i = 0; i < 16; i++)
        h = (h ^ addr[i]) * 1099511628211ull;
    for (size_t i = (size_t)h & srv->peers_mask;; i = (i + 1) & srv->peers_mask) {
        kvr__http_peer_slot_t *slot = &srv->peers[i];
        if (slot->family == 0 || (slot->family == family && memcmp(slot->addr, addr, 16) == 0))
            return slot;
    }
}

/* Empties a slot, moving later entries of its probe run back (no tombstones). */
static void peer_slot_clear(kvr_http_server_t *srv, kvr__http_peer_slot_t *slot)
{
    size_t hole = (size_t)(slot - srv->peers);
    srv->peers[hole].family = 0;
    for (size_t i = (hole + 1) & srv->peers_mask; srv->peers[i].family;
         i = (i + 1) & srv->peers_mask) {
        kvr__http_peer_slot_t moved = srv->peers[i];
        srv->peers[i].family = 0;
        *peer_slot(srv, moved.family, moved.addr) = moved;
    }
}

/* Peer address of a TCP connection as a table key; 0 when it has none. */
int kvr__http_peer_key(const struct sockaddr_storage *ss, uint8_t *family, uint8_t addr[16])
{
    memset(addr, 0, 16);
    if (ss->ss_family == AF_INET) {
        *family = AF_INET;
        memcpy(addr, &((const struct sockaddr_in *)ss)->sin_addr, 4);
        return 1;
    }
    if (ss->ss_family == AF_INET6) {
        *family = AF_INET6;
        memcpy(addr, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
        return 1;
    }
    return 0;
}

/* Connections the peer has open now. */
uint32_t kvr__http_peer_count(kvr_http_server_t *srv, uint8_t family, const uint8_t addr[16])
{
    kvr__http_peer_slot_t *slot = peer_slot(srv, family, addr);
    return slot->family ? slot->count : 0;
}

/* Doubles the table once it is half full, so that probe runs stay short. */
static void peers_grow(kvr_http_server_t *srv)
{
    size_t slots = srv->peers_mask + 1;
    kvr__http_peer_slot_t *old = srv->peers;
    srv->peers = kvr_xcalloc(2 * slots, sizeof *srv->peers);
    srv->peers_mask = 2 * slots - 1;
    for (size_t i = 0; i < slots; i++)
        if (old[i].family)
            *peer_slot(srv, old[i].family, old[i].addr) = old[i];
    free(old);
}

void kvr__http_peer_add(kvr__http_conn_t *conn, uint8_t family, const uint8_t addr[16])
{
    kvr_http_server_t *srv = conn->srv;
    kvr__http_peer_slot_t *slot = peer_slot(srv, family, addr);
    if (!slot->family && 2 * (srv->npeers + 1) > srv->peers_mask + 1) {
        peers_grow(srv);
        slot = peer_slot(srv, family, addr);
    }
    if (!slot->family) {
        srv->npeers++;
        slot->family = family;
        memcpy(slot->addr, addr, 16);
        slot->count = 0;
    }
    slot->count++;
    conn->peer_family = family;
    memcpy(conn->peer_addr, addr, 16);
}

void kvr__http_peer_remove(kvr__http_conn_t *conn)
{
    if (!conn->peer_family)
        return;
    kvr_http_server_t *srv = conn->srv;
    kvr__http_peer_slot_t *slot = peer_slot(srv, conn->peer_family, conn->peer_addr);
    assert(slot->family && slot->count > 0);
    if (--slot->count == 0) {
        peer_slot_clear(srv, slot);
        srv->npeers--;
    }
    conn->peer_family = 0;
}

/* ---- refused connections ---- */

#define KVR_HTTP_REFUSE_LOG_NS 1000000000ull

static void refusals_log(kvr_http_server_t *srv, const char *reason, const char *peer)
{
    KVR_WARN("http_connections_refused reason=%s peer=%s refused=%" PRIu64
             " max_connections=%u max_connections_per_peer=%u open=%zu",
             reason, peer, srv->refused_unlogged, srv->cfg.max_connections,
             srv->cfg.max_connections_per_peer, srv->nconns);
    srv->refused_unlogged = 0;
    srv->refuse_logged_ns = kvr_clock_now_ns();
}

void kvr__http_refuse_timer_cb(uv_timer_t *timer)
{
    kvr_http_server_t *srv = timer->data;
    if (srv->refused_unlogged)
        refusals_log(srv, "mixed", "-");
}

/*
 * Counts a refused connection. A flood of them writes one line a second at
 * most, each with how many were refused since the one before; the timer
 * writes the last count once the second is over.
 */
void kvr__http_refusal_count(kvr_http_server_t *srv, int per_peer, const char *peer)
{
    if (per_peer)
        srv->stats.refused_per_peer++;
    else
        srv->stats.refused_max_connections++;
    srv->refused_unlogged++;
    uint64_t now = kvr_clock_now_ns();
    uint64_t since = now - srv->refuse_logged_ns;
    if (srv->refuse_logged_ns == 0 || since >= KVR_HTTP_REFUSE_LOG_NS) {
        uv_timer_stop(&srv->refuse_timer);
        refusals_log(srv, per_peer ? "max_connections_per_peer" : "max_connections", peer);
        return;
    }
    if (!uv_is_active((uv_handle_t *)&srv->refuse_timer) && !srv->destroying)
        uv_timer_start(&srv->refuse_timer, kvr__http_refuse_timer_cb,
                       (KVR_HTTP_REFUSE_LOG_NS - since) / 1000000u + 1, 0);
}

int kvr_http_raise_fd_limit(uint64_t connections, uint64_t *nofile)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return -errno;
    uint64_t was = (uint64_t)rl.rlim_cur;
    if (rl.rlim_cur != rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
            int err = -errno;
            KVR_WARN("fd_limit_raise_failed nofile=%" PRIu64 " hard=%" PRIu64 " error=%s", was,
                     (uint64_t)rl.rlim_max, strerror(-err));
            if (nofile)
                *nofile = was;
            return err;
        }
    }
    KVR_INFO("fd_limit nofile=%" PRIu64 " was=%" PRIu64 " max_connections=%" PRIu64,
             (uint64_t)rl.rlim_cur, was, connections);
    /* The margin is for the program's own descriptors: engines, files, the loop. */
    if (rl.rlim_cur != RLIM_INFINITY && connections + 64 > (uint64_t)rl.rlim_cur)
        KVR_WARN("fd_limit_low nofile=%" PRIu64 " max_connections=%" PRIu64
                 " hint=\"connections past the descriptor limit fail at accept; raise the hard "
                 "limit (ulimit -Hn, LimitNOFILE=) or lower --max-connections\"",
                 (uint64_t)rl.rlim_cur, connections);
    if (nofile)
        *nofile = (uint64_t)rl.rlim_cur;
    return 0;
}

void kvr_http_server_write_metrics(const kvr_http_server_t *srv, kvr_prom_writer_t *w,
                                   const char *prefix)
{
    char name[128];
    kvr_http_server_stats_t st;
    kvr_http_server_stats(srv, &st);
    snprintf(name, sizeof name, "%s_http_connections", prefix);
    kvr_prom_family(w, name, KVR_PROM_GAUGE, "client connections open");
    kvr_prom_sample_u64(w, name, NULL, 0, kvr_http_server_connections(srv));
    snprintf(name, sizeof name, "%s_http_connections_refused_total", prefix);
    kvr_prom_family(w, name, KVR_PROM_COUNTER,
                    "client connections accepted and closed at once: --max-connections open "
                    "(total) or the peer address had --max-connections-per-peer open (per_peer)");
    kvr_prom_label_t total = {"reason", "total"}, per_peer = {"reason", "per_peer"};
    kvr_prom_sample_u64(w, name, &total, 1, st.refused_max_connections);
    kvr_prom_sample_u64(w, name, &per_peer, 1, st.refused_per_peer);
    snprintf(name, sizeof name, "%s_http_output_paused_total", prefix);
    kvr_prom_family(
        w, name, KVR_PROM_COUNTER,
        "times a connection stopped reading until its client took the responses queued");
    kvr_prom_sample_u64(w, name, NULL, 0, st.output_pauses);
    snprintf(name, sizeof name, "%s_http_output_timeouts_total", prefix);
    kvr_prom_family(w, name, KVR_PROM_COUNTER,
                    "connections closed because their client took no queued response for the idle "
                    "timeout");
    kvr_prom_sample_u64(w, name, NULL, 0, st.output_timeouts);
}
