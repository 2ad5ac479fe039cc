/* SPDX-License-Identifier: Apache-2.0 */
/* The discovery membership rules: hysteresis, the cap, failed answers, ownership. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "common/dns_watch.h"

typedef struct {
    char joined[64][KVR_DNS_WATCH_URL_MAX];
    int n_joined;
    char left[64][KVR_DNS_WATCH_URL_MAX];
    int n_left;
    const char *exists; /* join answers -EEXIST for this URL */
    int fail_rc;        /* join answers this for every URL when non-zero */
} owner_t;

static int on_join(kvr_dns_watch_t *w, const char *url, void *user)
{
    (void)w;
    owner_t *o = user;
    if (o->exists && strcmp(o->exists, url) == 0)
        return -EEXIST;
    if (o->fail_rc)
        return o->fail_rc;
    snprintf(o->joined[o->n_joined++], KVR_DNS_WATCH_URL_MAX, "%s", url);
    return 0;
}

static void on_leave(kvr_dns_watch_t *w, const char *url, void *user)
{
    (void)w;
    owner_t *o = user;
    snprintf(o->left[o->n_left++], KVR_DNS_WATCH_URL_MAX, "%s", url);
}

static void watch_init(kvr_dns_watch_t *w, owner_t *o, uint32_t drain_after, uint32_t max)
{
    memset(o, 0, sizeof *o);
    kvr_dns_watch_config_t cfg = {.spec = "pool.test:8000",
                                  .interval_ms = 1000,
                                  .drain_after = drain_after,
                                  .max_members = max,
                                  .join = on_join,
                                  .leave = on_leave,
                                  .user = o};
    cr_assert_eq(kvr_dns_watch_init(w, NULL, &cfg), 0);
}

#define APPLY(w, ...)                                                                              \
    do {                                                                                           \
        const char *urls_[] = {__VA_ARGS__};                                                       \
        kvr_dns_watch_apply((w), urls_, sizeof urls_ / sizeof urls_[0]);                           \
    } while (0)

Test(dns_watch, parse_accepts_names_and_bracketed_v6_rejects_the_rest)
{
    char name[KVR_DNS_WATCH_NAME_MAX];
    uint16_t port;
    const char *rest;
    cr_assert_eq(kvr_dns_watch_parse("engines.ns.svc:8000", name, sizeof name, &port, &rest), 0);
    cr_assert_str_eq(name, "engines.ns.svc");
    cr_assert_eq(port, 8000);
    cr_assert_str_eq(rest, "");
    cr_assert_eq(kvr_dns_watch_parse("[::1]:30000,kind=sglang", name, sizeof name, &port, &rest),
                 0);
    cr_assert_str_eq(name, "::1");
    cr_assert_eq(port, 30000);
    cr_assert_str_eq(rest, "kind=sglang");
    const char *bad[] = {"",         "name",     "name:",  ":80",     "name:0",      "name:65536",
                         "name:80x", "na me:80", "a/b:80", "[::1:80", "name:123456", "[]:80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_eq(kvr_dns_watch_parse(bad[i], name, sizeof name, &port, &rest), -EINVAL, "%s",
                     bad[i]);
    char longname[400];
    memset(longname, 'a', 300);
    strcpy(longname + 300, ":80");
    cr_expect_eq(kvr_dns_watch_parse(longname, name, sizeof name, &port, &rest), -EINVAL);
}

