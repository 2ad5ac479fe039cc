/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --import-dns: relay peers found by DNS. Each NAME:PORT is a DNS watch
 * (common/dns_watch.h) on the resolver loop discovery.c runs each tick, as
 * --engine-dns is; every address of the answer is a peer tcp:ADDR:PORT that
 * relay.c imports from (kvr__feed_relay_import_add), and a peer missing from
 * --engine-dns-drain-after answers in a row is dropped with the engines it
 * relayed. This daemon's own address is left out: an answer address equal to
 * --export's bound address, or any address of this host's interfaces when
 * --export is bound to the wildcard, on --export's port. relay.c also spots
 * its own challenge in a handshake, for addresses no interface shows (a NAT).
 * Peers of all names together are at most --import-dns-max-peers.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "common/dns_watch.h"
#include "common/error.h"
#include "common/log.h"
#include "common/prom_writer.h"
#include "statefeed/feed.h"

typedef struct kvr__peers_s {
    kvr__feed_t *feed;
    kvr_dns_watch_t *watches[KVR_FEED_MAX_IMPORT_DNS];
    size_t n_watches;
    char self_url[KVR_FEED_MAX_IMPORT_DNS][KVR_DNS_WATCH_URL_MAX]; /* last own address logged */
    uint64_t over_limit_total[KVR_FEED_MAX_IMPORT_DNS];
    bool over_limit; /* logged once per episode */
} kvr__peers_t;

static size_t watch_index(const kvr__peers_t *p, const kvr_dns_watch_t *w)
{
    for (size_t i = 0; i < p->n_watches; i++)
        if (p->watches[i] == w)
            return i;
    return 0;
}

/* "http://ADDR:PORT" of the watch -> "tcp:ADDR:PORT" and its socket address. */
static int peer_of(const char *url, char *text, size_t text_len, struct sockaddr_storage *sa,
                   socklen_t *len)
{
    const char *hostport = strncmp(url, "http://", 7) == 0 ? url + 7 : url;
    const char *colon = strrchr(hostport, ':');
    if (colon == NULL || snprintf(text, text_len, "tcp:%s", hostport) >= (int)text_len)
        return -EINVAL;
    char host[64];
    const char *h = hostport;
    size_t n = (size_t)(colon - hostport);
    if (n >= 2 && h[0] == '[' && h[n - 1] == ']')
        h++, n -= 2;
    if (n >= sizeof host)
        return -EINVAL;
    memcpy(host, h, n);
    host[n] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV};
    struct addrinfo *res = NULL;
    if (getaddrinfo(host, colon + 1, &hints, &res) != 0 || res == NULL)
        return -EINVAL;
    int rc = -EINVAL;
    if (res->ai_addrlen <= sizeof *sa) {
        memcpy(sa, res->ai_addr, res->ai_addrlen);
        *len = res->ai_addrlen;
        rc = 0;
    }
    freeaddrinfo(res);
    return rc;
}

static uint16_t port_of(const struct sockaddr_storage *sa)
{
    if (sa->ss_family == AF_INET)
        return ntohs(((const struct sockaddr_in *)sa)->sin_port);
    if (sa->ss_family == AF_INET6)
        return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
    return 0;
}

/* Same family and address, ports aside. */
static bool same_host(const struct sockaddr *a, const struct sockaddr *b)
{
    if (a->sa_family != b->sa_family)
        return false;
    if (a->sa_family == AF_INET)
        return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
               ((const struct sockaddr_in *)b)->sin_addr.s_addr;
    if (a->sa_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
                      &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
    return false;
}

static bool is_wildcard(const struct sockaddr_storage *sa)
{
    if (sa->ss_family == AF_INET)
        return ((const struct sockaddr_in *)sa)->sin_addr.s_addr == htonl(INADDR_ANY);
    if (sa->ss_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)sa)->sin6_addr, &in6addr_any,
                      sizeof(struct in6_addr)) == 0;
    return false;
}

/* An address of one of this host's interfaces (a pod's own IP). */
static bool is_local(const struct sockaddr_storage *sa)
{
    if (sa->ss_family == AF_INET &&
        (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127)
        return true; /* all of 127/8 reaches this host */
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) < 0)
        return false; /* the handshake check still catches a connection to ourselves */
    bool found = false;
    for (struct ifaddrs *i = ifs; i != NULL && !found; i = i->ifa_next)
        found = i->ifa_addr != NULL && same_host(i->ifa_addr, (const struct sockaddr *)sa);
    freeifaddrs(ifs);
    return found;
}

