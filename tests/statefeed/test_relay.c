/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The relay against hostile and faulty peers, with real statefeed processes
 * on loopback: a peer that sends garbage is dropped (one log line, one
 * count) and the next one's tables are imported; the export binds loopback
 * unless told otherwise and, with a secret, serves only peers that prove
 * it; a peer's table storm is held to its engine and change limits.
 */
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "statefeed/relay_wire.h"
#include "tests/statefeed/feed_harness.h"
#include "tests/support/fake_engine.h"
#include "tests/support/proc.h"

/* ---- helpers ---------------------------------------------------------------- */

static int listen_loopback(uint16_t *port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    cr_assert_eq(listen(fd, 4), 0);
    socklen_t len = sizeof(a);
    getsockname(fd, (struct sockaddr *)&a, &len);
    *port = ntohs(a.sin_port);
    return fd;
}

static int accept_within(int lfd, unsigned timeout_ms)
{
    struct pollfd p = {.fd = lfd, .events = POLLIN};
    if (poll(&p, 1, (int)timeout_ms) != 1)
        return -1;
    return accept(lfd, NULL, NULL);
}

/* Reads until the peer closes; the bytes read, or -1 when it stays open past timeout_ms. */
static ssize_t read_until_closed(int fd, uint8_t *buf, size_t cap, unsigned timeout_ms)
{
    size_t got = 0;
    uint64_t end = kvr_clock_now_ns() + (uint64_t)timeout_ms * KVR_NS_PER_MS;
    for (;;) {
        uint64_t now = kvr_clock_now_ns();
        if (now >= end)
            return -1;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)((end - now) / KVR_NS_PER_MS) + 1) != 1)
            continue;
        uint8_t scratch[4096];
        ssize_t n = recv(fd, got < cap ? buf + got : scratch,
                         got < cap ? cap - got : sizeof(scratch), 0);
        if (n <= 0)
            return (ssize_t)got;
        if (got < cap)
            got += (size_t)n;
    }
}

/* Reads exactly len bytes; false on close or timeout. */
static bool read_exact(int fd, uint8_t *buf, size_t len, unsigned timeout_ms)
{
    size_t got = 0;
    while (got < len) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)timeout_ms) != 1)
            return false;
        ssize_t n = recv(fd, buf + got, len - got, 0);
        if (n <= 0)
            return false;
        got += (size_t)n;
    }
    return true;
}

