/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ES=1 against a real segment: fresh slots give real values, a stale writer
 * falls back to shadow and is counted; ES=0 never maps the segment at all.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "shm_layout/shm_layout.h"
#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

static kvr_harness_t h;
static kvr_shm_t writer;
static char seg_name[64];
static char log_file[128];

static void teardown(void)
{
    kvr_harness_stop(&h);
    kvr_shm_close(&writer);
    kvr_shm_unlink(seg_name);
    if (log_file[0])
        unlink(log_file);
}

TestSuite(es, .fini = teardown, .timeout = 30.);

static const char chat[] =
    "{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"session_id\":\"s1\"}";

static void make_segment(void)
{
    kvr_test_unique_name(seg_name, sizeof seg_name, "/kvr-test-es");
    cr_assert_eq(kvr_shm_create(&writer, seg_name, 8), 0);
}

/* The fleet must exist first: slots are named by the engines' URLs. */
static int add_slot(int engine)
{
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u", kvr_fake_port(h.fleet, engine));
    return kvr_shm_add_engine(&writer, url);
}

static void publish(int slot, uint32_t running, uint32_t waiting)
{
    kvr_engine_state_t st;
    kvr_shm_writer_state(&writer, (uint32_t)slot, &st);
    uint64_t now = kvr_clock_now_ns();
    st.flags |= KVR_SLOT_HEALTHY;
    st.running = running;
    st.waiting = waiting;
    st.sample_time_ns = now;
    st.publish_time_ns = now;
    st.sample_seq++;
    kvr_shm_write_slot(&writer, (uint32_t)slot, &st);
    kvr_shm_heartbeat(&writer, now);
}

static const cJSON *field(const cJSON *o, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(o, name);
}

static const char *str(const cJSON *v)
{
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Integer fields only: -1 when absent or not a whole number. */
static long long num(const cJSON *v)
{
    if (!cJSON_IsNumber(v) || v->valuedouble != (double)(long long)v->valuedouble)
        return -1;
    return (long long)v->valuedouble;
}

/* The engine's entry of GET /engines, detached from the document: free with cJSON_Delete. */
static cJSON *engine_json(int engine)
{
    char *resp;
    cr_assert_eq(kvr_test_http(h.admin_port, "GET", "/engines", NULL, NULL, &resp, 2000), 200);
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u", kvr_fake_port(h.fleet, engine));
    cJSON *engines = cJSON_GetObjectItemCaseSensitive(doc, "engines");
    cJSON *e;
    cJSON_ArrayForEach(e, engines)
    {
        const char *id = str(field(e, "id"));
        if (id && strcmp(id, url) == 0) {
            cJSON_DetachItemViaPointer(engines, e);
            cJSON_Delete(doc);
            return e;
        }
    }
    cJSON_Delete(doc);
    cr_assert_fail("engine %d not in /engines", engine);
    return NULL;
}

/* Engine 0's feed state in /engines is writer_stale (the heartbeat is older than --max-age-ms). */
static bool engine0_writer_stale(void *arg)
{
    (void)arg;
    cJSON *e = engine_json(0);
    const char *state = str(field(e, "feed"));
    bool stale = state != NULL && strcmp(state, "writer_stale") == 0;
    cJSON_Delete(e);
    return stale;
}

/* The decision log writes feed_age_ms as a real ("3.0" when whole), as a typed reader expects. */
static bool is_real_text(const char *line, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *p = strstr(line, key);
    if (!p)
        return false;
    p += strlen(key);
    size_t n = strspn(p, "-+0123456789.eE");
    return n > 0 && memchr(p, '.', n) != NULL;
}

static bool maps_segment(void)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)h.pid);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char line[1024];
    bool found = false;
    while (fgets(line, sizeof line, f))
        found |= strstr(line, seg_name + 1) != NULL;
    fclose(f);
    return found;
}

static void start_with(const char *es)
{
    kvr_test_unique_name(log_file, sizeof log_file, "/tmp/kvroute-test-decisions");
    /* Health checks time out after their interval: at the harness's 200 ms two stalls in a
     * row of a sanitized build on a busy machine take the pinned engine out and move the
     * session this suite follows. */
    const char *extra[] = {"--es",
                           es,
                           "--shm",
                           seg_name,
                           "--max-age-ms",
                           "500",
                           "--decision-log",
                           log_file,
                           "--policy",
                           "sticky",
                           "--health-interval-ms",
                           "1000",
                           NULL};
    /* engines first (their URLs name the slots), then the router */
    kvr_harness_start(&h, 2, extra);
}

