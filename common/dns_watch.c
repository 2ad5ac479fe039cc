/* SPDX-License-Identifier: Apache-2.0 */
#include "common/dns_watch.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "common/error.h"
#include "common/log.h"
#include "common/prom_writer.h"

const char *const kvr_dns_watch_family_names[] = {"any", "ipv4", "ipv6", NULL};

int kvr_dns_watch_family(int index)
{
    return index == 1 ? AF_INET : index == 2 ? AF_INET6 : AF_UNSPEC;
}

int kvr_dns_watch_parse(const char *text, char *name, size_t name_len, uint16_t *port,
                        const char **options)
{
    const char *comma = strchr(text, ',');
    size_t len = comma ? (size_t)(comma - text) : strlen(text);
    const char *colon = NULL;
    for (size_t i = 0; i < len; i++)
        if (text[i] == ':')
            colon = text + i;
    if (!colon)
        return -EINVAL;
    const char *h = text;
    size_t n = (size_t)(colon - text);
    if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
        h++;
        n -= 2;
    }
    if (n == 0 || n >= name_len || n >= KVR_DNS_WATCH_NAME_MAX || memchr(h, '[', n) ||
        memchr(h, ']', n) || memchr(h, '/', n))
        return -EINVAL;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)h[i] <= ' ' || (unsigned char)h[i] >= 0x7f)
            return -EINVAL;
    size_t plen = len - (size_t)(colon + 1 - text);
    unsigned long p = 0;
    if (plen == 0 || plen > 5)
        return -EINVAL;
    for (size_t i = 0; i < plen; i++) {
        char c = colon[1 + i];
        if (c < '0' || c > '9')
            return -EINVAL;
        p = p * 10 + (unsigned long)(c - '0');
    }
    if (p == 0 || p > 65535)
        return -EINVAL;
    memcpy(name, h, n);
    name[n] = '\0';
    *port = (uint16_t)p;
    if (options)
        *options = comma ? comma + 1 : "";
    return 0;
}

int kvr_dns_watch_url(const struct sockaddr *sa, char *out, size_t out_len)
{
    char addr[INET6_ADDRSTRLEN];
    int n;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        if (!inet_ntop(AF_INET, &in->sin_addr, addr, sizeof addr))
            return -EINVAL;
        n = snprintf(out, out_len, "http://%s:%u", addr, (unsigned)ntohs(in->sin_port));
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        if (in6->sin6_scope_id != 0)
            return -EINVAL; /* a link-local address needs a zone no engine URL carries */
        if (!inet_ntop(AF_INET6, &in6->sin6_addr, addr, sizeof addr))
            return -EINVAL;
        n = snprintf(out, out_len, "http://[%s]:%u", addr, (unsigned)ntohs(in6->sin6_port));
    } else {
        return -EINVAL;
    }
    return n > 0 && (size_t)n < out_len ? 0 : -EINVAL;
}

int kvr_dns_watch_init(kvr_dns_watch_t *w, uv_loop_t *loop, const kvr_dns_watch_config_t *cfg)
{
    memset(w, 0, sizeof *w);
    uint16_t port;
    if (cfg->drain_after == 0 || cfg->max_members == 0 ||
        (cfg->family != AF_UNSPEC && cfg->family != AF_INET && cfg->family != AF_INET6) ||
        kvr_dns_watch_parse(cfg->spec, w->name, sizeof w->name, &port, NULL) < 0)
        return -EINVAL;
    w->loop = loop;
    w->cfg = *cfg;
    snprintf(w->port, sizeof w->port, "%u", (unsigned)port);
    snprintf(w->spec, sizeof w->spec, "%s:%u", w->name, (unsigned)port);
    w->cfg.spec = w->spec;
    w->members = calloc(cfg->max_members, sizeof *w->members);
    return w->members ? 0 : -ENOMEM;
}

void kvr_dns_watch_close(kvr_dns_watch_t *w)
{
    free(w->members);
    w->members = NULL;
    w->n_members = 0;
}

kvr_dns_watch_member_t *kvr_dns_watch_find(kvr_dns_watch_t *w, const char *url)
{
    for (uint32_t i = 0; i < w->n_members; i++)
        if (strcmp(w->members[i].url, url) == 0)
            return &w->members[i];
    return NULL;
}

uint32_t kvr_dns_watch_owned(const kvr_dns_watch_t *w)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < w->n_members; i++)
        n += w->members[i].owned;
    return n;
}