static unsigned count_in_file(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    char line[2048];
    unsigned n = 0;
    while (fgets(line, sizeof(line), f) != NULL)
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

static bool wait_log(const char *path, const char *needle, unsigned count, unsigned timeout_ms)
{
    uint64_t end = kvr_clock_now_ns() + (uint64_t)timeout_ms * KVR_NS_PER_MS;
    while (kvr_clock_now_ns() < end) {
        if (count_in_file(path, needle) >= count)
            return true;
        kvr_test_sleep_ms(10);
    }
    return false;
}

/* The value of the first sample whose line starts with prefix on port's /metrics; -1 when absent. */
static double metric(uint16_t port, const char *prefix)
{
    char *resp = NULL;
    double v = -1;
    if (kvr_test_http(port, "GET", "/metrics", NULL, NULL, &resp, 3000) == 200) {
        for (const char *p = resp; p != NULL && *p;
             p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
            if (strncmp(p, prefix, strlen(prefix)) == 0) {
                const char *sp = strchr(p, ' ');
                if (sp != NULL)
                    v = strtod(sp + 1, NULL);
                break;
            }
        }
    }
    free(resp);
    return v;
}

static bool wait_metric_at_least(uint16_t port, const char *prefix, double want,
                                 unsigned timeout_ms)
{
    uint64_t end = kvr_clock_now_ns() + (uint64_t)timeout_ms * KVR_NS_PER_MS;
    while (kvr_clock_now_ns() < end) {
        if (metric(port, prefix) >= want)
            return true;
        kvr_test_sleep_ms(20);
    }
    return false;
}

static void page(char *out, size_t cap, unsigned running)
{
    snprintf(out, cap,
             "vllm:num_requests_running %u\nvllm:num_requests_waiting 2\n"
             "vllm:kv_cache_usage_perc 0.25\n",
             running);
}

static void write_file(char *path_template, const char *text)
{
    int fd = mkstemp(path_template);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* ---- a relay v2 peer played by the test ------------------------------------ */

/* Sends the challenge, takes the importer's hello and welcomes it (mac: the
 * exporter's proof, or NULL); false when the importer does not answer. */
static bool peer_handshake_with(int fd, const char *secret)
{
    uint8_t nonce[KVR_RELAY_NONCE_LEN] = {1, 2, 3}, frame[KVR_RELAY_HEADER + KVR_RELAY_HELLO_MAX];
    int len = kvr__relay_handshake_encode(nonce, NULL, frame, sizeof(frame));
    if (len < 0 || send(fd, frame, (size_t)len, MSG_NOSIGNAL) != len)
        return false;
    uint32_t n = 0;
    kvr__relay_handshake_t hello;
    if (!read_exact(fd, frame, KVR_RELAY_HEADER, 3000) ||
        kvr__relay_frame_length(frame, KVR_RELAY_HELLO_MAX, &n) != 0 ||
        !read_exact(fd, frame + KVR_RELAY_HEADER, n, 3000) ||
        kvr__relay_handshake_decode(frame + KVR_RELAY_HEADER, n, &hello, NULL) != 0 ||
        !hello.has_nonce)
        return false;
    uint8_t mac[KVR_RELAY_MAC_LEN];
    if (secret != NULL)
        kvr__relay_mac(secret, strlen(secret), KVR_RELAY_ROLE_EXPORTER, hello.nonce, mac);
    len = kvr__relay_handshake_encode(NULL, secret ? mac : NULL, frame, sizeof(frame));
    return len > 0 && send(fd, frame, (size_t)len, MSG_NOSIGNAL) == len;
}

static bool peer_handshake(int fd)
{
    return peer_handshake_with(fd, NULL);
}

/* A table of count engines named "http://storm-<round>-<i>:1", every one sampled and healthy. */
static void storm_table(msgpack_sbuffer *sb, unsigned round, unsigned count)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    kvr__relay_table_begin(&pk, sb, count);
    for (unsigned i = 0; i < count; i++) {
        kvr_state_frame_t f;
        memset(&f, 0, sizeof(f));
        f.version = KVR_STATE_FRAME_VERSION;
        snprintf(f.state.engine_id, sizeof(f.state.engine_id), "http://storm-%u-%u:1", round, i);
        f.state.running = 1;
        kvr__relay_table_add(&pk, &f, 1000, true, true);
    }
    cr_assert_eq(kvr__relay_table_end(sb), 0);
}

typedef struct storm_s {
    int lfd;
    unsigned tables, engines;
    atomic_bool done;
    atomic_uint sent;
} storm_t;

/* Accepts one importer and sends it tables whose engines all change every time. */
static void *storm_peer(void *arg)
{
    storm_t *st = arg;
    int fd = accept_within(st->lfd, 5000);
    if (fd >= 0 && peer_handshake(fd)) {
        for (unsigned k = 0; k < st->tables; k++) {
            msgpack_sbuffer sb;
            storm_table(&sb, k % 2, st->engines);
            bool ok = send(fd, sb.data, sb.size, MSG_NOSIGNAL) == (ssize_t)sb.size;
            msgpack_sbuffer_destroy(&sb);
            if (!ok)
                break;
            atomic_fetch_add(&st->sent, 1);
            kvr_test_sleep_ms(10); /* the storm's pace: 100 tables a second */
        }
    }
    atomic_store(&st->done, true);
    if (fd >= 0)
        close(fd);
    return NULL;
}

/* ---- tests ------------------------------------------------------------------- */

Test(relay, garbage_peer_dropped_then_valid_tables_imported, .timeout = 60.)
{
    uint16_t port, mport = kvr_test_free_port();
    int lfd = listen_loopback(&port);
    char imp[48], listen[32];
    snprintf(imp, sizeof(imp), "tcp:127.0.0.1:%u", port);
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", mport);
    feed_proc_t b;
    const char *args_b[] = {"--import", imp, "--listen", listen, "--backoff-max-ms", "200", NULL};
    cr_assert(feed_start(&b, args_b), "importer did not start; log in %s", b.log_path);

    /* Peer 1: bytes that are no protocol at all. */
    int fd = accept_within(lfd, 5000);
    cr_assert_geq(fd, 0, "importer never connected");
    uint8_t junk[64];
    memset(junk, 0xc1, sizeof(junk));
    cr_assert_eq(send(fd, junk, sizeof(junk), MSG_NOSIGNAL), (ssize_t)sizeof(junk));
    uint8_t buf[512];
    cr_expect_geq(read_until_closed(fd, buf, sizeof(buf), 5000), 0,
                  "the importer kept a garbage stream");
    close(fd);
    /* Peer 2: a proper handshake, then a frame whose body announces 2^32 elements. */
    fd = accept_within(lfd, 5000);
    cr_assert_geq(fd, 0, "importer never reconnected");
    cr_expect(peer_handshake(fd), "importer did not answer the challenge");
    const uint8_t hostile[] = {0, 0, 0, 5, 0xdd, 0xff, 0xff, 0xff, 0xff};
    send(fd, hostile, sizeof(hostile), MSG_NOSIGNAL);
    cr_expect_geq(read_until_closed(fd, buf, sizeof(buf), 5000), 0,
                  "the importer kept a hostile stream");
    close(fd);
    close(lfd);

    /* The real exporter takes the port (a bare port: loopback). */
    kvr_fake_fleet_t *r = kvr_fake_start(1);
    char url[64], body[128], exp[32];
    page(body, sizeof(body), 17);
    kvr_fake_set_bodies(r, 0, body, NULL);
    feed_url(url, sizeof(url), kvr_fake_port(r, 0));
    snprintf(exp, sizeof(exp), "tcp:%u", port);
    feed_proc_t a;
    const char *args_a[] = {"--engine", url, "--export", exp, NULL};
    cr_assert(feed_start(&a, args_a), "exporter did not start; log in %s", a.log_path);
    uint32_t want = 17;
    kvr_engine_state_t s;
    cr_assert(feed_wait(&b, url, feed_pred_running, &want, 10000, &s),
              "valid tables after garbage were never imported; log in %s", b.log_path);
    cr_expect_eq(kvr_slot_source(s.flags), KVR_SOURCE_RELAY);

    /* The segment as any reader sees it: kvroute-shm dump --json. */
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "%s dump %s --json", kvr_test_bin("KVR_BIN_KVROUTE_SHM"),
             b.shm_name);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    static char out[1 << 16];
    size_t n = fread(out, 1, sizeof(out) - 1, p);
    out[n] = '\0';
    cr_expect_eq(pclose(p), 0);
    cJSON *root = cJSON_Parse(out);
    cr_assert_not_null(root, "dump is not JSON: %s", out);
    cJSON *engines = cJSON_GetObjectItem(root, "engines");
    cr_assert_eq(cJSON_GetArraySize(engines), 1, "%s", out);
    cJSON *e = cJSON_GetArrayItem(engines, 0);
    cr_expect_str_eq(cJSON_GetObjectItem(e, "engine")->valuestring, url);
    cr_expect_str_eq(cJSON_GetObjectItem(e, "source")->valuestring, "relay");
    cr_expect_eq(cJSON_GetObjectItem(e, "running")->valueint, 17);
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(e, "healthy")));
    cJSON_Delete(root);

    /* Each bad peer cost one log line and one count, nothing else. */
    char line[128];
    snprintf(line, sizeof(line), "kvroute_statefeed_import_rejected_total{addr=\"%s\"}", imp);
    cr_expect_eq(metric(mport, line), 2.0);
    cr_expect_eq(count_in_file(b.log_path, "import_stream_rejected"), 2, "log in %s", b.log_path);
    cr_expect(kvr_test_alive(b.pid));
    feed_stop(&a);
    int st = feed_stop(&b);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    kvr_fake_stop(r);
}

