/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <stdio.h>

#include "common/clock.h"
#include "router/sessions.h"

Test(sessions, pin_get_and_move, .timeout = 5.)
{
    kvr_session_table_t t;
    cr_assert_eq(kvr_sessions_init(&t, 10 * KVR_NS_PER_SEC, 100), 0);
    cr_assert_null(kvr_sessions_get(&t, "a", 1));
    kvr_sessions_pin(&t, "a", 3, 1);
    kvr_session_t *s = kvr_sessions_get(&t, "a", 2);
    cr_assert_not_null(s);
    cr_assert_eq(s->engine, 3);
    kvr_sessions_pin(&t, "a", 5, 3);
    cr_assert_eq(kvr_sessions_get(&t, "a", 4)->engine, 5);
    cr_assert_eq(t.count, 1);
    cr_assert_eq(kvr_sessions_count_on(&t, 5), 1);
    kvr_sessions_close(&t);
}

Test(sessions, idle_ttl_forgets_and_use_keeps, .timeout = 5.)
{
    kvr_session_table_t t;
    cr_assert_eq(kvr_sessions_init(&t, 100, 100), 0);
    kvr_sessions_pin(&t, "old", 1, 0);
    kvr_sessions_pin(&t, "used", 2, 0);
    kvr_sessions_touch(&t, kvr_sessions_get(&t, "used", 90), 90);
    cr_assert_eq(kvr_sessions_expire(&t, 150), 1);
    cr_assert_null(kvr_sessions_get(&t, "old", 150));
    cr_assert_not_null(kvr_sessions_get(&t, "used", 150));
    cr_assert_null(kvr_sessions_get(&t, "used", 300), "lookup after the TTL drops the pin");
    cr_assert_eq(t.count, 0);
    cr_assert_eq(t.expired_total, 2);
    kvr_sessions_close(&t);
}

Test(sessions, bound_drops_least_recently_used, .timeout = 5.)
{
    kvr_session_table_t t;
    cr_assert_eq(kvr_sessions_init(&t, KVR_NS_PER_SEC, 3), 0);
    kvr_sessions_pin(&t, "a", 0, 1);
    kvr_sessions_pin(&t, "b", 0, 2);
    kvr_sessions_pin(&t, "c", 0, 3);
    kvr_sessions_touch(&t, kvr_sessions_get(&t, "a", 4), 4);
    kvr_sessions_pin(&t, "d", 0, 5);
    cr_assert_eq(t.count, 3);
    cr_assert_null(kvr_sessions_get(&t, "b", 6));
    cr_assert_not_null(kvr_sessions_get(&t, "a", 6));
    cr_assert_eq(t.evicted_total, 1);
    kvr_sessions_close(&t);
}

Test(sessions, many_sessions_grow_the_table, .timeout = 10.)
{
    kvr_session_table_t t;
    cr_assert_eq(kvr_sessions_init(&t, KVR_NS_PER_SEC, 1000000), 0);
    char id[32];
    for (int i = 0; i < 20000; i++) {
        snprintf(id, sizeof id, "s%d", i);
        kvr_sessions_pin(&t, id, (uint32_t)(i % 7), 1);
    }
    cr_assert_geq(t.n_buckets, 16384);
    for (int i = 0; i < 20000; i += 997) {
        snprintf(id, sizeof id, "s%d", i);
        kvr_session_t *s = kvr_sessions_get(&t, id, 2);
        cr_assert_not_null(s);
        cr_assert_eq(s->engine, (uint32_t)(i % 7));
    }
    kvr_sessions_close(&t);
}
