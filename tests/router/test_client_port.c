/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The client port secure by default (router/server.c, router/proxy.c,
 * router/router.c): admin endpoints only on --admin-listen, client API keys
 * with OpenAI's 401, per-key counts and their reload on SIGHUP, the
 * client's Authorization kept from the engine, and X-Kvroute-Engine only
 * with --engine-header. The real kvroute on loopback.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define ALICE "099295a3784e1bd368dc348843a7398c1931b6b8ec2504c73e91ed2040bdc46c" /* sk-alice */
#define BOB "36c76b48bb2ee1d9d37140550e9d7ed7d395cf56f41050dc2a72e5291c0011f0"   /* sk-bob */

static kvr_harness_t h;
static char keys_path[128];

static void teardown(void)
{
    kvr_harness_stop(&h);
    if (keys_path[0])
        unlink(keys_path);
}

TestSuite(client_port, .fini = teardown, .timeout = 60.);

static const char chat[] =
    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

static void write_keys(const char *text)
{
    if (!keys_path[0])
        kvr_test_unique_name(keys_path, sizeof keys_path, "/tmp/kvroute-test-keys");
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s.tmp", keys_path);
    FILE *f = fopen(tmp, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    cr_assert_eq(rename(tmp, keys_path),
                 0); /* whole, never half-written, when the router reads it */
}

static int status_of(uint16_t port, const char *method, const char *path, const char *headers,
                     const char *body)
{
    char *resp = NULL;
    int status = kvr_test_http(port, method, path, headers, body, &resp, 5000);
    free(resp);
    return status;
}

Test(client_port, admin_endpoints_live_on_the_admin_listener_only)
{
    const char *extra[] = {"--admin-token", "s3cret", NULL};
    kvr_harness_start(&h, 1, extra);
    cr_expect_eq(status_of(h.port, "GET", "/metrics", NULL, NULL), 404);
    cr_expect_eq(status_of(h.port, "GET", "/engines", NULL, NULL), 404);
    cr_expect_eq(status_of(h.port, "POST", "/engines", "Authorization: Bearer s3cret\r\n",
                           "{\"url\":\"http://127.0.0.1:1\"}"),
                 404);
    cr_expect_eq(
        status_of(h.port, "DELETE", "/engines/0", "Authorization: Bearer s3cret\r\n", NULL), 404);
    cr_expect_eq(status_of(h.port, "GET", "/health", NULL, NULL), 200);
    cr_expect_eq(status_of(h.port, "GET", "/readiness", NULL, NULL), 200);
    cr_expect_eq(status_of(h.port, "POST", "/v1/chat/completions", NULL, chat), 200);

    cr_expect_eq(status_of(h.admin_port, "GET", "/metrics", NULL, NULL), 200);
    cr_expect_eq(status_of(h.admin_port, "GET", "/engines", NULL, NULL), 200);
    cr_expect_eq(status_of(h.admin_port, "GET", "/health", NULL, NULL), 200);
    cr_expect_eq(status_of(h.admin_port, "DELETE", "/engines/0", NULL, NULL), 401,
                 "the token still guards");
    cr_expect_eq(status_of(h.admin_port, "POST", "/v1/chat/completions", NULL, chat), 404,
                 "the admin listener proxies nothing");
}

Test(client_port, admin_on_client_port_keeps_the_old_layout)
{
    const char *extra[] = {"--admin-on-client-port", NULL};
    kvr_harness_start(&h, 1, extra);
    cr_expect_eq(status_of(h.port, "GET", "/metrics", NULL, NULL), 200);
    cr_expect_eq(status_of(h.port, "GET", "/engines", NULL, NULL), 200);
    cr_expect_eq(status_of(h.admin_port, "GET", "/metrics", NULL, NULL), 200);
    cr_expect(kvr_test_wait_file_contains(h.log_path, "admin_on_client_port", 5000),
              "no warning logged");
}

/* A 401 in OpenAI's shape: error.type invalid_request_error, error.code invalid_api_key. */
static void expect_invalid_key(const char *method, const char *path, const char *headers,
                               const char *body)
{
    char *resp = NULL;
    int status = kvr_test_http(h.port, method, path, headers, body, &resp, 5000);
    cr_expect_eq(status, 401, "%s %s with %s", method, path, headers ? headers : "no header");
    cJSON *doc = resp ? cJSON_Parse(kvr_test_http_body(resp)) : NULL;
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(doc, "error");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(err, "type");
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(err, "message");
    cr_expect(cJSON_IsString(type) && strcmp(type->valuestring, "invalid_request_error") == 0, "%s",
              resp);
    cr_expect(cJSON_IsString(code) && strcmp(code->valuestring, "invalid_api_key") == 0, "%s",
              resp);
    cr_expect(cJSON_IsString(msg) && msg->valuestring[0], "%s", resp);
    cr_expect(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(err, "param")), "%s", resp);
    char v[64];
    cr_expect_not_null(kvr_harness_header(resp, "WWW-Authenticate", v, sizeof v));
    cJSON_Delete(doc);
    free(resp);
}