/* The local address of the listening TCP socket on port, as /proc/net/tcp prints it; 0 when none. */
/* The local address bound to port in /proc/net/tcp (listening) or /proc/net/udp. */
static bool bound_address(const char *table, uint16_t port, char *out, size_t cap)
{
    FILE *f = fopen(table, "r");
    if (f == NULL)
        return false;
    char line[512], want[8];
    snprintf(want, sizeof(want), ":%04X", port);
    bool found = false;
    while (!found && fgets(line, sizeof(line), f) != NULL) {
        char local[64], remote[64], state[8];
        if (sscanf(line, "%*s %63s %63s %7s", local, remote, state) != 3)
            continue;
        char *colon = strchr(local, ':');
        bool tcp = strcmp(table, "/proc/net/tcp") == 0;
        if (colon != NULL && strcmp(colon, want) == 0 && (!tcp || strcmp(state, "0A") == 0)) {
            *colon = '\0';
            snprintf(out, cap, "%s", local);
            found = true;
        }
    }
    fclose(f);
    return found;
}

static bool listening_address(uint16_t port, char *out, size_t cap)
{
    return bound_address("/proc/net/tcp", port, out, cap);
}

Test(relay, export_binds_loopback_unless_told, .timeout = 30.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(1);
    char url[64], body[128];
    page(body, sizeof(body), 3);
    kvr_fake_set_bodies(r, 0, body, NULL);
    feed_url(url, sizeof(url), kvr_fake_port(r, 0));
    uint16_t port = kvr_test_free_port();
    char exp[32], addr[64];
    snprintf(exp, sizeof(exp), "tcp:%u", port);
    feed_proc_t a;
    const char *args[] = {"--engine", url, "--export", exp, NULL};
    cr_assert(feed_start(&a, args), "exporter did not start; log in %s", a.log_path);
    cr_assert(kvr_test_wait_port(port, 3000));
    cr_assert(listening_address(port, addr, sizeof(addr)), "no listener on %u", port);
    cr_expect_str_eq(addr, "0100007F", "a bare --export port must bind 127.0.0.1, bound %s", addr);
    cr_expect_eq(count_in_file(a.log_path, "export_unauthenticated"), 0);
    feed_stop(&a);

    /* All addresses on request, with a warning while no secret guards them. */
    port = kvr_test_free_port();
    snprintf(exp, sizeof(exp), "tcp:0.0.0.0:%u", port);
    const char *args_all[] = {"--engine", url, "--export", exp, NULL};
    cr_assert(feed_start(&a, args_all), "exporter did not start; log in %s", a.log_path);
    cr_assert(kvr_test_wait_port(port, 3000));
    cr_assert(listening_address(port, addr, sizeof(addr)));
    cr_expect_str_eq(addr, "00000000");
    cr_expect(wait_log(a.log_path, "export_unauthenticated", 1, 3000), "no warning; log in %s",
              a.log_path);
    feed_stop(&a);
    kvr_fake_stop(r);
}

