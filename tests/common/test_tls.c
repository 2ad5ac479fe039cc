/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TLS sessions over memory only: a client and a server session pass their
 * output to each other, as two streams' owners would.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/tls.h"
#include "tests/support/tls_certs.h"

static char dir[64];
static char ca[96], ca_key[96], other_ca[96], other_key[96], cert[96], key[96];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/kvr-test-tls-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(ca, sizeof ca, "%s/ca.pem", dir);
    snprintf(ca_key, sizeof ca_key, "%s/ca.key", dir);
    snprintf(other_ca, sizeof other_ca, "%s/other.pem", dir);
    snprintf(other_key, sizeof other_key, "%s/other.key", dir);
    snprintf(cert, sizeof cert, "%s/srv.pem", dir);
    snprintf(key, sizeof key, "%s/srv.key", dir);
    cr_assert(kvr_test_tls_ca(ca, ca_key, "kvr test ca"));
    cr_assert(kvr_test_tls_ca(other_ca, other_key, "another ca"));
    cr_assert(kvr_test_tls_leaf(ca, ca_key, cert, key, "first"));
}

static void teardown(void)
{
    const char *files[] = {ca, ca_key, other_ca, other_key, cert, key};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        unlink(files[i]);
    rmdir(dir);
}

TestSuite(tls, .init = setup, .fini = teardown, .timeout = 10.);

static int sink(void *arg, const char *data, size_t len)
{
    kvr_buf_append(arg, data, len);
    return 0;
}

typedef struct {
    kvr_tls_t *t;
    kvr_buf_t got;
    int rc;
} side_t;

/* Moves each side's output to the other until neither has any. */
static void pump(side_t *a, side_t *b)
{
    for (int round = 0; round < 32; round++) {
        bool moved = false;
        side_t *from[2] = {a, b}, *to[2] = {b, a};
        for (int i = 0; i < 2; i++) {
            char *out;
            size_t n = kvr_tls_take_output(from[i]->t, &out);
            if (!n)
                continue;
            moved = true;
            to[i]->rc = kvr_tls_input(to[i]->t, out, n, sink, &to[i]->got);
            free(out);
        }
        if (!moved)
            return;
    }
    cr_assert_fail("the sessions never went quiet");
}

static void pair(kvr_tls_ctx_t *server_ctx, kvr_tls_ctx_t *client_ctx, const char *name,
                 side_t *server, side_t *client)
{
    memset(server, 0, sizeof *server);
    memset(client, 0, sizeof *client);
    cr_assert_eq(kvr_tls_create(server_ctx, NULL, &server->t), 0);
    cr_assert_eq(kvr_tls_create(client_ctx, name, &client->t), 0);
}

static void unpair(side_t *server, side_t *client)
{
    kvr_tls_destroy(server->t);
    kvr_tls_destroy(client->t);
    kvr_buf_close(&server->got);
    kvr_buf_close(&client->got);
}

Test(tls, a_request_written_before_the_handshake_goes_out_after_it)
{
    char err[512];
    kvr_tls_ctx_t *sctx, *cctx;
    cr_assert_eq(kvr_tls_server_ctx_create(cert, key, &sctx, err, sizeof err), 0, "%s", err);
    cr_assert_eq(kvr_tls_client_ctx_create(ca, false, &cctx, err, sizeof err), 0, "%s", err);
    side_t s, c;
    pair(sctx, cctx, "localhost", &s, &c);
    static const char req[] = "GET /health HTTP/1.1\r\nHost: e\r\n\r\n";
    uv_buf_t b = uv_buf_init((char *)req, sizeof req - 1);
    cr_assert_eq(kvr_tls_write(c.t, &b, 1), 0);
    cr_expect_not(kvr_tls_established(c.t));
    pump(&s, &c);
    cr_assert(kvr_tls_established(c.t) && kvr_tls_established(s.t));
    cr_assert_eq(s.got.len, sizeof req - 1);
    cr_expect_eq(memcmp(s.got.base, req, s.got.len), 0);

    static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    b = uv_buf_init((char *)answer, sizeof answer - 1);
    cr_assert_eq(kvr_tls_write(s.t, &b, 1), 0);
    kvr_tls_close_notify(s.t);
    pump(&s, &c);
    cr_expect_eq(c.got.len, sizeof answer - 1);
    cr_expect_eq(c.rc, KVR_TLS_CLOSED, "the server's close_notify ends the client's input");
    cr_expect_eq(kvr_tls_write(c.t, &b, 1), -EPIPE, "nothing is sent after the peer closed");

    kvr_tls_stats_t st;
    kvr_tls_ctx_stats(sctx, &st);
    cr_expect_eq(st.handshakes, 1);
    cr_expect_eq(st.sessions, 1);
    kvr_tls_ctx_stats(cctx, &st);
    cr_expect_eq(st.handshakes, 1);
    cr_expect_eq(st.close_notify, 1);
    unpair(&s, &c);
    kvr_tls_ctx_stats(cctx, &st);
    cr_expect_eq(st.sessions, 0);
    kvr_tls_ctx_destroy(sctx);
    kvr_tls_ctx_destroy(cctx);
}