/* This daemon's own export: its bound address, or any local one when bound to the wildcard. */
static bool is_self(kvr__feed_t *feed, const struct sockaddr_storage *sa)
{
    struct sockaddr_storage bound;
    socklen_t len;
    if (kvr__feed_relay_export_bound(feed, &bound, &len) < 0 || port_of(&bound) != port_of(sa))
        return false;
    if (!is_wildcard(&bound))
        return same_host((const struct sockaddr *)&bound, (const struct sockaddr *)sa);
    /* A wildcard IPv4 socket takes no IPv6 peer; a wildcard IPv6 one takes both. */
    if (bound.ss_family == AF_INET && sa->ss_family != AF_INET)
        return false;
    return is_local(sa);
}

static int on_join(kvr_dns_watch_t *w, const char *url, void *user)
{
    kvr__peers_t *p = user;
    size_t wi = watch_index(p, w);
    char text[KVR_DNS_PEER_ADDR_MAX];
    struct sockaddr_storage sa;
    socklen_t len = 0;
    if (peer_of(url, text, sizeof text, &sa, &len) < 0)
        return -EINVAL;
    if (is_self(p->feed, &sa)) {
        if (strcmp(p->self_url[wi], url) != 0) {
            snprintf(p->self_url[wi], sizeof p->self_url[wi], "%s", url);
            KVR_INFO("import_dns_self name=%s peer=%s reason=\"this daemon's own --export: not "
                     "imported\"",
                     w->spec, text);
        }
        return -EEXIST; /* a member the watch does not own: never a peer, never left */
    }
    int rc = kvr__feed_relay_import_add(p->feed, (const struct sockaddr *)&sa, len, text);
    if (rc == -ENOSPC) {
        p->over_limit_total[wi]++;
        if (!p->over_limit)
            KVR_WARN("import_dns_peers_over_limit name=%s peer=%s max=%u reason=\"more peers "
                     "answer than --import-dns-max-peers: the rest are not imported\"",
                     w->spec, text, p->feed->cfg.import_dns_max_peers);
        p->over_limit = true;
    }
    return rc;
}

static void on_leave(kvr_dns_watch_t *w, const char *url, void *user)
{
    kvr__peers_t *p = user;
    /* Another name that answers this address too takes it over: the peer stays. */
    for (size_t i = 0; i < p->n_watches; i++) {
        kvr_dns_watch_member_t *m = p->watches[i] == w ? NULL
                                                       : kvr_dns_watch_find(p->watches[i], url);
        if (m && m->missing == 0) {
            m->owned = true;
            return;
        }
    }
    char text[KVR_DNS_PEER_ADDR_MAX];
    struct sockaddr_storage sa;
    socklen_t len;
    if (peer_of(url, text, sizeof text, &sa, &len) == 0)
        kvr__feed_relay_import_remove(p->feed, text);
}

static void on_answered(kvr_dns_watch_t *w, void *user)
{
    kvr__peers_t *p = user;
    /* The watch's own cap left addresses out of this answer: the same bound, seen earlier. */
    if (w->last_dropped > 0 && !p->over_limit) {
        KVR_WARN("import_dns_peers_over_limit name=%s dropped=%u max=%u reason=\"more peers "
                 "answer than --import-dns-max-peers: the rest are not imported\"",
                 w->spec, w->last_dropped, p->feed->cfg.import_dns_max_peers);
        p->over_limit = true;
    }
    if (!p->over_limit)
        return;
    uint32_t owned = 0, dropped = 0;
    for (size_t i = 0; i < p->n_watches; i++) {
        owned += kvr_dns_watch_owned(p->watches[i]);
        dropped += p->watches[i]->last_dropped;
    }
    if (owned < p->feed->cfg.import_dns_max_peers && dropped == 0) {
        p->over_limit = false;
        KVR_INFO("import_dns_peers_within_limit peers=%u max=%u", owned,
                 p->feed->cfg.import_dns_max_peers);
    }
}

int kvr__feed_peers_start(kvr__feed_t *feed)
{
    uv_loop_t *loop = kvr__feed_resolver_loop(feed);
    if (feed->cfg.import_dns_count == 0)
        return 0;
    if (loop == NULL || feed->relay == NULL)
        return -EINVAL;
    kvr__peers_t *p = calloc(1, sizeof *p);
    if (p == NULL)
        return -ENOMEM;
    p->feed = feed;
    feed->peers = p;
    for (unsigned i = 0; i < feed->cfg.import_dns_count; i++) {
        kvr_dns_watch_config_t wc = {
            .spec = feed->cfg.import_dns[i],
            .interval_ms = feed->cfg.engine_dns_interval_s * 1000,
            .drain_after = feed->cfg.engine_dns_drain_after,
            /* The cap over all names is the relay's; one more member for our own address. */
            .max_members = feed->cfg.import_dns_max_peers + 1,
            .join = on_join,
            .leave = on_leave,
            .answered = on_answered,
            .family = kvr_dns_watch_family(feed->cfg.engine_dns_family),
            .user = p,
        };
        kvr_dns_watch_t *w = calloc(1, sizeof *w);
        int rc = w ? kvr_dns_watch_init(w, loop, &wc) : -ENOMEM;
        if (rc == 0) {
            p->watches[p->n_watches++] = w;
            rc = kvr_dns_watch_start(w);
        } else {
            free(w);
        }
        if (rc < 0) {
            KVR_ERROR("import_dns_start_failed name=%s error=\"%s\"", wc.spec, kvr_strerror(rc));
            return rc; /* the caller stops and frees what started */
        }
    }
    return 0;
}

