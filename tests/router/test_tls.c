/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute with TLS on both sides, real processes on loopback: a TLS client
 * through kvroute to a kvroute-sim engine serving TLS, an engine whose
 * certificate does not verify, a SIGHUP certificate reload and a client
 * speaking plain HTTP (or only h2) to the TLS port.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/proc.h"
#include "tests/support/tls_certs.h"

static char dir[64];
static char ca[96], ca_key[96], other_ca[96], other_key[96], cert[96], key[96];
static char router_log[128];
static pid_t sim_pid, router_pid;
static uint16_t sim_port, port, admin_port;
static bool admin_tls;

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
    snprintf(router_log, sizeof router_log, "%s/kvroute.log", dir);
    cr_assert(kvr_test_tls_ca(ca, ca_key, "kvr test ca"));
    cr_assert(kvr_test_tls_ca(other_ca, other_key, "another ca"));
    cr_assert(kvr_test_tls_leaf(ca, ca_key, cert, key, "first"));
}

static void teardown(void)
{
    bool clean = true;
    if (router_pid > 0) {
        int status = kvr_test_stop(router_pid, SIGTERM, 5000);
        clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        cr_expect(clean, "kvroute exited with status %d; its log is kept at %s", status,
                  router_log);
    }
    if (sim_pid > 0) {
        int status = kvr_test_stop(sim_pid, SIGTERM, 5000);
        bool sim_clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        cr_expect(sim_clean, "kvroute-sim exited with status %d", status);
        clean = clean && sim_clean;
    }
    router_pid = sim_pid = 0;
    if (!clean)
        return;
    const char *files[] = {ca, ca_key, other_ca, other_key, cert, key, router_log};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        unlink(files[i]);
    rmdir(dir);
}

TestSuite(tls, .init = setup, .fini = teardown, .timeout = 60.);

static void start_sim(void)
{
    sim_port = kvr_test_free_port();
    char p[16];
    snprintf(p, sizeof p, "%u", sim_port);
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                    "--port",
                    p,
                    "--tls-cert",
                    cert,
                    "--tls-key",
                    key,
                    "--log-level",
                    "warn",
                    NULL};
    sim_pid = kvr_test_spawn(argv, NULL);
    cr_assert_gt(sim_pid, 0);
    cr_assert(kvr_test_wait_port(sim_port, 5000));
}

/* kvroute in front of the sim (when engine_ca is given) with more flags. */
static void start_router(const char *engine_ca, bool tls, const char *const *more)
{
    port = kvr_test_free_port();
    admin_port = kvr_test_free_port();
    admin_tls = tls;
    char listen[32], admin[32], engine[64];
    snprintf(listen, sizeof listen, "127.0.0.1:%u", port);
    snprintf(admin, sizeof admin, "127.0.0.1:%u", admin_port);
    snprintf(engine, sizeof engine, "https://localhost:%u", sim_port);
    const char *argv[40];
    size_t k = 0;
    argv[k++] = kvr_test_bin("KVR_BIN_KVROUTE");
    argv[k++] = "--listen";
    argv[k++] = listen;
    argv[k++] = "--admin-listen";
    argv[k++] = admin;
    argv[k++] = "--es";
    argv[k++] = "0";
    argv[k++] = "--health-interval-ms";
    argv[k++] = "200";
    argv[k++] = "--log-level";
    argv[k++] = "info";
    if (engine_ca) {
        argv[k++] = "--engine";
        argv[k++] = engine;
        argv[k++] = "--engine-ca";
        argv[k++] = engine_ca;
    }
    if (tls) {
        argv[k++] = "--tls-cert";
        argv[k++] = cert;
        argv[k++] = "--tls-key";
        argv[k++] = key;
    }
    for (size_t i = 0; more && more[i] && k < 38; i++)
        argv[k++] = more[i];
    argv[k] = NULL;
    router_pid = kvr_test_spawn((char *const *)argv, router_log);
    cr_assert_gt(router_pid, 0);
    cr_assert(kvr_test_wait_port(port, 5000), "kvroute did not listen; see %s", router_log);
    cr_assert(kvr_test_wait_port(admin_port, 5000), "see %s", router_log);
}

