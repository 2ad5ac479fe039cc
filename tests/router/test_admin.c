/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The admin endpoints of router/server.c against the real kvroute: an engine
 * id is a URL or a strict base-10 index, never a number cut to 32 bits or a
 * prefix that strtoul happened to accept, and the bearer token must match
 * exactly.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

static kvr_harness_t h;

static void teardown(void)
{
    kvr_harness_stop(&h);
}

TestSuite(admin, .fini = teardown, .timeout = 30.);

#define AUTH "Authorization: Bearer s3cret\r\n"

static const char *const admin_args[] = {"--admin-token", "s3cret", NULL};

static int delete_engine(const char *id, const char *headers)
{
    char path[256];
    snprintf(path, sizeof path, "/engines/%s", id);
    char *resp = NULL;
    int status = kvr_test_http(h.admin_port, "DELETE", path, headers, NULL, &resp, 3000);
    free(resp);
    return status;
}

/* How many engines GET /engines lists (removed ones are not listed). */
static int listed_count(void)
{
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.admin_port, "GET", "/engines", NULL, NULL, &resp, 3000), 200);
    int n = 0;
    for (const char *p = resp; (p = strstr(p, "\"index\":")) != NULL; p++)
        n++;
    free(resp);
    return n;
}

/* Ids that name no engine of a 2-engine router, with the status each must get. */
typedef struct bad_id_s {
    char id[64];
    int status;
} bad_id_t;

static bad_id_t bad_ids[] = {
    {"4294967296", 400},           /* 2^32: was cut to index 0 */
    {"4294967297", 400},           /* was index 1 */
    {"18446744073709551616", 400}, /* 2^64: strtoul's ERANGE */
    {"99999999999999999999999", 400},
    {"-4294967296", 404}, /* strtoul negated it into index 0 */
    {"+0", 404},
    {"%200", 404}, /* " 0": strtoul skipped the blank */
    {"0x0", 404},
    {"0%00junk", 400}, /* %00 cut the id to "0" */
    {"0%0", 400},      /* half an escape */
    {"0%zz", 400},
    {"2", 404}, /* a valid index with no engine */
    {"http%3A%2F%2Fnope", 404},
};

ParameterizedTestParameters(admin, delete_refuses_ids_that_name_no_engine)
{
    return cr_make_param_array(bad_id_t, bad_ids, sizeof bad_ids / sizeof bad_ids[0]);
}

ParameterizedTest(bad_id_t *c, admin, delete_refuses_ids_that_name_no_engine)
{
    kvr_harness_start(&h, 2, admin_args);
    cr_expect_eq(delete_engine(c->id, AUTH), c->status, "DELETE /engines/%s", c->id);
    cr_expect_eq(listed_count(), 2, "DELETE /engines/%s removed an engine", c->id);
    /* Both engines are still there to be removed by their real indexes. */
    cr_expect_eq(delete_engine("0", AUTH), 200);
    cr_expect_eq(delete_engine("1", AUTH), 200);
    cr_expect_eq(delete_engine("0", AUTH), 404, "a removed engine is gone");
    cr_expect_eq(listed_count(), 0);
}

Test(admin, an_overlong_id_is_refused_not_truncated)
{
    kvr_harness_start(&h, 1, admin_args);
    char id[700];
    memset(id, 'a', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    char path[800];
    snprintf(path, sizeof path, "/engines/%s", id);
    char *resp = NULL;
    cr_expect_eq(kvr_test_http(h.admin_port, "DELETE", path, AUTH, NULL, &resp, 3000), 400);
    cr_expect(resp && strstr(resp, "too long"), "says why: %s", resp ? resp : "(none)");
    free(resp);
    cr_expect_eq(listed_count(), 1);
}

Test(admin, bearer_token_must_match_exactly)
{
    kvr_harness_start(&h, 1, admin_args);
    static const char *const wrong[] = {
        NULL,
        "Authorization: Bearer s3cre\r\n",   /* a prefix */
        "Authorization: Bearer s3cretX\r\n", /* one byte more */
        "Authorization: Bearer s3creT\r\n",  /* last byte differs */
        "Authorization: Bearer \r\n",
        "Authorization: s3cret\r\n",
        "Authorization: Basic s3cret\r\n",
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++)
        cr_expect_eq(delete_engine("0", wrong[i]), 401, "case %zu", i);
    cr_expect_eq(listed_count(), 1);
    cr_expect_eq(delete_engine("0", AUTH), 200);
}

Test(admin, admin_endpoints_refused_without_a_token_configured)
{
    kvr_harness_start(&h, 1, NULL);
    cr_expect_eq(delete_engine("0", AUTH), 403);
    cr_expect_eq(listed_count(), 1);
}

/*
 * The engine's id is its URL as given: a body read two ways (the URL cut at
 * \u0000, two "url" keys of which cJSON takes the first and Python the
 * last) would add an engine other than the one meant, so it is refused.
 */
Test(admin, post_engines_refuses_a_body_that_reads_two_ways)
{
    kvr_harness_start(&h, 1, admin_args);
    static const char *const bodies[] = {
        "{\"url\":\"http://127.0.0.1:1\\u0000x\"}",
        "{\"url\":\"http://127.0.0.1:1\",\"url\":\"http://127.0.0.1:2\"}",
        "{\"url\\u0000\":\"http://127.0.0.1:1\"}",
        "{\"url\":\"http://127.0.0.1:1\",\"models\":[\"m\\u0000evil\"]}",
        "{\"url\":\"http://127.0.0.1:1\",\"models\":[\"a\"],\"models\":[\"b\"]}",
        "{\"url\":\"http://127.0.0.1:1\",\"models\":[\"\xff\"]}",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        char *resp = NULL;
        cr_expect_eq(kvr_test_http(h.admin_port, "POST", "/engines", AUTH, bodies[i], &resp, 3000),
                     400, "%s", bodies[i]);
        cr_expect(resp && strstr(resp, "ambiguous body") && strstr(resp, "\"error\""),
                  "says why, OpenAI-shaped: %s", resp ? resp : "(none)");
        free(resp);
    }
    cr_expect_eq(listed_count(), 1, "no engine was added");
    char *resp = NULL;
    cr_expect_eq(kvr_test_http(h.admin_port, "POST", "/engines", AUTH,
                               "{\"url\":\"http://127.0.0.1:1\",\"note\":\"\\u0000\"}", &resp,
                               3000),
                 201, "what the router does not read may hold anything");
    free(resp);
}