Test(tls, a_certificate_from_another_ca_is_refused_and_counted)
{
    char err[512];
    kvr_tls_ctx_t *sctx, *cctx;
    cr_assert_eq(kvr_tls_server_ctx_create(cert, key, &sctx, err, sizeof err), 0, "%s", err);
    cr_assert_eq(kvr_tls_client_ctx_create(other_ca, false, &cctx, err, sizeof err), 0, "%s", err);
    side_t s, c;
    pair(sctx, cctx, "localhost", &s, &c);
    uv_buf_t b = uv_buf_init((char *)"GET / HTTP/1.1\r\n\r\n", 18);
    cr_assert_eq(kvr_tls_write(c.t, &b, 1), 0);
    pump(&s, &c);
    cr_expect_eq(c.rc, -EPROTO);
    cr_expect_not(kvr_tls_established(c.t));
    cr_expect_eq(s.got.len, 0, "the request never left the client");
    cr_expect(strstr(kvr_tls_why(c.t), "certificate verify failed") != NULL, "%s",
              kvr_tls_why(c.t));
    cr_expect_eq(kvr_tls_write(c.t, &b, 1), -EPIPE);
    kvr_tls_stats_t st;
    kvr_tls_ctx_stats(cctx, &st);
    cr_expect_eq(st.handshake_failures, 1);
    cr_expect_eq(st.verify_failures, 1);
    cr_expect_eq(st.handshakes, 0);
    kvr_tls_ctx_stats(sctx, &st);
    cr_expect_eq(st.handshake_failures, 1, "the server reads the client's alert");
    unpair(&s, &c);
    kvr_tls_ctx_destroy(sctx);
    kvr_tls_ctx_destroy(cctx);
}

Test(tls, a_name_the_certificate_does_not_carry_is_refused)
{
    char err[512];
    kvr_tls_ctx_t *sctx, *cctx;
    cr_assert_eq(kvr_tls_server_ctx_create(cert, key, &sctx, err, sizeof err), 0, "%s", err);
    cr_assert_eq(kvr_tls_client_ctx_create(ca, false, &cctx, err, sizeof err), 0, "%s", err);
    const char *names[] = {"engine-1.example", "127.0.0.2"};
    for (size_t i = 0; i < 2; i++) {
        side_t s, c;
        pair(sctx, cctx, names[i], &s, &c);
        pump(&s, &c);
        cr_expect_eq(c.rc, -EPROTO, "%s", names[i]);
        cr_expect(strstr(kvr_tls_why(c.t), "mismatch") != NULL, "%s: %s", names[i],
                  kvr_tls_why(c.t));
        unpair(&s, &c);
    }
    side_t s, c;
    pair(sctx, cctx, "127.0.0.1", &s, &c); /* an IP literal is checked against the IP SAN */
    pump(&s, &c);
    cr_expect(kvr_tls_established(c.t), "%s", kvr_tls_why(c.t));
    unpair(&s, &c);
    kvr_tls_ctx_destroy(sctx);
    kvr_tls_ctx_destroy(cctx);
}

Test(tls, insecure_skips_verification)
{
    char err[512];
    kvr_tls_ctx_t *sctx, *cctx;
    cr_assert_eq(kvr_tls_server_ctx_create(cert, key, &sctx, err, sizeof err), 0, "%s", err);
    cr_assert_eq(kvr_tls_client_ctx_create(NULL, true, &cctx, err, sizeof err), 0, "%s", err);
    side_t s, c;
    pair(sctx, cctx, "engine-1.example", &s, &c);
    pump(&s, &c);
    cr_expect(kvr_tls_established(c.t), "%s", kvr_tls_why(c.t));
    unpair(&s, &c);
    kvr_tls_ctx_destroy(sctx);
    kvr_tls_ctx_destroy(cctx);
}

