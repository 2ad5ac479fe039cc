/* SPDX-License-Identifier: Apache-2.0 */
/* Routing decisions: shadow counters seen by every pick, oneshot pins, eff from the feed. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/json_text.h"
#include "router/router_internal.h"
#include "shm_layout/shm_layout.h"
#include "tests/support/proc.h"

static uv_loop_t loop;
static kvr_router_t *router;
static bool router_up;

static const char *migrate_factor; /* --migrate-factor for the next start(), NULL = default */

static void start(size_t n_engines, const char *policy, kvr_placement_t placement, bool es,
                  const char *shm, uint32_t migrate_load)
{
    kvr_router_config_t cfg;
    kvr_router_config_defaults(&cfg);
    if (migrate_factor)
        cr_assert_eq(kvr_policy_config_set(&cfg.policy_config, "migrate-factor", migrate_factor),
                     0);
    for (size_t i = 0; i < n_engines; i++) {
        char url[64];
        snprintf(url, sizeof url, "http://127.0.0.1:%zu", 19000 + i);
        cfg.engines[cfg.n_engines++] = strdup(url);
    }
    snprintf(cfg.policy, sizeof cfg.policy, "%s", policy);
    cfg.placement = placement;
    cfg.placement_set = true;
    cfg.es = es;
    if (shm)
        snprintf(cfg.shm_name, sizeof cfg.shm_name, "%s", shm);
    cfg.migrate_load = migrate_load;
    char err[256];
    cr_assert_eq(kvr_router_config_finish(&cfg, err, sizeof err), 0, "%s", err);
    uv_loop_init(&loop);
    cr_assert_eq(kvr_router_create(&loop, &cfg, &router), 0);
    router_up = true;
}

static void teardown(void)
{
    if (router_up) {
        kvr_router_destroy(router);
        router = NULL;
        uv_run(&loop, UV_RUN_DEFAULT);
        cr_expect_eq(uv_loop_close(&loop), 0);
        router_up = false;
    }
}

TestSuite(route, .fini = teardown, .timeout = 10.);

static kvr_route_request_t request(const char *session, uint32_t tokens)
{
    return (kvr_route_request_t){.request_id = "t",
                                 .session_id = session,
                                 .text = "",
                                 .prompt_tokens = tokens,
                                 .now_ns = kvr_clock_now_ns()};
}

static void expect_all_zero(void)
{
    for (uint32_t i = 0; i < router->decider.engines.n_slots; i++) {
        kvr_engine_t *e = router->decider.engines.engines[i];
        if (!e)
            continue; /* a freed index */
        cr_expect_eq(e->shadow_requests, 0, "engine %u requests", i);
        cr_expect_eq(e->shadow_pending_prefill_tokens, 0, "engine %u pending", i);
        cr_expect_eq(e->shadow_kv_tokens, 0, "engine %u kv", i);
    }
}

Test(route, burst_of_100_under_load_only_spreads_evenly)
{
    start(4, "load_only", KVR_PLACEMENT_PER_REQUEST, false, NULL, 0);
    static kvr_charge_t charges[100];
    memset(charges, 0, sizeof charges);
    unsigned per_engine[4] = {0};
    for (int i = 0; i < 100; i++) {
        kvr_route_request_t req = request(NULL, 100);
        kvr_decide_result_t res;
        kvr_door_route(&router->door, &req, NULL, 0, &charges[i], &res);
        cr_assert_not_null(res.engine);
        per_engine[res.engine->index]++;
    }
    for (int i = 0; i < 4; i++)
        cr_expect_eq(per_engine[i], 25, "engine %d got %u", i, per_engine[i]);
    for (int i = 0; i < 100; i += 2)
        kvr_charge_first_byte(&charges[i]);
    for (int i = 0; i < 100; i++)
        kvr_charge_progress(&charges[i], 10);
    for (int i = 0; i < 100; i++)
        kvr_charge_end(&charges[i]);
    expect_all_zero();
}

