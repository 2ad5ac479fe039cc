/* SPDX-License-Identifier: Apache-2.0 */
/*
 * router/apikeys.c: the lines a keys file may and may not hold, and the
 * Authorization values that do and do not present a key.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "router/apikeys.h"

#define ALICE "099295a3784e1bd368dc348843a7398c1931b6b8ec2504c73e91ed2040bdc46c" /* sk-alice */
#define BOB "36c76b48bb2ee1d9d37140550e9d7ed7d395cf56f41050dc2a72e5291c0011f0"   /* sk-bob */

/* Arrays, not pointers: Criterion runs each case in a process of its own. */
typedef struct line_case_s {
    char text[200];
    size_t keys; /* 0: refused */
} line_case_t;

static line_case_t lines[] = {
    {"alice sha256:" ALICE "\n", 1},
    {"alice sha256:" ALICE, 1},                     /* no final newline */
    {"alice\tsha256:" ALICE "\r\n", 1},             /* tab, CRLF */
    {"  alice   sha256:" ALICE "  \n", 1},          /* blanks around */
    {"# team keys\n\nalice sha256:" ALICE "\n", 1}, /* comment, blank line */
    {"a.b_c-1 sha256:" ALICE "\n", 1},
    {"alice sha256:099295A3784E1BD368DC348843A7398C1931B6B8EC2504C73E91ED2040BDC46C\n", 1},
    {"alice sha256:" ALICE "\nbob sha256:" BOB "\n", 2},
    {"", 0}, /* no keys */
    {"# only a comment\n", 0},
    {"alice\n", 0},
    {"alice " ALICE "\n", 0}, /* no sha256: */
    {"alice sha1:" ALICE "\n", 0},
    {"alice sha256:" ALICE "00\n", 0}, /* 66 digits */
    {"alice sha256:099295a3784e1bd368dc348843a7398c1931b6b8ec2504c73e91ed2040bdc46\n", 0}, /* 63 */
    {"alice sha256:g99295a3784e1bd368dc348843a7398c1931b6b8ec2504c73e91ed2040bdc46c\n", 0},
    {"alice sha256:" ALICE " extra\n", 0},
    {"al\"ice sha256:" ALICE "\n", 0}, /* would break the metric label */
    {"al}ice sha256:" ALICE "\n", 0},
    {"sha256:" ALICE "\n", 0},                             /* no name */
    {"alice sha256:" ALICE "\nalice sha256:" BOB "\n", 0}, /* a name twice */
    {"alice sha256:" ALICE "\nbob sha256:" ALICE "\n", 0}, /* a key under two names */
    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa sha256:" ALICE "\n",
     0}, /* 65 */
};

ParameterizedTestParameters(apikeys, file_lines)
{
    return cr_make_param_array(line_case_t, lines, sizeof lines / sizeof lines[0]);
}

ParameterizedTest(line_case_t *c, apikeys, file_lines)
{
    kvr_apikeys_t *k = NULL;
    char err[200] = "";
    int rc = kvr_apikeys_parse(c->text, strlen(c->text), &k, err, sizeof err);
    if (c->keys == 0) {
        cr_expect_eq(rc, -EINVAL, "accepted: %s", c->text);
        cr_expect_null(k);
        cr_expect_neq(err[0], '\0', "no reason given");
    } else {
        cr_assert_eq(rc, 0, "refused (%s): %s", err, c->text);
        cr_expect_eq(kvr_apikeys_count(k), c->keys);
    }
    kvr_apikeys_destroy(k);
}

Test(apikeys, a_nul_byte_is_refused)
{
    static const char text[] = "alice sha256:" ALICE "\nbob\0 sha256:" BOB "\n";
    kvr_apikeys_t *k = NULL;
    char err[200];
    cr_expect_eq(kvr_apikeys_parse(text, sizeof text - 1, &k, err, sizeof err), -EINVAL);
    cr_expect(strstr(err, "line 2") != NULL, "%s", err);
}

typedef struct auth_case_s {
    char authorization[100];
    int index; /* -1: refused */
} auth_case_t;

static auth_case_t auths[] = {
    {"Bearer sk-alice", 0},
    {"bearer sk-alice", 0},
    {"Bearer  sk-alice ", 0},
    {"Bearer sk-bob", 1},
    {"Bearer sk-alic", -1},
    {"Bearer sk-alicee", -1},
    {"Bearer " ALICE, -1}, /* the digest is no key */
    {"Basic sk-alice", -1},
    {"sk-alice", -1},
    {"Bearer", -1},
    {"Bearer ", -1},
    {"", -1},
};

ParameterizedTestParameters(apikeys, authorization_values)
{
    return cr_make_param_array(auth_case_t, auths, sizeof auths / sizeof auths[0]);
}

ParameterizedTest(auth_case_t *c, apikeys, authorization_values)
{
    static const char text[] = "alice sha256:" ALICE "\nbob sha256:" BOB "\n";
    kvr_apikeys_t *k;
    char err[200];
    cr_assert_eq(kvr_apikeys_parse(text, sizeof text - 1, &k, err, sizeof err), 0, "%s", err);
    cr_expect_eq(kvr_apikeys_check(k, c->authorization), c->index, "%s", c->authorization);
    cr_expect_eq(kvr_apikeys_check(k, NULL), -1, "no Authorization header");
    kvr_apikeys_destroy(k);
}

Test(apikeys, counts_survive_a_reload_by_name)
{
    static const char one[] = "alice sha256:" ALICE "\nbob sha256:" BOB "\n";
    static const char two[] = "bob sha256:" BOB "\ncarol sha256:" ALICE "\n";
    kvr_apikeys_t *old, *fresh;
    char err[200];
    cr_assert_eq(kvr_apikeys_parse(one, sizeof one - 1, &old, err, sizeof err), 0);
    kvr_apikeys_count_request(old, 0);
    kvr_apikeys_count_request(old, 1);
    kvr_apikeys_count_request(old, 1);
    cr_assert_eq(kvr_apikeys_parse(two, sizeof two - 1, &fresh, err, sizeof err), 0);
    kvr_apikeys_carry_counts(fresh, old);
    cr_expect_eq(kvr_apikeys_requests(fresh, 0), 2, "bob keeps his count");
    cr_expect_eq(kvr_apikeys_requests(fresh, 1), 0, "carol starts afresh with alice's key");
    kvr_apikeys_destroy(old);
    kvr_apikeys_destroy(fresh);
}

Test(apikeys, a_missing_file_is_an_error)
{
    kvr_apikeys_t *k = (kvr_apikeys_t *)1;
    char err[300] = "";
    cr_expect_eq(kvr_apikeys_load("/nonexistent/kvroute-keys", &k, err, sizeof err), -ENOENT);
    cr_expect_null(k);
    cr_expect(strstr(err, "/nonexistent/kvroute-keys") != NULL, "%s", err);
}