static int tls_get(uint16_t p, const char *method, const char *path, const char *body, char **resp,
                   char *cn, size_t cn_cap)
{
    kvr_test_tls_opts_t opts = {.ca_file = ca};
    char err[256];
    int status = kvr_test_tls_http(p, &opts, method, path, body, resp, cn, cn_cap, err, sizeof err);
    if (status < 0)
        cr_log_info("TLS request to %u failed: %s", p, err);
    return status;
}

/* One /metrics sample from the admin listener, -1 when absent. */
static double metric(const char *sample)
{
    char *resp = NULL;
    int status = admin_tls ? tls_get(admin_port, "GET", "/metrics", NULL, &resp, NULL, 0)
                           : kvr_test_http(admin_port, "GET", "/metrics", NULL, NULL, &resp, 3000);
    double v = -1;
    size_t n = strlen(sample);
    for (const char *line = status == 200 ? kvr_test_http_body(resp) : NULL; line && *line;) {
        if (strncmp(line, sample, n) == 0 && line[n] == ' ') {
            v = strtod(line + n + 1, NULL);
            break;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    free(resp);
    return v;
}

typedef struct {
    const char *sample;
    double at_least;
} metric_wait_t;

static bool metric_reached(void *arg)
{
    const metric_wait_t *m = arg;
    if (metric(m->sample) >= m->at_least)
        return true;
    kvr_test_sleep_ms(20);
    return false;
}

static bool wait_metric(const char *sample, double at_least)
{
    metric_wait_t m = {sample, at_least};
    return kvr_test_wait_until(metric_reached, &m, 10000);
}

static bool ready_over_tls(void *arg)
{
    (void)arg;
    char *resp = NULL;
    int status = tls_get(port, "GET", "/readiness", NULL, &resp, NULL, 0);
    free(resp);
    if (status == 200)
        return true;
    kvr_test_sleep_ms(20);
    return false;
}

static const char completion[] =
    "{\"model\":\"sim-30b-a3b\",\"prompt\":\"hello\",\"max_tokens\":3}";
static const char streamed[] =
    "{\"model\":\"sim-30b-a3b\",\"prompt\":\"hello\",\"max_tokens\":3,\"stream\":true}";

Test(tls, a_tls_client_reaches_a_tls_engine_through_kvroute)
{
    start_sim();
    start_router(ca, true, NULL);
    cr_assert(kvr_test_wait_until(ready_over_tls, NULL, 10000), "never ready; see %s", router_log);
    char *resp = NULL, cn[64];
    cr_assert_eq(tls_get(port, "POST", "/v1/completions", completion, &resp, cn, sizeof cn), 200,
                 "%s", resp ? resp : "");
    cr_expect_str_eq(cn, "first");
    cr_expect(strstr(kvr_test_http_body(resp), "\"text_completion\"") != NULL, "%s", resp);
    free(resp);
    cr_assert_eq(tls_get(port, "POST", "/v1/completions", streamed, &resp, NULL, 0), 200);
    cr_expect(strstr(resp, "data: [DONE]") != NULL, "%s", resp);
    free(resp);
    /* Health checks, /v1/models and the two requests: every one over TLS to the engine. */
    cr_expect_geq(metric("kvroute_tls_handshakes_total{side=\"engine\",result=\"ok\"}"), 1);
    cr_expect_eq(metric("kvroute_tls_handshakes_total{side=\"engine\",result=\"verify_failed\"}"),
                 0);
    cr_expect_geq(metric("kvroute_tls_handshakes_total{side=\"client\",result=\"ok\"}"), 3);
    cr_expect_geq(metric("kvroute_tls_handshakes_total{side=\"admin\",result=\"ok\"}"), 1);
}

Test(tls, an_engine_certificate_from_another_ca_is_refused_and_counted)
{
    start_sim();
    start_router(other_ca, false, NULL);
    cr_assert(
        wait_metric("kvroute_tls_handshakes_total{side=\"engine\",result=\"verify_failed\"}", 1),
        "see %s", router_log);
    cr_expect(kvr_test_wait_file_contains(
                  router_log, "why=\"certificate verify failed: unable to get local issuer", 5000),
              "the log says why; see %s", router_log);
    char *resp = NULL;
    int status = kvr_test_http(port, "POST", "/v1/completions", NULL, completion, &resp, 5000);
    cr_expect(status == 502 || status == 503, "status %d: %s", status, resp ? resp : "");
    free(resp);
    cr_expect_eq(metric("kvroute_tls_handshakes_total{side=\"engine\",result=\"ok\"}"), 0);
}

static bool serves_cn(void *arg)
{
    char *resp = NULL, cn[64] = "";
    int status = tls_get(port, "GET", "/health", NULL, &resp, cn, sizeof cn);
    free(resp);
    if (status == 200 && strcmp(cn, arg) == 0)
        return true;
    kvr_test_sleep_ms(20);
    return false;
}

Test(tls, sighup_serves_the_new_certificate_and_keeps_it_over_a_bad_one)
{
    start_router(NULL, true, NULL);
    cr_assert(kvr_test_wait_until(serves_cn, "first", 5000), "see %s", router_log);
    cr_assert(kvr_test_tls_leaf(ca, ca_key, cert, key, "second"));
    cr_assert_eq(kill(router_pid, SIGHUP), 0);
    cr_assert(kvr_test_wait_file_contains(router_log, "tls_reloaded", 5000), "see %s", router_log);
    cr_expect(kvr_test_wait_until(serves_cn, "second", 5000), "see %s", router_log);

    FILE *f = fopen(cert, "w");
    cr_assert_not_null(f);
    fputs("not a certificate\n", f);
    fclose(f);
    cr_assert_eq(kill(router_pid, SIGHUP), 0);
    cr_assert(kvr_test_wait_file_contains(router_log, "tls_reload_failed", 5000), "see %s",
              router_log);
    cr_expect(serves_cn("second"), "the pair in force stays");
    cr_expect_eq(metric("kvroute_tls_reloads_total{side=\"client\",result=\"ok\"}"), 1);
    cr_expect_eq(metric("kvroute_tls_reloads_total{side=\"client\",result=\"failed\"}"), 1);
}

Test(tls, plain_http_to_the_tls_port_is_answered_in_plain_and_closed)
{
    start_router(NULL, true, NULL);
    char *resp = NULL;
    int status = kvr_test_http(port, "GET", "/health", NULL, NULL, &resp, 5000);
    cr_assert_eq(status, 400, "%s", resp ? resp : "");
    cr_expect(strstr(kvr_test_http_body(resp), "use https://") != NULL, "%s", resp);
    cr_expect(strstr(resp, "Connection: close") != NULL, "%s", resp);
    free(resp);
    cr_expect_eq(metric("kvroute_tls_handshakes_total{side=\"client\",result=\"plain_http\"}"), 1);
    /* The port still serves TLS. */
    cr_expect(serves_cn("first"));
}

Test(tls, a_client_offering_only_h2_is_refused_and_counted)
{
    start_router(NULL, true, NULL);
    kvr_test_tls_opts_t opts = {.ca_file = ca, .alpn = "h2"};
    char *resp = NULL, err[256] = "";
    cr_expect_eq(
        kvr_test_tls_http(port, &opts, "GET", "/health", NULL, &resp, NULL, 0, err, sizeof err),
        -1);
    cr_expect(strstr(err, "no application protocol") != NULL, "%s", err);
    free(resp);
    cr_expect_eq(metric("kvroute_tls_handshakes_total{side=\"client\",result=\"alpn_refused\"}"),
                 1);
}
