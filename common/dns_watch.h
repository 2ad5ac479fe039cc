/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_DNS_WATCH_H
#define KVR_COMMON_DNS_WATCH_H

/*
 * Engine discovery from DNS: NAME:PORT is resolved every interval with
 * libuv's resolver (uv_getaddrinfo, on the threadpool, never on the loop),
 * and each address of the answer becomes an engine base URL
 * (http://10.0.0.5:8000, http://[fd00::5]:8000). A Kubernetes headless
 * Service answers one address per ready pod.
 *
 * The owner (router, statefeed) is told through two callbacks: join when an
 * address appears, leave when it has been missing from `drain_after`
 * successful answers in a row (an answer that flaps every period moves no
 * engine). A failed resolution changes nothing: a resolver outage must not
 * remove every engine. An answer larger than max_members keeps the members
 * it has and takes new addresses in sorted order up to the cap; the rest
 * are counted as dropped.
 */

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "common/options.h"

#define KVR_DNS_WATCH_NAME_MAX 254 /* a DNS name of 253 bytes at most */
#define KVR_DNS_WATCH_URL_MAX 72   /* "http://[" INET6_ADDRSTRLEN "]:65535" */

typedef struct kvr_dns_watch_s kvr_dns_watch_t;

/**
 * An address appeared: 0 when the owner added its engine (the watch then
 * owns it and will call leave), -EEXIST when an engine of that URL exists
 * already (static --engine, another name: never left by this watch), other
 * -errno when it could not be added (retried at the next answer).
 */
typedef int (*kvr_dns_watch_join_fn)(kvr_dns_watch_t *w, const char *url, void *user);
/** An owned address stayed missing drain_after answers in a row: drain and remove its engine. */
typedef void (*kvr_dns_watch_leave_fn)(kvr_dns_watch_t *w, const char *url, void *user);

typedef struct kvr_dns_watch_member_s {
    char url[KVR_DNS_WATCH_URL_MAX];
    uint32_t missing; /* successful answers in a row without it */
    bool owned;       /* join added it: leave removes it */
} kvr_dns_watch_member_t;

typedef struct kvr_dns_watch_config_s {
    const char *spec;     /* NAME:PORT as given, for logs and metric labels */
    uint64_t interval_ms; /* between the end of one resolution and the next start */
    uint32_t drain_after; /* >= 1 */
    uint32_t max_members; /* the engine table's capacity */
    kvr_dns_watch_join_fn join;
    kvr_dns_watch_leave_fn leave;
    void (*answered)(kvr_dns_watch_t *w,
                     void *user); /* after each resolution, failed or not; may be NULL */
    int family;                   /* AF_UNSPEC (both), AF_INET or AF_INET6 */
    void *user;
} kvr_dns_watch_config_t;

struct kvr_dns_watch_s {
    uv_loop_t *loop;
    kvr_dns_watch_config_t cfg;
    char spec[KVR_DNS_WATCH_NAME_MAX + 8];
    char name[KVR_DNS_WATCH_NAME_MAX];
    char port[8];
    kvr_dns_watch_member_t *members;
    uint32_t n_members;
    uv_timer_t timer;
    uv_getaddrinfo_t req;
    bool resolving;
    bool stopping;
    bool timer_open;
    int last_error;        /* the last resolution's error, 0 after a good one (logged on change) */
    int last_join_error;   /* logged on change */
    uint32_t last_dropped; /* logged on change */
    void (*on_stopped)(kvr_dns_watch_t *w);
    /* Totals for /metrics. */
    uint64_t resolutions_total;
    uint64_t resolve_failures_total;
    uint64_t added_total;
    uint64_t removed_total;
    uint64_t add_failures_total;
    uint64_t dropped_total; /* addresses over max_members, summed over answers */
};

/** The --engine-dns-family names, NULL-terminated: "any", "ipv4", "ipv6". */
extern const char *const kvr_dns_watch_family_names[];
/** AF_UNSPEC, AF_INET or AF_INET6 for an index of kvr_dns_watch_family_names. */
int kvr_dns_watch_family(int index);