Test(client_port, api_keys_refuse_with_openai_401_and_count_good_keys)
{
    write_keys("# test keys\nalice sha256:" ALICE "\n");
    const char *extra[] = {"--api-keys-file", keys_path, NULL};
    kvr_harness_start(&h, 1, extra);
    expect_invalid_key("POST", "/v1/chat/completions", NULL, chat);
    expect_invalid_key("POST", "/v1/chat/completions", "Authorization: Bearer sk-bob\r\n", chat);
    expect_invalid_key("POST", "/v1/chat/completions", "Authorization: Basic sk-alice\r\n", chat);
    expect_invalid_key("POST", "/v1/chat/completions", "Authorization: Bearer " ALICE "\r\n", chat);
    expect_invalid_key("POST", "/v1/completions", NULL, "{\"model\":\"m\",\"prompt\":\"x\"}");
    expect_invalid_key("POST", "/generate", NULL, "{\"text\":\"x\"}");
    expect_invalid_key("GET", "/v1/models", NULL, NULL);
    expect_invalid_key("GET", "/v1/nothing-here", NULL, NULL);
    cr_expect_eq(kvr_fake_requests(h.fleet, 0), 0, "a refused request reached the engine");
    cr_expect_eq(status_of(h.port, "GET", "/health", NULL, NULL), 200, "health needs no key");
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_api_key_requests_total{key=\"alice\"}"), 0);

    for (int i = 0; i < 3; i++)
        cr_expect_eq(status_of(h.port, "POST", "/v1/chat/completions",
                               "Authorization: Bearer sk-alice\r\n", chat),
                     200);
    cr_expect_eq(kvr_fake_requests(h.fleet, 0), 3);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_api_key_requests_total{key=\"alice\"}"), 3);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_requests_total{status=\"401\"}"), 8);
    cr_expect_not(kvr_test_file_contains(h.log_path, "sk-alice"), "the key was logged");
}

Test(client_port, sighup_reloads_the_keys_and_a_bad_file_keeps_them)
{
    write_keys("alice sha256:" ALICE "\n");
    const char *extra[] = {"--api-keys-file", keys_path, NULL};
    kvr_harness_start(&h, 1, extra);
    cr_assert_eq(status_of(h.port, "POST", "/v1/chat/completions",
                           "Authorization: Bearer sk-alice\r\n", chat),
                 200);

    write_keys("bob sha256:" BOB "\n");
    kill(h.pid, SIGHUP);
    cr_assert(kvr_harness_wait_metric(&h, "kvroute_api_key_requests_total{key=\"bob\"}", 0, 10000),
              "bob's key never came in; see %s", h.log_path);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_api_key_requests_total{key=\"alice\"}"), -1,
                 "alice's counter outlived her key");
    cr_expect_eq(status_of(h.port, "POST", "/v1/chat/completions",
                           "Authorization: Bearer sk-alice\r\n", chat),
                 401);
    cr_expect_eq(
        status_of(h.port, "POST", "/v1/chat/completions", "Authorization: Bearer sk-bob\r\n", chat),
        200);

    write_keys("bob sha256:" BOB "\nthis line is wrong\n");
    kill(h.pid, SIGHUP);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "api_keys_load_failed", 10000),
              "no error logged");
    cr_expect(kvr_test_file_contains(h.log_path, "line 2"), "the error does not say where");
    cr_expect_eq(
        status_of(h.port, "POST", "/v1/chat/completions", "Authorization: Bearer sk-bob\r\n", chat),
        200, "a bad file dropped the keys in force");
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_api_key_requests_total{key=\"bob\"}"), 2);
    cr_expect(kvr_test_alive(h.pid));
}