Test(route, sticky_keeps_a_session_and_places_new_ones_on_least_load)
{
    start(3, "sticky", KVR_PLACEMENT_PER_REQUEST, false, NULL, 0);
    /* --policy sticky with an explicit --placement keeps the explicit one; use the resolved pair */
    router->decider.cfg.placement = KVR_PLACEMENT_ONESHOT;
    kvr_charge_t c[8] = {0};
    kvr_decide_result_t res;
    kvr_route_request_t req = request("s1", 10);
    kvr_door_route(&router->door, &req, NULL, 0, &c[0], &res);
    kvr_engine_t *home = res.engine;
    cr_assert_not_null(home);
    cr_expect_not(res.pinned);
    for (int turn = 1; turn < 4; turn++) {
        req = request("s1", 10);
        kvr_door_route(&router->door, &req, NULL, 0, &c[turn], &res);
        cr_expect_eq(res.engine, home, "turn %d left its engine", turn);
        cr_expect(res.pinned);
        cr_expect_str_eq(res.reason, "sticky_pin");
    }
    /* home now holds 4 in flight, the others 0: a new session goes elsewhere */
    req = request("s2", 10);
    kvr_door_route(&router->door, &req, NULL, 0, &c[4], &res);
    cr_expect_neq(res.engine, home);
    cr_expect_eq(router->metrics.sessions_placed_total, 2);

    /* the pin dies: the next turn is placed again, and stays there */
    home->healthy = false;
    req = request("s1", 10);
    kvr_door_route(&router->door, &req, NULL, 0, &c[5], &res);
    cr_assert_not_null(res.engine);
    cr_expect_neq(res.engine, home);
    kvr_engine_t *second = res.engine;
    cr_expect_eq(router->metrics.sessions_replaced_total, 1);
    home->healthy = true;
    req = request("s1", 10);
    kvr_door_route(&router->door, &req, NULL, 0, &c[6], &res);
    cr_expect_eq(res.engine, second);
    for (int i = 0; i < 7; i++)
        kvr_charge_end(&c[i]);
    expect_all_zero();
}

Test(route, migrate_moves_a_pin_off_an_overloaded_engine)
{
    start(2, "load_only", KVR_PLACEMENT_ONESHOT, false, NULL, 2);
    kvr_charge_t c[6] = {0};
    kvr_decide_result_t res;
    kvr_route_request_t req = request("s", 10);
    kvr_door_route(&router->door, &req, NULL, 0, &c[0], &res);
    kvr_engine_t *home = res.engine;
    kvr_charge_begin(&c[1], home, 10);
    kvr_charge_begin(&c[2], home, 10); /* 3 in flight > migrate-load 2 */
    req = request("s", 10);
    kvr_door_route(&router->door, &req, NULL, 0, &c[3], &res);
    cr_expect_neq(res.engine, home);
    cr_expect_eq(router->metrics.sessions_migrated_total, 1);
    for (int i = 0; i < 4; i++)
        kvr_charge_end(&c[i]);
    expect_all_zero();
}

Test(route, exclusions_and_no_candidate)
{
    start(2, "round_robin", KVR_PLACEMENT_PER_REQUEST, false, NULL, 0);
    kvr_charge_t c = {0};
    kvr_decide_result_t res;
    uint32_t exclude[2] = {0, 1};
    kvr_route_request_t req = request(NULL, 10);
    kvr_door_route(&router->door, &req, exclude, 1, &c, &res);
    cr_assert_not_null(res.engine);
    cr_expect_eq(res.engine->index, 1);
    kvr_charge_end(&c);
    kvr_door_route(&router->door, &req, exclude, 2, &c, &res);
    cr_expect_null(res.engine);
    cr_expect_eq(res.status, 503);
    cr_expect_null(c.engine, "nothing charged without an engine");
    cr_expect_not(kvr_door_has_candidate(&router->door, NULL, exclude, 2));
    expect_all_zero();
}

Test(route, es1_new_session_lands_on_least_eff_not_least_shadow)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-route");
    kvr_shm_t w;
    cr_assert_eq(kvr_shm_create(&w, name, 8), 0);
    uint32_t running[3] = {50, 0, 40};
    for (int i = 0; i < 3; i++) {
        char url[64];
        snprintf(url, sizeof url, "http://127.0.0.1:%d", 19000 + i);
        int slot = kvr_shm_add_engine(&w, url);
        kvr_engine_state_t st;
        kvr_shm_writer_state(&w, (uint32_t)slot, &st);
        st.flags |= KVR_SLOT_HEALTHY;
        st.running = running[i];
        st.sample_time_ns = kvr_clock_now_ns();
        kvr_shm_write_slot(&w, (uint32_t)slot, &st);
    }
    kvr_shm_heartbeat(&w, kvr_clock_now_ns());
    start(3, "load_only", KVR_PLACEMENT_ONESHOT, true, name, 0);
    kvr_charge_t c[3] = {0};
    kvr_decide_result_t res;
    /* shadow load on engine 1 only: by shadow it is the busiest, by eff the idlest */
    kvr_charge_begin(&c[0], router->decider.engines.engines[1], 10);
    kvr_charge_begin(&c[1], router->decider.engines.engines[1], 10);
    kvr_route_request_t req = request("new", 10);
    kvr_door_route(&router->door, &req, NULL, 0, &c[2], &res);
    cr_assert_not_null(res.engine);
    cr_expect_eq(res.engine->index, 1);
    cr_expect(res.view.feed_fresh);
    cr_expect_eq(res.view.eff_requests, 2);
    cr_expect_eq(router->decider.feed.fallbacks_total[KVR_FEED_FRESH], 3);
    for (int i = 0; i < 3; i++)
        kvr_charge_end(&c[i]);
    expect_all_zero();
    kvr_shm_close(&w);
    kvr_shm_unlink(name);
}