void kvr__feed_peers_stop(kvr__feed_t *feed)
{
    kvr__peers_t *p = feed->peers;
    for (size_t i = 0; p != NULL && i < p->n_watches; i++)
        kvr_dns_watch_stop(p->watches[i], NULL);
}

void kvr__feed_peers_free(kvr__feed_t *feed)
{
    kvr__peers_t *p = feed->peers;
    if (p == NULL)
        return;
    for (size_t i = 0; i < p->n_watches; i++) {
        kvr_dns_watch_close(p->watches[i]);
        free(p->watches[i]);
    }
    free(p);
    feed->peers = NULL;
}

/* Owned members of w whose import is connected. */
static uint32_t connected_peers(kvr__feed_t *feed, kvr_dns_watch_t *w)
{
    kvr__feed_relay_stats_t rs;
    kvr__feed_relay_stats(feed, &rs);
    uint32_t n = 0;
    for (uint32_t m = 0; m < w->n_members; m++) {
        char text[KVR_DNS_PEER_ADDR_MAX];
        struct sockaddr_storage sa;
        socklen_t len;
        if (!w->members[m].owned || peer_of(w->members[m].url, text, sizeof text, &sa, &len) < 0)
            continue;
        for (unsigned k = 0; k < rs.imports; k++) {
            kvr__feed_import_stats_t is;
            if (kvr__feed_relay_import_stats(feed, k, &is) && strcmp(is.addr, text) == 0) {
                n += is.connected;
                break;
            }
        }
    }
    return n;
}

void kvr__feed_peers_metrics(kvr__feed_t *feed, kvr_prom_writer_t *pw)
{
    kvr__peers_t *p = feed->peers;
    if (p == NULL)
        return;
    static const struct {
        const char *name, *help;
        kvr_prom_type_t type;
    } families[] = {
        {"kvroute_statefeed_import_dns_peers", "Relay peers imported from this name's answer.",
         KVR_PROM_GAUGE},
        {"kvroute_statefeed_import_dns_peers_connected",
         "Relay peers of this name whose import is connected.", KVR_PROM_GAUGE},
        {"kvroute_statefeed_import_dns_resolutions_total", "Resolutions of this name.",
         KVR_PROM_COUNTER},
        {"kvroute_statefeed_import_dns_resolve_failures_total",
         "Failed resolutions of this name (the peers are kept).", KVR_PROM_COUNTER},
        {"kvroute_statefeed_import_dns_peers_added_total", "Peers this name added.",
         KVR_PROM_COUNTER},
        {"kvroute_statefeed_import_dns_peers_removed_total",
         "Peers dropped after missing from the answers.", KVR_PROM_COUNTER},
        {"kvroute_statefeed_import_dns_peers_over_limit_total",
         "Peer addresses left out past --import-dns-max-peers, counted per answer.",
         KVR_PROM_COUNTER},
    };
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        kvr_prom_family(pw, families[f].name, families[f].type, families[f].help);
        for (size_t i = 0; i < p->n_watches; i++) {
            kvr_dns_watch_t *w = p->watches[i];
            uint64_t v = f == 0   ? kvr_dns_watch_owned(w)
                         : f == 1 ? connected_peers(feed, w)
                         : f == 2 ? w->resolutions_total
                         : f == 3 ? w->resolve_failures_total
                         : f == 4 ? w->added_total
                         : f == 5 ? w->removed_total
                                  : p->over_limit_total[i] + w->dropped_total;
            kvr_prom_label_t l = {"name", w->spec};
            kvr_prom_sample_u64(pw, families[f].name, &l, 1, v);
        }
    }
    kvr_prom_family(pw, "kvroute_statefeed_import_dns_max_peers", KVR_PROM_GAUGE,
                    "--import-dns-max-peers: peers imported at once over all names.");
    kvr_prom_sample_u64(pw, "kvroute_statefeed_import_dns_max_peers", NULL, 0,
                        feed->cfg.import_dns_max_peers);
}