/* ---- an engine that keeps the headers of the last POST it was sent ---- */

typedef struct capture_s {
    int fd;
    uint16_t port;
    pthread_t thread;
    atomic_bool stop;
    pthread_mutex_t lock;
    char last_post[4096]; /* the request head, lower-cased */
    unsigned posts;
} capture_t;

static void *capture_run(void *arg)
{
    capture_t *c = arg;
    while (!atomic_load(&c->stop)) {
        struct pollfd p = {.fd = c->fd, .events = POLLIN};
        if (poll(&p, 1, 100) <= 0)
            continue;
        int conn = accept(c->fd, NULL, NULL);
        if (conn < 0)
            continue;
        char buf[8192];
        size_t len = 0;
        char *end = NULL;
        while (len < sizeof buf - 1 && !end) {
            struct pollfd q = {.fd = conn, .events = POLLIN};
            if (poll(&q, 1, 5000) <= 0)
                break;
            ssize_t n = read(conn, buf + len, sizeof buf - 1 - len);
            if (n <= 0)
                break;
            len += (size_t)n;
            buf[len] = '\0';
            end = strstr(buf, "\r\n\r\n");
        }
        if (end) {
            size_t head = (size_t)(end - buf) + 4;
            const char *cl = strcasestr(buf, "\r\ncontent-length:");
            size_t want = cl && cl < end ? (size_t)strtoul(cl + 17, NULL, 10) : 0;
            while (len - head < want && len < sizeof buf - 1) {
                ssize_t n = read(conn, buf + len, sizeof buf - 1 - len);
                if (n <= 0)
                    break;
                len += (size_t)n;
            }
            if (strncmp(buf, "POST ", 5) == 0) {
                pthread_mutex_lock(&c->lock);
                size_t n = head < sizeof c->last_post - 1 ? head : sizeof c->last_post - 1;
                for (size_t i = 0; i < n; i++)
                    c->last_post[i] = (char)((buf[i] >= 'A' && buf[i] <= 'Z') ? buf[i] + 32
                                                                              : buf[i]);
                c->last_post[n] = '\0';
                c->posts++;
                pthread_mutex_unlock(&c->lock);
            }
            static const char answer[] =
                "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[]}";
            char out[256];
            int n = snprintf(
                out, sizeof out,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
                "Connection: close\r\n\r\n%s",
                sizeof answer - 1, answer);
            ssize_t w = write(conn, out, (size_t)n);
            (void)w;
        }
        close(conn);
    }
    return NULL;
}

