/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Discovery's membership rules on hostile answers: the first line is an
 * --engine-dns value (parsed), then answers separated by blank lines, one
 * address URL per line (a line "!" is a failed resolution). The owner adds,
 * refuses or finds present engines by a hash of the URL. After every answer
 * the watch's members are unique, within the cap, and exactly the engines it
 * added and did not remove are owned.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/dns_watch.h"

#define MAX_MEMBERS 8
#define MAX_URLS 64

typedef struct {
    long owned;
} owner_t;

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 16777619u;
    return h;
}

static int on_join(kvr_dns_watch_t *w, const char *url, void *user)
{
    (void)w;
    owner_t *o = user;
    uint32_t h = hash(url) % 7;
    if (h == 0)
        return -ENOSPC;
    if (h == 1)
        return -EEXIST;
    o->owned++;
    return 0;
}

static void on_leave(kvr_dns_watch_t *w, const char *url, void *user)
{
    (void)w;
    (void)url;
    owner_t *o = user;
    o->owned--;
}

static void check(const kvr_dns_watch_t *w, const owner_t *o)
{
    if (w->n_members > MAX_MEMBERS || (long)kvr_dns_watch_owned(w) != o->owned)
        abort();
    for (uint32_t i = 0; i < w->n_members; i++)
        for (uint32_t j = i + 1; j < w->n_members; j++)
            if (strcmp(w->members[i].url, w->members[j].url) == 0)
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *line_end = strchr(text, '\n');
    char *rest = line_end ? line_end + 1 : text + strlen(text);
    if (line_end)
        *line_end = '\0';
    char name[KVR_DNS_WATCH_NAME_MAX];
    uint16_t port;
    const char *options;
    int rc = kvr_dns_watch_parse(text, name, sizeof name, &port, &options);
    if (rc == 0 && (port == 0 || strlen(name) == 0 || strlen(name) >= sizeof name))
        abort();

    owner_t o = {0};
    kvr_dns_watch_config_t cfg = {.spec = "fuzz.test:8000",
                                  .interval_ms = 1000,
                                  .drain_after = 2,
                                  .max_members = MAX_MEMBERS,
                                  .join = on_join,
                                  .leave = on_leave,
                                  .user = &o};
    kvr_dns_watch_t w;
    if (kvr_dns_watch_init(&w, NULL, &cfg) != 0)
        abort();
    const char *urls[MAX_URLS];
    size_t n = 0;
    char *p = rest;
    for (;;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        if (p[0] == '\0' || !nl) {
            if (p[0] && n < MAX_URLS)
                urls[n++] = p;
            kvr_dns_watch_apply(&w, urls, n);
            check(&w, &o);
            n = 0;
        } else if (strcmp(p, "!") == 0) {
            kvr_dns_watch_failed(&w, UV_EAI_AGAIN);
            check(&w, &o);
        } else if (n < MAX_URLS) {
            urls[n++] = p;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    kvr_dns_watch_close(&w);
    free(text);
    return 0;
}