static int compare_urls(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool in_answer(const char *const *sorted, size_t n, const char *url)
{
    return bsearch(&url, sorted, n, sizeof *sorted, compare_urls) != NULL;
}

/* Asks the owner for url's engine: a member it added is owned; one that exists already is not. */
static void join(kvr_dns_watch_t *w, kvr_dns_watch_member_t *m)
{
    int rc = w->cfg.join(w, m->url, w->cfg.user);
    if (rc == 0) {
        m->owned = true;
        w->added_total++;
        KVR_INFO("discovery_engine_added name=%s engine=%s members=%u", w->spec, m->url,
                 w->n_members);
        return;
    }
    if (rc == -EEXIST)
        return;
    w->add_failures_total++;
    if (rc != w->last_join_error)
        KVR_WARN("discovery_add_failed name=%s engine=%s error=\"%s\" retry=next_answer", w->spec,
                 m->url, kvr_strerror(rc));
    w->last_join_error = rc;
}

void kvr_dns_watch_apply(kvr_dns_watch_t *w, const char *const *urls, size_t n_urls)
{
    if (w->last_error != 0)
        KVR_INFO("discovery_resolve_recovered name=%s addresses=%zu", w->spec, n_urls);
    w->last_error = 0;
    /* Sorted and without repeats: the cap keeps the same addresses from one answer to the next. */
    const char **sorted = malloc((n_urls ? n_urls : 1) * sizeof *sorted);
    if (!sorted) {
        kvr_dns_watch_failed(w, UV_ENOMEM);
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < n_urls; i++)
        if (strnlen(urls[i], KVR_DNS_WATCH_URL_MAX) <
            KVR_DNS_WATCH_URL_MAX) /* no engine URL is longer */
            sorted[n++] = urls[i];
    qsort(sorted, n, sizeof *sorted, compare_urls);
    size_t kept_urls = 0;
    for (size_t i = 0; i < n; i++)
        if (kept_urls == 0 || strcmp(sorted[kept_urls - 1], sorted[i]) != 0)
            sorted[kept_urls++] = sorted[i];
    n = kept_urls;

    /* Members missing from this answer: drained after drain_after answers in a row. */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < w->n_members; i++) {
        kvr_dns_watch_member_t m = w->members[i];
        if (in_answer(sorted, n, m.url)) {
            m.missing = 0;
        } else if (++m.missing >= w->cfg.drain_after) {
            if (m.owned) {
                w->removed_total++;
                KVR_INFO("discovery_engine_removed name=%s engine=%s missing_answers=%u", w->spec,
                         m.url, m.missing);
                w->cfg.leave(w, m.url, w->cfg.user);
            }
            continue;
        }
        w->members[kept++] = m;
    }
    w->n_members = kept;
    /* Members that stay but are not ours: their engine may have gone (reload, admin), ours to add. */
    for (uint32_t i = 0; i < w->n_members; i++)
        if (!w->members[i].owned && w->members[i].missing == 0)
            join(w, &w->members[i]);

    uint32_t dropped = 0;
    for (size_t i = 0; i < n; i++) {
        if (kvr_dns_watch_find(w, sorted[i]))
            continue;
        if (w->n_members == w->cfg.max_members) {
            dropped++;
            continue;
        }
        kvr_dns_watch_member_t *m = &w->members[w->n_members++];
        memset(m, 0, sizeof *m);
        snprintf(m->url, sizeof m->url, "%s", sorted[i]);
        join(w, m);
    }
    w->dropped_total += dropped;
    if (dropped != w->last_dropped)
        KVR_WARN("discovery_answer_capped name=%s addresses=%zu members=%u max=%u dropped=%u",
                 w->spec, n, w->n_members, w->cfg.max_members, dropped);
    w->last_dropped = dropped;
    free(sorted);
}

void kvr_dns_watch_failed(kvr_dns_watch_t *w, int uv_error)
{
    w->resolve_failures_total++;
    if (uv_error != w->last_error)
        KVR_WARN("discovery_resolve_failed name=%s error=\"%s\" engines_kept=%u", w->spec,
                 uv_strerror(uv_error), kvr_dns_watch_owned(w));
    w->last_error = uv_error;
}

static void maybe_stopped(kvr_dns_watch_t *w)
{
    if (!w->stopping || w->resolving || w->timer_open)
        return;
    void (*stopped)(kvr_dns_watch_t *) = w->on_stopped;
    w->on_stopped = NULL;
    if (stopped)
        stopped(w);
}

static void on_timer(uv_timer_t *t);