static void capture_start(capture_t *c)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    c->port = kvr_test_free_port();
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(c->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(c->port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(bind(c->fd, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert_eq(listen(c->fd, 64), 0);
    cr_assert_eq(pthread_create(&c->thread, NULL, capture_run, c), 0);
}

static void capture_stop(capture_t *c)
{
    atomic_store(&c->stop, true);
    pthread_join(c->thread, NULL);
    close(c->fd);
    pthread_mutex_destroy(&c->lock);
}

/* kvroute in front of the capture engine, with no flag of the harness's: the defaults as they are. */
static pid_t start_plain(const capture_t *c, uint16_t port, uint16_t admin_port, const char *more,
                         char *log_path, size_t log_cap)
{
    char listen[32], admin[32], engine[64];
    snprintf(listen, sizeof listen, "127.0.0.1:%u", port);
    snprintf(admin, sizeof admin, "127.0.0.1:%u", admin_port);
    snprintf(engine, sizeof engine, "http://127.0.0.1:%u", c->port);
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE"),
                    "--listen",
                    listen,
                    "--admin-listen",
                    admin,
                    "--es",
                    "0",
                    "--health-interval-ms",
                    "0",
                    "--engine",
                    engine,
                    "--log-level",
                    "warn",
                    (char *)more,
                    NULL};
    kvr_test_unique_name(log_path, (unsigned)log_cap, "/tmp/kvroute-test-log");
    pid_t pid = kvr_test_spawn(argv, log_path);
    cr_assert_gt(pid, 0);
    cr_assert(kvr_test_wait_port(port, 5000), "kvroute did not listen; see %s", log_path);
    return pid;
}

static void last_post(capture_t *c, char *out, size_t cap)
{
    pthread_mutex_lock(&c->lock);
    snprintf(out, cap, "%s", c->last_post);
    pthread_mutex_unlock(&c->lock);
}

Test(client_port, the_engine_never_sees_the_client_key_and_no_engine_header_by_default)
{
    capture_t cap;
    capture_start(&cap);
    uint16_t port = kvr_test_free_port(), admin = kvr_test_free_port();
    char log_path[128];
    pid_t pid = start_plain(&cap, port, admin, NULL, log_path, sizeof log_path);
    char *resp = NULL;
    cr_expect_eq(kvr_test_http(port, "POST", "/v1/chat/completions",
                               "Authorization: Bearer sk-alice\r\nX-Fake: kept\r\n", chat, &resp,
                               5000),
                 200);
    char v[128];
    cr_expect_null(kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v),
                   "the engine header is on");
    free(resp);
    char head[4096];
    last_post(&cap, head, sizeof head);
    cr_expect(strstr(head, "x-fake: kept") != NULL, "headers were not forwarded: %s", head);
    cr_expect(strstr(head, "authorization") == NULL, "the engine saw the client's key: %s", head);
    kvr_test_stop(pid, SIGTERM, 5000);
    unlink(log_path);
    capture_stop(&cap);
}

Test(client_port, forward_authorization_and_engine_header_on_request)
{
    capture_t cap;
    capture_start(&cap);
    uint16_t port = kvr_test_free_port(), admin = kvr_test_free_port();
    char log_path[128];
    pid_t pid = start_plain(&cap, port, admin, "--forward-authorization", log_path,
                            sizeof log_path);
    cr_expect_eq(
        status_of(port, "POST", "/v1/chat/completions", "Authorization: Bearer sk-alice\r\n", chat),
        200);
    char head[4096];
    last_post(&cap, head, sizeof head);
    cr_expect(strstr(head, "authorization: bearer sk-alice") != NULL, "not forwarded: %s", head);
    kvr_test_stop(pid, SIGTERM, 5000);
    unlink(log_path);

    port = kvr_test_free_port();
    admin = kvr_test_free_port();
    pid = start_plain(&cap, port, admin, "--engine-header", log_path, sizeof log_path);
    char *resp = NULL;
    cr_expect_eq(kvr_test_http(port, "POST", "/v1/chat/completions", NULL, chat, &resp, 5000), 200);
    char v[128], want[64];
    snprintf(want, sizeof want, "http://127.0.0.1:%u", cap.port);
    cr_expect_not_null(kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v));
    cr_expect_str_eq(v, want);
    free(resp);
    kvr_test_stop(pid, SIGTERM, 5000);
    unlink(log_path);
    capture_stop(&cap);
}

Test(client_port, admin_listen_on_the_client_address_is_refused)
{
    uint16_t port = kvr_test_free_port();
    char listen[32], log_path[128];
    snprintf(listen, sizeof listen, "127.0.0.1:%u", port);
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE"),
                    "--listen",
                    listen,
                    "--admin-listen",
                    listen,
                    "--es",
                    "0",
                    NULL};
    kvr_test_unique_name(log_path, sizeof log_path, "/tmp/kvroute-test-log");
    pid_t pid = kvr_test_spawn(argv, log_path);
    int status = kvr_test_wait_exit(pid, 5000);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 2, "status %d", status);
    cr_expect(kvr_test_file_contains(log_path, "admin-listen"), "no reason given");
    unlink(log_path);
}