Test(relay, push_udp_binds_loopback_unless_told, .timeout = 30.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(1);
    char url[64], body[128];
    page(body, sizeof(body), 3);
    kvr_fake_set_bodies(r, 0, body, NULL);
    feed_url(url, sizeof(url), kvr_fake_port(r, 0));
    uint16_t port = kvr_test_free_port();
    char udp[32], addr[64];
    snprintf(udp, sizeof(udp), ":%u", port);
    feed_proc_t a;
    const char *args[] = {"--engine", url, "--push-udp", udp, NULL};
    cr_assert(feed_start(&a, args), "statefeed did not start; log in %s", a.log_path);
    cr_assert(wait_log(a.log_path, "push_listening", 1, 5000), "no push socket; log in %s",
              a.log_path);
    cr_assert(bound_address("/proc/net/udp", port, addr, sizeof(addr)), "nothing bound to udp %u",
              port);
    cr_expect_str_eq(addr, "0100007F", "a bare --push-udp port must bind 127.0.0.1, bound %s",
                     addr);
    cr_expect_eq(count_in_file(a.log_path, "push_udp_unauthenticated"), 0);
    feed_stop(&a);

    port = kvr_test_free_port();
    snprintf(udp, sizeof(udp), "0.0.0.0:%u", port);
    const char *args_all[] = {"--engine", url, "--push-udp", udp, NULL};
    cr_assert(feed_start(&a, args_all), "statefeed did not start; log in %s", a.log_path);
    cr_assert(wait_log(a.log_path, "push_listening", 1, 5000), "no push socket; log in %s",
              a.log_path);
    cr_assert(bound_address("/proc/net/udp", port, addr, sizeof(addr)));
    cr_expect_str_eq(addr, "00000000");
    cr_expect_eq(count_in_file(a.log_path, "push_udp_unauthenticated"), 1, "no warning; log in %s",
                 a.log_path);
    feed_stop(&a);
    kvr_fake_stop(r);
}