Test(dns_watch, urls_bracket_ipv6_and_refuse_zoned_addresses)
{
    char url[KVR_DNS_WATCH_URL_MAX];
    struct sockaddr_in in = {.sin_family = AF_INET, .sin_port = htons(8000)};
    inet_pton(AF_INET, "127.0.0.2", &in.sin_addr);
    cr_assert_eq(kvr_dns_watch_url((struct sockaddr *)&in, url, sizeof url), 0);
    cr_assert_str_eq(url, "http://127.0.0.2:8000");
    struct sockaddr_in6 in6 = {.sin6_family = AF_INET6, .sin6_port = htons(65535)};
    inet_pton(AF_INET6, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", &in6.sin6_addr);
    cr_assert_eq(kvr_dns_watch_url((struct sockaddr *)&in6, url, sizeof url), 0);
    cr_assert_str_eq(url, "http://[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:65535");
    in6.sin6_scope_id = 2;
    cr_assert_eq(kvr_dns_watch_url((struct sockaddr *)&in6, url, sizeof url), -EINVAL);
}

Test(dns_watch, an_answer_that_flaps_every_period_moves_no_engine)
{
    kvr_dns_watch_t w;
    owner_t o;
    watch_init(&w, &o, 2, 16);
    APPLY(&w, "http://10.0.0.1:8000", "http://10.0.0.2:8000", "http://10.0.0.1:8000");
    cr_assert_eq(o.n_joined, 2);
    for (int i = 0; i < 10; i++) {
        if (i % 2)
            APPLY(&w, "http://10.0.0.1:8000", "http://10.0.0.2:8000");
        else
            APPLY(&w, "http://10.0.0.1:8000");
    }
    cr_assert_eq(o.n_left, 0);
    cr_assert_eq(o.n_joined, 2);
    /* Missing twice in a row: drained. */
    APPLY(&w, "http://10.0.0.1:8000");
    APPLY(&w, "http://10.0.0.1:8000");
    cr_assert_eq(o.n_left, 1);
    cr_assert_str_eq(o.left[0], "http://10.0.0.2:8000");
    cr_assert_eq(w.removed_total, 1);
    cr_assert_eq(w.added_total, 2);
    cr_assert_eq(kvr_dns_watch_owned(&w), 1);
    kvr_dns_watch_close(&w);
}

Test(dns_watch, a_failed_resolution_keeps_every_engine)
{
    kvr_dns_watch_t w;
    owner_t o;
    watch_init(&w, &o, 1, 16);
    APPLY(&w, "http://10.0.0.1:8000", "http://10.0.0.2:8000");
    for (int i = 0; i < 5; i++)
        kvr_dns_watch_failed(&w, UV_EAI_NONAME);
    cr_assert_eq(o.n_left, 0);
    cr_assert_eq(kvr_dns_watch_owned(&w), 2);
    cr_assert_eq(w.resolve_failures_total, 5);
    cr_assert_eq(w.last_error, UV_EAI_NONAME);
    APPLY(&w, "http://10.0.0.1:8000", "http://10.0.0.2:8000");
    cr_assert_eq(w.last_error, 0);
    cr_assert_eq(o.n_left, 0);
    kvr_dns_watch_close(&w);
}

Test(dns_watch, hundreds_of_addresses_are_capped_and_the_rest_counted)
{
    kvr_dns_watch_t w;
    owner_t o;
    watch_init(&w, &o, 2, 8);
    static char buf[300][KVR_DNS_WATCH_URL_MAX];
    const char *urls[300];
    for (int i = 0; i < 300; i++) {
        snprintf(buf[i], sizeof buf[i], "http://10.0.%d.%d:8000", i / 200, i % 200);
        urls[i] = buf[i];
    }
    kvr_dns_watch_apply(&w, urls + 5, 295);
    cr_assert_eq(o.n_joined, 8);
    cr_assert_eq(w.n_members, 8);
    cr_assert_eq(w.dropped_total, 295 - 8);
    /* The same members stay when the answer grows: nothing is swapped for a smaller address. */
    kvr_dns_watch_apply(&w, urls, 300);
    cr_assert_eq(o.n_joined, 8);
    cr_assert_eq(o.n_left, 0);
    cr_assert_eq(w.dropped_total, 295 - 8 + 300 - 8);
    kvr_dns_watch_close(&w);
}

Test(dns_watch, an_engine_that_exists_is_not_owned_and_never_left)
{
    kvr_dns_watch_t w;
    owner_t o;
    watch_init(&w, &o, 1, 16);
    o.exists = "http://10.0.0.1:8000";
    APPLY(&w, "http://10.0.0.1:8000", "http://10.0.0.2:8000");
    cr_assert_eq(o.n_joined, 1);
    cr_assert_eq(kvr_dns_watch_owned(&w), 1);
    APPLY(&w, "http://10.0.0.3:8000");
    cr_assert_eq(o.n_left, 1);
    cr_assert_str_eq(o.left[0], "http://10.0.0.2:8000");
    kvr_dns_watch_close(&w);
}

Test(dns_watch, an_engine_that_could_not_be_added_is_retried)
{
    kvr_dns_watch_t w;
    owner_t o;
    watch_init(&w, &o, 2, 16);
    o.fail_rc = -ENOSPC;
    APPLY(&w, "http://10.0.0.1:8000");
    APPLY(&w, "http://10.0.0.1:8000");
    cr_assert_eq(o.n_joined, 0);
    cr_assert_eq(w.add_failures_total, 2);
    o.fail_rc = 0;
    APPLY(&w, "http://10.0.0.1:8000");
    cr_assert_eq(o.n_joined, 1);
    cr_assert_eq(kvr_dns_watch_owned(&w), 1);
    kvr_dns_watch_close(&w);
}

static int resolved_calls;
static void on_stopped(kvr_dns_watch_t *w)
{
    (void)w;
    resolved_calls++;
}

Test(dns_watch, a_numeric_name_resolves_on_the_loop_and_stops_cleanly, .timeout = 10.)
{
    uv_loop_t loop;
    cr_assert_eq(uv_loop_init(&loop), 0);
    owner_t o;
    memset(&o, 0, sizeof o);
    kvr_dns_watch_config_t cfg = {.spec = "[::1]:8000",
                                  .interval_ms = 1000,
                                  .drain_after = 2,
                                  .max_members = 4,
                                  .join = on_join,
                                  .leave = on_leave,
                                  .user = &o};
    kvr_dns_watch_t w;
    cr_assert_eq(kvr_dns_watch_init(&w, &loop, &cfg), 0);
    cr_assert_eq(kvr_dns_watch_start(&w), 0);
    while (w.resolutions_total == 0)
        uv_run(&loop, UV_RUN_ONCE);
    cr_assert_eq(o.n_joined, 1);
    cr_assert_str_eq(o.joined[0], "http://[::1]:8000");
    resolved_calls = 0;
    kvr_dns_watch_stop(&w, on_stopped);
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(resolved_calls, 1);
    kvr_dns_watch_close(&w);
    cr_assert_eq(uv_loop_close(&loop), 0);
}

Test(dns_watch, a_family_filter_keeps_only_that_family, .timeout = 10.)
{
    uv_loop_t loop;
    cr_assert_eq(uv_loop_init(&loop), 0);
    owner_t o;
    memset(&o, 0, sizeof o);
    kvr_dns_watch_config_t cfg = {.spec = "[::1]:8000",
                                  .interval_ms = 1000,
                                  .drain_after = 2,
                                  .max_members = 4,
                                  .join = on_join,
                                  .leave = on_leave,
                                  .user = &o,
                                  .family = kvr_dns_watch_family(1)};
    kvr_dns_watch_t w;
    cr_assert_eq(kvr_dns_watch_init(&w, &loop, &cfg), 0);
    cr_assert_eq(kvr_dns_watch_start(&w), 0);
    while (w.resolutions_total == 0)
        uv_run(&loop, UV_RUN_ONCE);
    cr_assert_eq(o.n_joined, 0, "an IPv6 address joined an ipv4 watch");
    cr_assert_eq(w.resolve_failures_total, 1);
    kvr_dns_watch_stop(&w, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    kvr_dns_watch_close(&w);
    cr_assert_eq(uv_loop_close(&loop), 0);
}

Test(dns_watch, an_address_longer_than_any_engine_url_is_ignored)
{
    kvr_dns_watch_t w;
    owner_t o;
    watch_init(&w, &o, 1, 16);
    char longer[200];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    memcpy(longer, "http://", 7);
    APPLY(&w, longer, "http://10.0.0.1:8000");
    APPLY(&w, longer, "http://10.0.0.1:8000");
    cr_assert_eq(o.n_joined, 1, "a truncated URL was taken for an engine");
    cr_assert_eq(o.n_left, 0);
    cr_assert_eq(w.n_members, 1);
    kvr_dns_watch_close(&w);
}