Test(route, charge_end_is_idempotent_and_exact)
{
    start(1, "load_only", KVR_PLACEMENT_PER_REQUEST, false, NULL, 0);
    kvr_engine_t *e = router->decider.engines.engines[0];
    kvr_charge_t c = {0};
    kvr_charge_begin(&c, e, 300);
    cr_expect_eq(e->shadow_pending_prefill_tokens, 300);
    kvr_charge_first_byte(&c);
    kvr_charge_first_byte(&c);
    cr_expect_eq(e->shadow_pending_prefill_tokens, 0);
    kvr_charge_progress(&c, 50);
    kvr_charge_progress(&c, 20); /* never shrinks */
    cr_expect_eq(e->shadow_kv_tokens, 350);
    kvr_charge_end(&c);
    kvr_charge_end(&c);
    expect_all_zero();
}

Test(route, migrate_factor_moves_a_pin_far_above_the_fleet_mean)
{
    migrate_factor = "1.0";
    start(2, "sticky", KVR_PLACEMENT_ONESHOT, false, NULL, 0);
    migrate_factor = NULL;
    kvr_charge_t c[6] = {0};
    kvr_decide_result_t res;
    kvr_route_request_t req = request("s", 10);
    kvr_door_route(&router->door, &req, NULL, 0, &c[0], &res);
    kvr_engine_t *home = res.engine;
    /* 2 in flight vs 0: threshold 1.0 x mean 1 + 1 = 2, not above it: stays */
    kvr_charge_begin(&c[1], home, 10);
    req = request("s", 10);
    kvr_door_route(&router->door, &req, NULL, 0, &c[2], &res);
    cr_expect_eq(res.engine, home);
    cr_expect(res.pinned);
    /* 3 in flight vs 0: 3 > 1.5 + 1: placed again */
    req = request("s", 10);
    kvr_door_route(&router->door, &req, NULL, 0, &c[3], &res);
    cr_expect_neq(res.engine, home);
    cr_expect_eq(router->metrics.sessions_migrated_total, 1);
    for (int i = 0; i < 4; i++)
        kvr_charge_end(&c[i]);
    expect_all_zero();
}

/* ---- the JSON the router writes: /engines and the decision log ---- */

static const cJSON *field(const cJSON *o, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(o, name);
}

Test(route, engines_document_keeps_its_fields_and_types)
{
    start(2, "load_only", KVR_PLACEMENT_PER_REQUEST, false, NULL, 0);
    size_t len;
    char *text = kvr_router_render_engines(&router->view, &len);
    cr_expect_eq(strlen(text), len);
    cJSON *doc = cJSON_Parse(text);
    cr_assert(cJSON_IsObject(doc), "%s", text);
    cr_expect_str_eq(field(doc, "policy")->valuestring, "load_only");
    cr_expect(cJSON_IsFalse(field(doc, "es")));
    const cJSON *engines = field(doc, "engines");
    cr_assert_eq(cJSON_GetArraySize(engines), 2);
    const cJSON *e = cJSON_GetArrayItem(engines, 1);
    cr_expect_str_eq(field(e, "id")->valuestring, "http://127.0.0.1:19001");
    cr_expect_eq(field(e, "index")->valuedouble, 1);
    cr_expect(cJSON_IsBool(field(e, "healthy")));
    cr_expect(cJSON_IsNumber(field(field(e, "shadow"), "kv_tokens")));
    cr_expect(cJSON_IsNumber(field(field(e, "eff"), "pending_prefill_tokens")));
    cr_expect(cJSON_IsNumber(field(field(e, "upstream"), "idle")));
    cr_expect(cJSON_IsNull(field(e, "real")));
    cr_expect(cJSON_IsNull(field(e, "feed_age_ms")));
    cr_expect_str_eq(field(e, "feed")->valuestring, "off");
    cJSON_Delete(doc);
    free(text);
}