Test(relay, secret_gates_the_export, .timeout = 60.)
{
    char good[] = "/tmp/kvr-relay-good-XXXXXX", bad[] = "/tmp/kvr-relay-bad-XXXXXX";
    write_file(good, "correct horse battery staple\n");
    write_file(bad, "correct horse battery stapler\n");
    kvr_fake_fleet_t *r = kvr_fake_start(1);
    char url[64], body[128];
    page(body, sizeof(body), 29);
    kvr_fake_set_bodies(r, 0, body, NULL);
    feed_url(url, sizeof(url), kvr_fake_port(r, 0));
    uint16_t port = kvr_test_free_port(), mport = kvr_test_free_port();
    char exp[32], imp[48], listen[32];
    snprintf(exp, sizeof(exp), "tcp:127.0.0.1:%u", port);
    snprintf(imp, sizeof(imp), "tcp:127.0.0.1:%u", port);
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", mport);
    feed_proc_t a, ok, wrong, none;
    const char *args_a[] = {"--engine", url,        "--export", exp, "--relay-secret-file",
                            good,       "--listen", listen,     NULL};
    cr_assert(feed_start(&a, args_a), "exporter did not start; log in %s", a.log_path);
    cr_assert(kvr_test_wait_port(port, 3000));

    const char *args_ok[] = {"--import", imp, "--relay-secret-file", good, NULL};
    cr_assert(feed_start(&ok, args_ok));
    uint32_t want = 29;
    cr_assert(feed_wait(&ok, url, feed_pred_running, &want, 5000, NULL),
              "the secret holder got nothing; log in %s", ok.log_path);

    const char *args_wrong[] = {"--import", imp, "--relay-secret-file", bad, NULL};
    cr_assert(feed_start(&wrong, args_wrong));
    cr_assert(wait_log(a.log_path, "hmac does not match", 1, 5000),
              "wrong secret not refused; log in %s", a.log_path);
    cr_expect_eq(wrong.shm.header->engines_in_use, 0, "a wrong secret got the table");
    feed_stop(&wrong);
    double refused = metric(mport, "kvroute_statefeed_export_refused_total");
    cr_assert_geq(refused, 1);
    const char *args_none[] = {"--import", imp, NULL};
    cr_assert(feed_start(&none, args_none));
    cr_assert(
        wait_metric_at_least(mport, "kvroute_statefeed_export_refused_total", refused + 1, 5000),
        "missing secret not refused; log in %s", a.log_path);
    /* Refused importers retry; none of their connections carried a table. */
    cr_expect_eq(none.shm.header->engines_in_use, 0, "no secret got the table");
    cr_expect(wait_log(none.log_path, "does --relay-secret-file match", 1, 5000), "log in %s",
              none.log_path);

    /* A raw client that never says hello gets the challenge, then is closed: no table bytes. */
    int fd = kvr_test_connect(port);
    cr_assert_geq(fd, 0, "connect to the export: %s", strerror(errno));
    uint8_t buf[4096];
    ssize_t got = read_until_closed(fd, buf, sizeof(buf), 5000);
    close(fd);
    cr_assert_gt(got, KVR_RELAY_HEADER,
                 "the export closed a silent client without a challenge or kept it");
    uint32_t n = 0;
    kvr__relay_handshake_t challenge;
    cr_assert_eq(kvr__relay_frame_length(buf, KVR_RELAY_HELLO_MAX, &n), 0);
    cr_expect_eq(kvr__relay_handshake_decode(buf + KVR_RELAY_HEADER, n, &challenge, NULL), 0);
    cr_expect(challenge.has_nonce);
    cr_expect_eq((size_t)got, KVR_RELAY_HEADER + n,
                 "table bytes reached an unauthenticated client");

    feed_stop(&none);
    feed_stop(&ok);
    feed_stop(&a);
    kvr_fake_stop(r);
    unlink(good);
    unlink(bad);
}