/**
 * Splits "NAME:PORT[,OPTIONS]" ([v6]:PORT too): name copied out, port in
 * [1, 65535], *options set to what follows the first comma ("" when none).
 * 0 or -EINVAL.
 */
int kvr_dns_watch_parse(const char *text, char *name, size_t name_len, uint16_t *port,
                        const char **options);
/** "http://ADDR:PORT" or "http://[ADDR6]:PORT" for a numeric address; 0 or -EINVAL. */
int kvr_dns_watch_url(const struct sockaddr *sa, char *out, size_t out_len);
/** Prepares w on loop from cfg (spec parsed, options ignored); 0 or -EINVAL / -ENOMEM. */
int kvr_dns_watch_init(kvr_dns_watch_t *w, uv_loop_t *loop, const kvr_dns_watch_config_t *cfg);
/** Resolves now, then every interval. 0 or -errno. */
int kvr_dns_watch_start(kvr_dns_watch_t *w);
/**
 * Stops resolving (a resolution in flight is cancelled or its answer
 * ignored); stopped(w) runs once no handle or request of w is left on the
 * loop. Engines stay as they are.
 */
void kvr_dns_watch_stop(kvr_dns_watch_t *w, void (*stopped)(kvr_dns_watch_t *w));
/** Frees the member list; after stopped ran, or when never started. */
void kvr_dns_watch_close(kvr_dns_watch_t *w);
/** The member of this URL, owned or not, or NULL. */
kvr_dns_watch_member_t *kvr_dns_watch_find(kvr_dns_watch_t *w, const char *url);
/** Members whose engine this watch added. */
uint32_t kvr_dns_watch_owned(const kvr_dns_watch_t *w);
/**
 * Applies one successful answer (addresses as URLs, any order, repeats
 * allowed): the membership rules above. Exposed for tests; the resolver's
 * callback calls it.
 */
void kvr_dns_watch_apply(kvr_dns_watch_t *w, const char *const *urls, size_t n_urls);
struct kvr_prom_writer_s;
/**
 * Writes the watches' counters as <prefix>_discovery_* families labelled
 * name="NAME:PORT" (engines, resolutions_total, resolve_failures_total,
 * engines_added_total, engines_removed_total, add_failures_total,
 * addresses_dropped_total).
 */
void kvr_dns_watch_metrics(struct kvr_prom_writer_s *pw, const char *prefix,
                           kvr_dns_watch_t *const *watches, size_t n);
/** Records a failed resolution (a negative libuv error): counted, logged on change, no removal. */
void kvr_dns_watch_failed(kvr_dns_watch_t *w, int uv_error);

/*
 * The flags every --engine-dns program takes, as rows of its option table;
 * T has an unsigned engine_dns_interval_s and engine_dns_drain_after and an
 * int engine_dns_family. what_drains ends the drain-after help: what is done
 * to an address missing from that many answers in a row.
 */
#define KVR_DNS_WATCH_OPTION_ROWS(T, what_drains)                                                  \
    KVR_OPT_ROW_U64(T, engine_dns_interval_s, "engine-dns-interval-s", "S", "5", 1, 3600,          \
                    "--engine-dns: seconds between the end of one resolution and the next"),       \
        KVR_OPT_ROW_ENUM(                                                                          \
            T, engine_dns_family, "engine-dns-family", "any|ipv4|ipv6", "any",                     \
            kvr_dns_watch_family_names,                                                            \
            "--engine-dns: which addresses of the answer are engines; on a dual-stack "            \
            "cluster a pod has an A and an AAAA record, so pick one family or it counts "          \
            "as two engines"),                                                                     \
        KVR_OPT_ROW_U64(                                                                           \
            T, engine_dns_drain_after, "engine-dns-drain-after", "N", "2", 1, 100,                 \
            "--engine-dns: an address must be missing from N answers in a row before " what_drains)

#endif