Test(route, decision_line_escapes_what_clients_send)
{
    start(2, "load_only", KVR_PLACEMENT_PER_REQUEST, false, NULL, 0);
    char *buf = NULL;
    size_t size = 0;
    router->door.decision_log = open_memstream(&buf, &size);
    cr_assert_not_null(router->door.decision_log);
    kvr_route_request_t req = request(NULL, 10);
    kvr_charge_t charge = {0};
    kvr_decide_result_t res;
    kvr_door_route(&router->door, &req, NULL, 0, &charge, &res);
    cr_assert_not_null(res.engine);
    /* quote, backslash, control bytes, valid UTF-8, then bytes that are not UTF-8 */
    kvr_door_log_decision(&router->door, "r\"1",
                          "s\\\n\x01\xc3\xa9\xf0\x9f\x98\x80|\xff\xc3(\xed\xa0\x80", &res, 200, 1);
    kvr_charge_end(&charge);
    cr_assert_gt(size, 0);
    cr_expect_eq(buf[size - 1], '\n');
    cJSON *d = cJSON_Parse(buf);
    cr_assert(cJSON_IsObject(d), "%s", buf);
    cr_expect_str_eq(field(d, "request_id")->valuestring, "r\"1");
    cr_expect_str_eq(
        field(d, "session")->valuestring,
        "s\\\n\x01\xc3\xa9\xf0\x9f\x98\x80|\xef\xbf\xbd\xef\xbf\xbd(\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    cr_expect_str_eq(field(d, "engine")->valuestring, res.engine->id);
    cr_expect_eq(field(d, "status")->valuedouble, 200);
    cr_expect_eq(field(d, "attempt")->valuedouble, 1);
    cr_expect(cJSON_IsFalse(field(d, "pinned")));
    cr_expect(cJSON_IsNumber(field(field(d, "eff"), "kv_tokens")));
    cr_expect(cJSON_IsNull(field(d, "feed_age_ms")));
    cr_expect(cJSON_IsNumber(field(d, "ts_ms")));
    cJSON_Delete(d);
    fclose(router->door.decision_log);
    router->door.decision_log = NULL;
    free(buf);
}

static void write_config(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

Test(route, reload_applies_the_engine_list_of_the_config_file)
{
    start(3, "round_robin", KVR_PLACEMENT_PER_REQUEST, false, NULL, 0);
    cr_expect_eq(kvr_router_reload(router), -ENOENT, "no --config: nothing to re-read");

    char path[96];
    kvr_test_unique_name(path, sizeof path, "/tmp/kvroute-test-reload");
    snprintf(router->cfg.config_file, sizeof router->cfg.config_file, "%s", path);
    write_config(
        path,
        "# engine 0 leaves, engine 3 joins\n"
        "engine http://127.0.0.1:19001\nengine http://127.0.0.1:19002\nengine http://127.0.0.1:19003\n");
    kvr_engine_t *first = router->decider.engines.engines[0];
    kvr_upstream_pool_t *first_pool = kvr_door_pool(&router->door, 0);
    kvr_charge_t c = {0};
    kvr_charge_begin(&c, first, 10);
    cr_assert_eq(kvr_router_reload(router), 0);
    cr_expect(first->removed);
    cr_expect_eq(first->shadow_requests, 1, "its request in flight finishes");
    cr_expect_eq(router->decider.engines.count, 3);
    cr_expect_eq(router->decider.engines.n_slots, 4);
    kvr_engine_t *joined = kvr_decide_find_engine(&router->decider, "http://127.0.0.1:19003");
    cr_assert_not_null(joined);
    cr_expect_eq(joined->index, 3);
    cr_expect_not_null(kvr_door_pool(&router->door, 3));
    cr_expect_eq(kvr_decide_find_engine(&router->decider, "http://127.0.0.1:19001")->index, 1,
                 "kept at its index");
    kvr_decide_release(&router->decider, &c);
    cr_expect_eq(first->shadow_requests, 0);

    /* A file that does not parse changes nothing. */
    write_config(path, "engine http://127.0.0.1:19000\nno-such-flag 1\n");
    cr_expect_lt(kvr_router_reload(router), 0);
    cr_expect_eq(router->decider.engines.count, 3);
    cr_expect(first->removed);

    /* Drained, the engine that left gave its index back: it comes back as a new engine on the
     * index freed first (its own), with the next generation and a pool of its own. */
    write_config(path, "engine http://127.0.0.1:19000\n");
    cr_assert_eq(kvr_router_reload(router), 0);
    kvr_engine_t *back = kvr_decide_find_engine(&router->decider, "http://127.0.0.1:19000");
    cr_assert_not_null(back);
    cr_expect_eq(back->index, 0);
    cr_expect_eq(back->generation, 1);
    cr_expect_eq(back->shadow_requests, 0);
    cr_expect_not_null(kvr_door_pool(&router->door, 0));
    cr_expect_eq(router->pool_generations[0], 1, "the pool was made for the new engine");
    (void)first_pool;
    cr_expect_eq(router->decider.engines.count, 1);
    cr_expect_eq(router->decider.engines.n_slots, 4);
    cr_expect_eq(router->decider.engines.n_free, 3, "1, 2 and 3 drained too");
    unlink(path);
}

static int stopped_calls;

static void on_stopped(kvr_router_t *r)
{
    cr_expect_null(r->server);
    for (uint32_t i = 0; i < KVR_MAX_ENGINES; i++)
        cr_expect_null(kvr_door_pool(&r->door, i), "pool %u outlived the stop", i);
    stopped_calls++;
}

Test(route, start_then_stop_closes_the_server_timers_and_pools)
{
    start(2, "round_robin", KVR_PLACEMENT_PER_REQUEST, false, NULL, 0);
    snprintf(router->cfg.listen_host, sizeof router->cfg.listen_host, "127.0.0.1");
    router->cfg.listen_port = 0; /* any free port */
    cr_assert_eq(kvr_router_start(router), 0);
    cr_assert_not_null(router->server);
    cr_expect_gt(kvr_http_server_port(router->server), 0);
    cr_expect_not_null(router->health);
    stopped_calls = 0;
    kvr_router_stop(router, on_stopped);
    uv_run(&loop, UV_RUN_DEFAULT); /* returns only when every handle is closed */
    cr_expect_eq(stopped_calls, 1);
    cr_expect_null(router->health);
    /* teardown closes the router and asserts the loop closes cleanly */
}

Test(route, stop_without_start_still_calls_back)
{
    start(1, "round_robin", KVR_PLACEMENT_PER_REQUEST, false, NULL, 0);
    stopped_calls = 0;
    kvr_router_stop(router, on_stopped);
    cr_expect_eq(stopped_calls, 1);
}

/* A freed index is skipped by /metrics and /engines; the engine that reuses it starts its counts afresh. */
Test(route, a_freed_index_shows_nowhere_and_its_successor_inherits_no_counts)
{
    start(2, "round_robin", KVR_PLACEMENT_PER_REQUEST, false, NULL, 0);
    kvr_engine_t *first = router->decider.engines.engines[0];
    kvr_decide_result_t res;
    for (int i = 0; i < 4; i++) {
        kvr_route_request_t req = request(NULL, 10);
        kvr_charge_t c = {0};
        kvr_door_route(&router->door, &req, NULL, 0, &c, &res);
        cr_assert_not_null(res.engine);
        kvr_decide_release(&router->decider, &c);
    }
    cr_assert_gt(first->dispatched_total, 0);
    kvr_router_remove_engine(router, first);
    kvr_decide_reclaim(&router->decider);
    cr_assert_null(router->decider.engines.engines[0], "drained: its index is free");
    size_t len;
    char *page = kvr_router_render_metrics(&router->view, &len);
    cr_assert_not_null(page);
    cr_expect_null(strstr(page, "127.0.0.1:19000"), "the freed engine is still listed");
    free(page);
    page = kvr_router_render_engines(&router->view, &len);
    cr_assert_not_null(page);
    free(page);

    kvr_engine_t *next;
    cr_assert_eq(kvr_router_add_engine(router, "http://127.0.0.1:19050", &next), 0);
    cr_assert_eq(next->index, 0);
    cr_expect_eq(next->generation, 1);
    page = kvr_router_render_metrics(&router->view, &len);
    cr_assert_not_null(page);
    const char *line = strstr(page, "kvroute_selections_total{engine=\"http://127.0.0.1:19050\"");
    cr_expect_null(line, "selections of the engine before: %.120s", line ? line : "");
    free(page);
}