Test(relay, table_storm_is_held_to_engine_and_change_limits, .timeout = 60.)
{
    storm_t st = {.tables = 150, .engines = 400};
    uint16_t port, mport = kvr_test_free_port();
    st.lfd = listen_loopback(&port);
    pthread_t t;
    pthread_create(&t, NULL, storm_peer, &st);
    char imp[48], listen[32];
    snprintf(imp, sizeof(imp), "tcp:127.0.0.1:%u", port);
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", mport);
    feed_proc_t b;
    /* The defaults under test: --relay-max-engines 64, --relay-max-changes 16. */
    const char *args[] = {"--import", imp, "--listen", listen, "--capacity", "512", NULL};
    cr_assert(feed_start(&b, args), "importer did not start; log in %s", b.log_path);
    uint64_t gen0 = kvr_shm_generation(&b.shm);
    uint64_t start = 0;
    uint32_t most = 0;
    while (!atomic_load(&st.done)) {
        if (start == 0 && atomic_load(&st.sent) > 0)
            start = kvr_clock_now_ns();
        uint32_t in_use = atomic_load(&b.shm.header->engines_in_use);
        most = in_use > most ? in_use : most;
        kvr_test_sleep_ms(5);
    }
    pthread_join(t, NULL);
    cr_assert_gt(atomic_load(&st.sent), 10, "the storm never reached the importer");
    double seconds = (double)(kvr_clock_now_ns() - start) / 1e9;
    uint64_t bumps = kvr_shm_generation(&b.shm) - gen0;
    cr_expect_gt(most, 0, "the first table should land");
    cr_expect_leq(most, 64, "one peer took %u slots past --relay-max-engines 64", most);
    /* 64 for the first table, then 16 a second (one second of slack for the edges). */
    double bound = 64 + 16 * (seconds + 1);
    cr_log_info(
        "storm: %u tables of 400 engines in %.2f s: %llu generation bumps, at most %u slots",
        atomic_load(&st.sent), seconds, (unsigned long long)bumps, most);
    cr_expect_leq((double)bumps, bound, "%llu generation bumps in %.2f s (bound %.0f)",
                  (unsigned long long)bumps, seconds, bound);
    char line[160];
    snprintf(line, sizeof(line), "kvroute_statefeed_import_engines_refused_total{addr=\"%s\"}",
             imp);
    cr_expect_gt(metric(mport, line), 0, "entries past the limit were not counted");
    snprintf(line, sizeof(line), "kvroute_statefeed_import_changes_deferred_total{addr=\"%s\"}",
             imp);
    cr_expect_gt(metric(mport, line), 0, "deferred changes were not counted");
    cr_expect_eq(count_in_file(b.log_path, "import_engines_over_limit"), 1, "log in %s",
                 b.log_path);
    cr_expect(kvr_test_alive(b.pid));
    feed_stop(&b);
    close(st.lfd);
}

