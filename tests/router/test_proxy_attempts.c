/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every end of an attempt on an engine releases what the attempt held: here
 * a seeding lease granted to an engine whose upstream request cannot even
 * start (a multicast address: connect fails at once). A lease that leaked
 * would keep that engine from ever being seeded again.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "shm_layout/shm_layout.h"
#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

static kvr_harness_t h;
static kvr_shm_t writer;
static char seg_name[64];

static void teardown(void)
{
    kvr_harness_stop(&h);
    kvr_shm_close(&writer);
    kvr_shm_unlink(seg_name);
}

TestSuite(proxy_attempts, .fini = teardown, .timeout = 30.);

static const char chat[] =
    "{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"session_id\":\"s1\"}";

static void publish(int slot, uint32_t max_running, uint32_t running, uint32_t waiting)
{
    kvr_engine_state_t st;
    kvr_shm_writer_state(&writer, (uint32_t)slot, &st);
    uint64_t now = kvr_clock_now_ns();
    st.flags |= KVR_SLOT_HEALTHY | KVR_SLOT_CAPS_COMPLETE;
    st.max_running = max_running;
    st.dp_ranks = 1;
    st.running = running;
    st.waiting = waiting;
    st.sample_time_ns = now;
    st.publish_time_ns = now;
    st.sample_seq++;
    kvr_shm_write_slot(&writer, (uint32_t)slot, &st);
    kvr_shm_heartbeat(&writer, now);
}

Test(proxy_attempts, a_seeding_lease_on_an_engine_that_cannot_be_reached_is_released)
{
    kvr_test_unique_name(seg_name, sizeof seg_name, "/kvr-test-attempts");
    cr_assert_eq(kvr_shm_create(&writer, seg_name, 8), 0);
    static const char unreachable[] = "http://224.0.0.1:9";
    const char *extra[] = {"--engine",
                           unreachable,
                           "--es",
                           "1",
                           "--shm",
                           seg_name,
                           "--admission",
                           "enforce",
                           "--max-waiting",
                           "0",
                           "--policy",
                           "sticky",
                           "--fail-threshold",
                           "1000",
                           "--health-interval-ms",
                           "600000",
                           NULL};
    kvr_harness_start(&h, 1, extra);
    char full_url[64];
    snprintf(full_url, sizeof full_url, "http://127.0.0.1:%u", kvr_fake_port(h.fleet, 0));
    int full = kvr_shm_add_engine(&writer, full_url);
    int idle = kvr_shm_add_engine(&writer, unreachable);
    cr_assert_geq(full, 0);
    cr_assert_geq(idle, 0);
    /* The session is placed on the engine that is idle at its first turn... */
    publish(full, 4, 0, 0);
    publish(idle, 4, 4, 3);
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000),
                 200);
    free(resp);
    /*
     * ...then that engine fills up and the other one idles: each turn of the
     * pinned session is seeded onto the idle engine, whose upstream request
     * cannot start; nobody else has room, so each ends in 429.
     */
    for (int i = 0; i < 3; i++) {
        publish(full, 4, 4, 3);
        publish(idle, 4, 0, 0);
        int status = kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000);
        cr_expect_eq(status, 429, "turn %d: %d %s", i, status, resp);
        free(resp);
    }
    double leases = kvr_harness_metric(&h, "kvroute_admission_total{verdict=\"seed_lease\"}");
    cr_expect_eq(leases, 3,
                 "the idle engine is seeded on every turn, so its lease came back each time: %g",
                 leases);
    cr_expect_eq(kvr_fake_requests(h.fleet, 0), 1);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}