Test(es, es1_fresh_slot_gives_real_values_and_stale_falls_back)
{
    make_segment();
    start_with("1");
    int s0 = add_slot(0), s1 = add_slot(1);
    cr_assert_geq(s0, 0);
    cr_assert_geq(s1, 0);
    publish(s0, 7, 2);
    publish(s1, 0, 0);

    cJSON *e = engine_json(0);
    cr_expect_str_eq(str(field(e, "feed")), "fresh");
    cr_expect_eq(num(field(field(e, "eff"), "requests")), 9);
    cr_expect_eq(num(field(field(e, "real"), "running")), 7);
    cJSON_Delete(e);

    /* a new session lands on the engine that is idle by eff */
    publish(s0, 7, 2);
    publish(s1, 0, 0);
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000),
                 200);
    char v[64], want[64];
    snprintf(want, sizeof want, "http://127.0.0.1:%u", kvr_fake_port(h.fleet, 1));
    cr_expect_str_eq(kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v), want);
    free(resp);
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_feed_reads_total{state=\"fresh\"}"), 0);
    cr_expect(maps_segment(), "ES=1 maps the segment");

    /* the writer stops beating: shadow only, counted */
    cr_assert(kvr_test_wait_until(engine0_writer_stale, NULL, 10000),
              "/engines never showed writer_stale");
    e = engine_json(0);
    cr_expect_str_eq(str(field(e, "feed")), "writer_stale");
    cr_expect_eq(num(field(field(e, "eff"), "requests")), 0);
    cJSON_Delete(e);
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000),
                 200);
    free(resp);
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_feed_stale_fallbacks_total"), 2);
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_feed_reads_total{state=\"writer_stale\"}"), 2);

    /* one decision line per request, with the feed state it used */
    FILE *f = fopen(log_file, "r");
    cr_assert_not_null(f);
    char line[2048];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        cJSON *d = cJSON_Parse(line);
        cr_assert(cJSON_IsObject(d), "decision line is JSON: %s", line);
        cr_expect_str_eq(str(field(d, "session")), "s1");
        cr_expect_str_eq(str(field(d, "policy")), "sticky");
        cr_expect_str_eq(str(field(d, "placement")), "oneshot");
        cr_expect_str_eq(str(field(d, "engine")), want, "decision %d: %s", lines, line);
        cr_expect(cJSON_IsString(field(d, "request_id")));
        cr_expect(cJSON_IsObject(field(d, "eff")));
        if (lines == 0) {
            cr_expect_str_eq(str(field(d, "feed")), "fresh");
            cr_expect(cJSON_IsNumber(field(d, "feed_age_ms")));
            cr_expect(is_real_text(line, "feed_age_ms"), "feed_age_ms is a real: %s", line);
        } else {
            cr_expect_str_eq(str(field(d, "reason")), "sticky_pin", "%s", line);
        }
        cJSON_Delete(d);
        lines++;
    }
    fclose(f);
    cr_expect_eq(lines, 2);
}

Test(es, es0_never_opens_the_segment)
{
    make_segment();
    start_with("0");
    int s0 = add_slot(0);
    publish(s0, 50, 50);
    char *resp;
    for (int i = 0; i < 3; i++) {
        publish(s0, 50, 50);
        cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000),
                     200);
        free(resp);
    }
    cJSON *e = engine_json(0);
    cr_expect_str_eq(str(field(e, "feed")), "off");
    cr_expect_eq(num(field(field(e, "eff"), "requests")), 0);
    cJSON_Delete(e);
    cr_expect_not(maps_segment(), "ES=0 must never map the segment");
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_feed_enabled"), 0);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_feed_opens_total"), 0);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_feed_stale_fallbacks_total"), 0);
}