Test(relay, subscriber_that_stops_reading_loses_its_slot, .timeout = 60.)
{
    /* Tables of 200 long engine ids (about 50 KB) fill the socket buffers within seconds. */
    char conf[] = "/tmp/kvr-relay-conf-XXXXXX";
    static char text[200 * 160];
    size_t off = 0;
    for (unsigned i = 0; i < 200; i++)
        off += (size_t)snprintf(text + off, sizeof(text) - off,
                                "engine http://e%050u.x%050u:1,kind=push\n", i, i);
    write_file(conf, text);
    uint16_t port = kvr_test_free_port(), mport = kvr_test_free_port();
    char exp[32], listen[32];
    snprintf(exp, sizeof(exp), "tcp:%u", port);
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", mport);
    feed_proc_t a;
    const char *args[] = {"--config", conf, "--export", exp, "--listen", listen, NULL};
    cr_assert(feed_start(&a, args), "exporter did not start; log in %s", a.log_path);
    cr_assert(kvr_test_wait_port(port, 3000));

    /* Its own connect: the small receive buffer must be set before the handshake. */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int small = 4096;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
    struct sockaddr_in sa = {
        .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    uint8_t frame[KVR_RELAY_HEADER + KVR_RELAY_HELLO_MAX];
    uint32_t n = 0;
    cr_assert(read_exact(fd, frame, KVR_RELAY_HEADER, 3000));
    cr_assert_eq(kvr__relay_frame_length(frame, KVR_RELAY_HELLO_MAX, &n), 0);
    cr_assert(read_exact(fd, frame + KVR_RELAY_HEADER, n, 3000));
    uint8_t nonce[KVR_RELAY_NONCE_LEN] = {9};
    int len = kvr__relay_handshake_encode(nonce, NULL, frame, sizeof(frame));
    cr_assert_eq(send(fd, frame, (size_t)len, MSG_NOSIGNAL), len);
    cr_assert(wait_metric_at_least(mport, "kvroute_statefeed_export_subscribers", 1, 3000),
              "hello not accepted");
    /* Now it reads nothing: the export must give the slot back, not wait forever. */
    cr_expect(wait_log(a.log_path, "export_subscriber_gone", 1, 30000),
              "a stuck subscriber kept its slot; log in %s", a.log_path);
    cr_expect_eq(metric(mport, "kvroute_statefeed_export_subscribers"), 0);
    close(fd);
    feed_stop(&a);
    unlink(conf);
}

/* Accepts importers and welcomes each without proving the secret, then offers a table. */
static void *impostor_peer(void *arg)
{
    storm_t *st = arg;
    for (unsigned k = 0; k < st->tables; k++) {
        int fd = accept_within(st->lfd, 5000);
        if (fd < 0)
            break;
        if (peer_handshake_with(fd, k % 2 ? "a guess" : NULL)) {
            msgpack_sbuffer sb;
            storm_table(&sb, 0, 1);
            send(fd, sb.data, sb.size, MSG_NOSIGNAL);
            msgpack_sbuffer_destroy(&sb);
            atomic_fetch_add(&st->sent, 1);
        }
        uint8_t buf[64];
        read_until_closed(fd, buf, sizeof(buf), 3000);
        close(fd);
    }
    atomic_store(&st->done, true);
    return NULL;
}

Test(relay, importer_with_secret_refuses_an_exporter_without_it, .timeout = 60.)
{
    char good[] = "/tmp/kvr-relay-good-XXXXXX";
    write_file(good, "correct horse battery staple\n");
    storm_t st = {.tables = 2};
    uint16_t port;
    st.lfd = listen_loopback(&port);
    pthread_t t;
    pthread_create(&t, NULL, impostor_peer, &st);
    char imp[48];
    snprintf(imp, sizeof(imp), "tcp:127.0.0.1:%u", port);
    feed_proc_t b;
    const char *args[] = {"--import", imp, "--relay-secret-file", good, "--backoff-max-ms",
                          "200",      NULL};
    cr_assert(feed_start(&b, args), "importer did not start; log in %s", b.log_path);
    pthread_join(t, NULL);
    cr_assert_eq(atomic_load(&st.sent), 2, "the importer did not get as far as the welcome");
    cr_expect(wait_log(b.log_path, "did not prove the shared secret", 2, 5000), "log in %s",
              b.log_path);
    cr_expect_eq(b.shm.header->engines_in_use, 0, "an impostor's table was imported");
    feed_stop(&b);
    close(st.lfd);
    unlink(good);
}

typedef struct steady_s {
    int lfd;
    unsigned engines;
    atomic_bool stop;
} steady_t;

/* Accepts one importer and sends it the same table of st->engines engines every 50 ms. */
static void *steady_peer(void *arg)
{
    steady_t *st = arg;
    int fd = accept_within(st->lfd, 10000);
    if (fd >= 0 && peer_handshake(fd)) {
        msgpack_sbuffer sb;
        storm_table(&sb, 0, st->engines);
        while (!atomic_load(&st->stop) &&
               send(fd, sb.data, sb.size, MSG_NOSIGNAL) == (ssize_t)sb.size)
            kvr_test_sleep_ms(50);
        msgpack_sbuffer_destroy(&sb);
    }
    if (fd >= 0)
        close(fd);
    return NULL;
}

static bool engines_in_use_reach(void *arg)
{
    const feed_proc_t *f = arg;
    return __atomic_load_n(&f->shm.header->engines_in_use, __ATOMIC_ACQUIRE) >= 5000;
}

/*
 * A fleet past the 1,024 and 4,096 engines older relays were held to crosses two statefeeds:
 * a peer gives statefeed A 5,000 engines, A exports them, statefeed B imports them all.
 */
Test(relay, five_thousand_engines_cross_two_statefeeds, .timeout = 90.)
{
    steady_t st = {.engines = 5000};
    uint16_t port, aport = kvr_test_free_port(), mport = kvr_test_free_port();
    st.lfd = listen_loopback(&port);
    pthread_t t;
    pthread_create(&t, NULL, steady_peer, &st);
    char imp_a[48], exp_a[32], imp_b[48], listen_b[32];
    snprintf(imp_a, sizeof(imp_a), "tcp:127.0.0.1:%u", port);
    snprintf(exp_a, sizeof(exp_a), "tcp:127.0.0.1:%u", aport);
    snprintf(imp_b, sizeof(imp_b), "tcp:127.0.0.1:%u", aport);
    snprintf(listen_b, sizeof(listen_b), "127.0.0.1:%u", mport);
    feed_proc_t a, b;
    const char *args_a[] = {
        "--import", imp_a,         "--export", exp_a, "--capacity", "8192", "--relay-max-engines",
        "8192",     "--period-ms", "250",      NULL};
    cr_assert(feed_start(&a, args_a), "statefeed A did not start; log in %s", a.log_path);
    const char *args_b[] = {"--import", imp_b, "--listen", listen_b, "--capacity", "8192",
                            "--relay-max-engines", "8192", "--backoff-max-ms", "200",
                            /* 5 s to hear from A: taking in 5,000 engines is slow under ASan */
                            "--period-ms", "250", NULL};
    cr_assert(feed_start(&b, args_b), "statefeed B did not start; log in %s", b.log_path);
    cr_assert(kvr_test_wait_until(engines_in_use_reach, &a, 30000),
              "A holds %u of the peer's 5000 engines; log in %s",
              __atomic_load_n(&a.shm.header->engines_in_use, __ATOMIC_ACQUIRE), a.log_path);
    cr_assert(kvr_test_wait_until(engines_in_use_reach, &b, 30000),
              "B imported %u of A's 5000 engines; log in %s",
              __atomic_load_n(&b.shm.header->engines_in_use, __ATOMIC_ACQUIRE), b.log_path);
    uint32_t want = 1;
    kvr_engine_state_t s;
    cr_expect(feed_wait(&b, "http://storm-0-4999:1", feed_pred_running, &want, 10000, &s),
              "the last engine's state did not cross; log in %s", b.log_path);
    cr_expect_eq(count_in_file(a.log_path, "export_table_too_large"), 0, "log in %s", a.log_path);
    char line[160];
    snprintf(line, sizeof(line), "kvroute_statefeed_import_engines_refused_total{addr=\"%s\"}",
             imp_b);
    cr_expect_eq(metric(mport, line), 0, "B refused entries of A's table");
    atomic_store(&st.stop, true);
    pthread_join(t, NULL);
    close(st.lfd);
    feed_stop(&b);
    feed_stop(&a);
}

/* A peer's table larger than the segment: the slots fill, the rest are refused, logged and counted. */
Test(relay, engines_past_the_capacity_are_refused_and_counted, .timeout = 60.)
{
    steady_t st = {.engines = 12};
    uint16_t port, mport = kvr_test_free_port();
    st.lfd = listen_loopback(&port);
    pthread_t t;
    pthread_create(&t, NULL, steady_peer, &st);
    char imp[48], listen[32];
    snprintf(imp, sizeof(imp), "tcp:127.0.0.1:%u", port);
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", mport);
    feed_proc_t b;
    const char *args[] = {"--import", imp, "--listen", listen, "--capacity", "8", NULL};
    cr_assert(feed_start(&b, args), "importer did not start; log in %s", b.log_path);
    cr_assert(
        wait_metric_at_least(mport, "kvroute_statefeed_engines_over_capacity_total", 4, 20000),
        "no engine counted past the capacity; log in %s", b.log_path);
    cr_expect_eq(__atomic_load_n(&b.shm.header->engines_in_use, __ATOMIC_ACQUIRE), 8);
    cr_expect(wait_log(b.log_path, "slots of the segment are taken: raise --capacity", 1, 5000),
              "the log does not say what to raise; log in %s", b.log_path);
    cr_expect_eq(count_in_file(b.log_path, "raise --capacity"), 1,
                 "every table's refusals are logged again; log in %s", b.log_path);
    atomic_store(&st.stop, true);
    pthread_join(t, NULL);
    close(st.lfd);
    feed_stop(&b);
}