static void on_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
    kvr_dns_watch_t *w = req->data;
    w->resolving = false;
    if (w->stopping) {
        uv_freeaddrinfo(res);
        maybe_stopped(w);
        return;
    }
    w->resolutions_total++;
    if (status < 0) {
        kvr_dns_watch_failed(w, status);
    } else {
        size_t n = 0;
        for (struct addrinfo *ai = res; ai; ai = ai->ai_next)
            n++;
        char(*buf)[KVR_DNS_WATCH_URL_MAX] = malloc((n ? n : 1) * sizeof *buf);
        const char **urls = malloc((n ? n : 1) * sizeof *urls);
        if (!buf || !urls) {
            kvr_dns_watch_failed(w, UV_ENOMEM);
        } else {
            size_t k = 0;
            for (struct addrinfo *ai = res; ai; ai = ai->ai_next)
                if (kvr_dns_watch_url(ai->ai_addr, buf[k], sizeof buf[k]) == 0) {
                    urls[k] = buf[k];
                    k++;
                }
            kvr_dns_watch_apply(w, urls, k);
        }
        free(urls);
        free(buf);
    }
    uv_freeaddrinfo(res);
    if (w->cfg.answered)
        w->cfg.answered(w, w->cfg.user);
    uv_timer_start(&w->timer, on_timer, w->cfg.interval_ms, 0);
}

static void resolve(kvr_dns_watch_t *w)
{
    struct addrinfo hints = {
        .ai_family = w->cfg.family, .ai_socktype = SOCK_STREAM, .ai_protocol = IPPROTO_TCP};
    w->req.data = w;
    int rc = uv_getaddrinfo(w->loop, &w->req, on_resolved, w->name, w->port, &hints);
    if (rc < 0) {
        w->resolutions_total++;
        kvr_dns_watch_failed(w, rc);
        uv_timer_start(&w->timer, on_timer, w->cfg.interval_ms, 0);
        return;
    }
    w->resolving = true;
}

static void on_timer(uv_timer_t *t)
{
    kvr_dns_watch_t *w = t->data;
    if (!w->stopping && !w->resolving)
        resolve(w);
}

int kvr_dns_watch_start(kvr_dns_watch_t *w)
{
    int rc = uv_timer_init(w->loop, &w->timer);
    if (rc < 0)
        return rc;
    w->timer.data = w;
    w->timer_open = true;
    KVR_INFO("discovery_started name=%s interval_ms=%llu drain_after=%u max=%u", w->spec,
             (unsigned long long)w->cfg.interval_ms, w->cfg.drain_after, w->cfg.max_members);
    resolve(w);
    return 0;
}

static void on_timer_closed(uv_handle_t *h)
{
    kvr_dns_watch_t *w = h->data;
    w->timer_open = false;
    maybe_stopped(w);
}

void kvr_dns_watch_stop(kvr_dns_watch_t *w, void (*stopped)(kvr_dns_watch_t *w))
{
    w->on_stopped = stopped;
    if (w->stopping) /* a second stop only changes who is told */
        return;
    w->stopping = true;
    if (w->resolving)
        (void)uv_cancel((uv_req_t *)&w->req); /* a resolution already running ends by itself */
    if (w->timer_open)
        uv_close((uv_handle_t *)&w->timer, on_timer_closed);
    else
        maybe_stopped(w);
}

void kvr_dns_watch_metrics(kvr_prom_writer_t *pw, const char *prefix,
                           kvr_dns_watch_t *const *watches, size_t n)
{
    static const struct {
        const char *suffix;
        kvr_prom_type_t type;
        const char *help;
        size_t offset; /* of a uint64_t total; SIZE_MAX for the owned gauge */
    } rows[] = {
        {"engines", KVR_PROM_GAUGE, "engines this name added and has not removed", SIZE_MAX},
        {"resolutions_total", KVR_PROM_COUNTER, "resolutions of this name, failed ones included",
         offsetof(kvr_dns_watch_t, resolutions_total)},
        {"resolve_failures_total", KVR_PROM_COUNTER,
         "resolutions that failed (every engine was kept)",
         offsetof(kvr_dns_watch_t, resolve_failures_total)},
        {"engines_added_total", KVR_PROM_COUNTER, "engines added because their address appeared",
         offsetof(kvr_dns_watch_t, added_total)},
        {"engines_removed_total", KVR_PROM_COUNTER,
         "engines drained and removed because their address stayed missing",
         offsetof(kvr_dns_watch_t, removed_total)},
        {"add_failures_total", KVR_PROM_COUNTER,
         "addresses whose engine could not be added (retried)",
         offsetof(kvr_dns_watch_t, add_failures_total)},
        {"addresses_dropped_total", KVR_PROM_COUNTER,
         "addresses beyond the engine table's capacity, per answer",
         offsetof(kvr_dns_watch_t, dropped_total)},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char name[128];
        snprintf(name, sizeof name, "%s_discovery_%s", prefix, rows[r].suffix);
        kvr_prom_family(pw, name, rows[r].type, rows[r].help);
        for (size_t i = 0; i < n; i++) {
            const kvr_dns_watch_t *w = watches[i];
            kvr_prom_label_t l = {"name", w->spec};
            uint64_t v = rows[r].offset == SIZE_MAX
                             ? kvr_dns_watch_owned(w)
                             : *(const uint64_t *)((const char *)w + rows[r].offset);
            kvr_prom_sample_u64(pw, name, &l, 1, v);
        }
    }
}