Test(tls, plain_http_and_garbage_fail_the_server_session)
{
    char err[512];
    kvr_tls_ctx_t *sctx;
    cr_assert_eq(kvr_tls_server_ctx_create(cert, key, &sctx, err, sizeof err), 0, "%s", err);
    kvr_buf_t got = {0};
    kvr_tls_t *t;
    cr_assert_eq(kvr_tls_create(sctx, NULL, &t), 0);
    static const char plain[] = "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n";
    cr_expect_eq(kvr_tls_input(t, plain, sizeof plain - 1, sink, &got), -EPROTO);
    cr_expect(kvr_tls_plain_http(t));
    kvr_tls_destroy(t);

    /* A handshake record holding a ServerHello, which a server never reads. */
    static const unsigned char junk[] = {0x16, 0x03, 0x01, 0x00, 0x04, 0x02, 0x00, 0x00, 0x00};
    cr_assert_eq(kvr_tls_create(sctx, NULL, &t), 0);
    cr_expect_eq(kvr_tls_input(t, (const char *)junk, sizeof junk, sink, &got), -EPROTO);
    cr_expect_not(kvr_tls_plain_http(t));
    cr_expect_gt(strlen(kvr_tls_why(t)), 0);
    cr_expect_eq(kvr_tls_input(t, (const char *)junk, sizeof junk, sink, &got), -EPROTO,
                 "a failed session stays failed");
    kvr_tls_destroy(t);
    cr_expect_eq(got.len, 0);

    kvr_tls_stats_t st;
    kvr_tls_ctx_stats(sctx, &st);
    cr_expect_eq(st.handshake_failures, 2);
    cr_expect_eq(st.plain_http, 1);
    cr_expect_eq(st.sessions, 0);
    kvr_tls_ctx_destroy(sctx);
}

Test(tls, a_reload_takes_a_good_pair_and_keeps_the_old_one_for_a_bad_one)
{
    char err[512], what[256];
    kvr_tls_ctx_t *sctx, *cctx;
    cr_assert_eq(kvr_tls_server_ctx_create(cert, key, &sctx, err, sizeof err), 0, "%s", err);
    cr_assert_eq(kvr_tls_client_ctx_create(ca, false, &cctx, err, sizeof err), 0, "%s", err);
    side_t s, c;
    pair(sctx, cctx, "localhost", &s, &c); /* a session open across both reloads */

    FILE *f = fopen(cert, "w");
    cr_assert_not_null(f);
    fputs("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n", f);
    fclose(f);
    cr_expect_lt(kvr_tls_ctx_reload(sctx, err, sizeof err), 0);
    cr_expect(strstr(err, cert) != NULL, "the error names the file: %s", err);
    kvr_tls_ctx_describe(sctx, what, sizeof what);
    cr_expect(strstr(what, "first") != NULL, "%s", what);

    cr_assert(kvr_test_tls_leaf(ca, ca_key, cert, key, "second"));
    cr_expect_eq(kvr_tls_ctx_reload(sctx, err, sizeof err), 0, "%s", err);
    kvr_tls_ctx_describe(sctx, what, sizeof what);
    cr_expect(strstr(what, "second") != NULL, "%s", what);

    pump(&s, &c);
    cr_expect(kvr_tls_established(c.t), "%s", kvr_tls_why(c.t));
    unpair(&s, &c);
    kvr_tls_stats_t st;
    kvr_tls_ctx_stats(sctx, &st);
    cr_expect_eq(st.reloads, 1);
    cr_expect_eq(st.reload_failures, 1);
    kvr_tls_ctx_destroy(sctx);
    kvr_tls_ctx_destroy(cctx);
}

Test(tls, a_pair_that_does_not_match_is_refused)
{
    char err[512], other_cert[128], other_leaf_key[128];
    snprintf(other_cert, sizeof other_cert, "%s/o.pem", dir);
    snprintf(other_leaf_key, sizeof other_leaf_key, "%s/o.key", dir);
    cr_assert(kvr_test_tls_leaf(ca, ca_key, other_cert, other_leaf_key, "other"));
    kvr_tls_ctx_t *sctx = NULL;
    cr_expect_lt(kvr_tls_server_ctx_create(cert, other_leaf_key, &sctx, err, sizeof err), 0);
    cr_expect(strstr(err, "mismatch") != NULL, "%s", err);
    cr_expect_lt(kvr_tls_server_ctx_create(cert, "/nonexistent/key", &sctx, err, sizeof err), 0);
    cr_expect(strstr(err, "/nonexistent/key") != NULL, "%s", err);
    cr_expect_lt(kvr_tls_client_ctx_create("/nonexistent/ca", false, &sctx, err, sizeof err), 0);
    cr_expect(strstr(err, "/nonexistent/ca") != NULL, "%s", err);
    unlink(other_cert);
    unlink(other_leaf_key);
}