Test(es, enforce_admission_answers_429_only_when_no_engine_has_headroom)
{
    make_segment();
    kvr_test_unique_name(log_file, sizeof log_file, "/tmp/kvroute-test-decisions");
    const char *extra[] = {"--es",          "1", "--shm",    seg_name,    "--admission", "enforce",
                           "--max-waiting", "0", "--policy", "load_only", NULL};
    kvr_harness_start(&h, 2, extra);
    int slot[2] = {add_slot(0), add_slot(1)};
    for (int i = 0; i < 2; i++) {
        kvr_engine_state_t st;
        kvr_shm_writer_state(&writer, (uint32_t)slot[i], &st);
        st.flags |= KVR_SLOT_HEALTHY | KVR_SLOT_CAPS_COMPLETE;
        st.max_running = 4;
        st.dp_ranks = 1;
        kvr_shm_write_slot(&writer, (uint32_t)slot[i], &st);
    }
    publish(slot[0], 4, 3);
    publish(slot[1], 4, 1);
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000),
                 429);
    char v[32];
    cr_expect_not_null(kvr_harness_header(resp, "Retry-After", v, sizeof v));
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "\"code\":\"rate_limit_exceeded\""));
    free(resp);
    cr_expect_eq(kvr_fake_requests(h.fleet, -1), 0);
    /* one engine frees a slot: admitted again */
    publish(slot[0], 4, 3);
    publish(slot[1], 2, 0);
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000),
                 200);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_admission_total{verdict=\"rejected\"}"), 1);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(es, a_slot_at_the_32_bit_limit_shows_as_the_limit_not_as_idle_or_negative)
{
    make_segment();
    start_with("1");
    int s0 = add_slot(0);
    publish(s0, UINT32_MAX, 1);
    cJSON *e = engine_json(0);
    cr_expect_str_eq(str(field(e, "feed")), "fresh");
    cr_expect_eq(num(field(field(e, "eff"), "requests")), (long long)UINT32_MAX,
                 "4294967295 + 1 saturates");
    cr_expect_eq(num(field(field(e, "real"), "running")), (long long)UINT32_MAX);
    cJSON_Delete(e);
}

Test(es, a_segment_not_of_the_configured_owner_is_refused_and_counted)
{
    make_segment(); /* owned by this test's uid */
    char other[16];
    snprintf(other, sizeof other, "%u", (unsigned)(getuid() == 0 ? 65534 : 0));
    kvr_test_unique_name(log_file, sizeof log_file, "/tmp/kvroute-test-decisions");
    const char *extra[] = {"--es", "1",           "--shm", seg_name, "--shm-owner",
                           other,  "--log-level", "info",  NULL};
    kvr_harness_start(&h, 2, extra);
    int s0 = add_slot(0);
    publish(s0, 0, 0);
    char *resp;
    for (int i = 0; i < 3; i++) {
        publish(s0, 0, 0);
        cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000),
                     200);
        free(resp);
    }
    cJSON *e = engine_json(0);
    cr_expect_str_eq(str(field(e, "feed")), "segment_rejected");
    cJSON_Delete(e);
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_feed_reads_total{state=\"segment_rejected\"}"),
                  3);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_feed_reads_total{state=\"fresh\"}"), 0);
}

Test(es, a_request_seeded_onto_an_idle_peer_is_logged_with_its_lease)
{
    make_segment();
    kvr_test_unique_name(log_file, sizeof log_file, "/tmp/kvroute-test-decisions");
    const char *extra[] = {
        "--es", "1",        "--shm",  seg_name,         "--admission", "enforce", "--max-waiting",
        "0",    "--policy", "sticky", "--decision-log", log_file,      NULL};
    kvr_harness_start(&h, 2, extra);
    int slot[2] = {add_slot(0), add_slot(1)};
    for (int i = 0; i < 2; i++) {
        kvr_engine_state_t st;
        kvr_shm_writer_state(&writer, (uint32_t)slot[i], &st);
        st.flags |= KVR_SLOT_HEALTHY | KVR_SLOT_CAPS_COMPLETE;
        st.max_running = 4;
        st.dp_ranks = 1;
        kvr_shm_write_slot(&writer, (uint32_t)slot[i], &st);
    }
    /* The session is placed on the idle engine 0... */
    publish(slot[0], 0, 0);
    publish(slot[1], 4, 0);
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000),
                 200);
    free(resp);
    /* ...which fills up while engine 1 idles: the next turn is seeded there and answered. */
    publish(slot[0], 4, 0);
    publish(slot[1], 0, 0);
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000),
                 200);
    char v[64], want[64];
    snprintf(want, sizeof want, "http://127.0.0.1:%u", kvr_fake_port(h.fleet, 1));
    cr_expect_str_eq(kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v), want);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_admission_total{verdict=\"seed_lease\"}"), 1);

    /* The log says what the decision did, though the lease was released before the line was written. */
    FILE *f = fopen(log_file, "r");
    cr_assert_not_null(f);
    char line[2048];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        cJSON *d = cJSON_Parse(line);
        cr_assert(cJSON_IsObject(d), "decision line is JSON: %s", line);
        bool seeded = lines == 1;
        cr_expect_eq(cJSON_IsTrue(field(d, "seed_lease")), seeded, "line %d: %s", lines, line);
        if (seeded) {
            cr_expect_str_eq(str(field(d, "reason")), "seed_lease");
            cr_expect_str_eq(str(field(d, "engine")), want);
        }
        cJSON_Delete(d);
        lines++;
    }
    fclose(f);
    cr_expect_eq(lines, 2);
    cr_expect(kvr_harness_wait_zero(&h, 2000));
}
