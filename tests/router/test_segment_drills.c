/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fault drills on the segment with the real processes on loopback: kvroute
 * (ES=1) reading what a real kvroute-statefeed writes, while the test
 * truncates the object, writes random bytes over it, replaces it, squats
 * its name as another user, or SIGKILLs the writer. The router keeps
 * answering every request on shadow counters (counted), neither process
 * crashes, and the feed comes back once the writer has restored it.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm_layout/shm_layout.h"
#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define WAIT_MS 8000u

static kvr_harness_t h;
static char seg_name[64];
static char feed_log[128];
static uint16_t feed_port;
static pid_t feed_pid;

static const char chat[] = "{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}";

static void start_feed(void)
{
    static char urls[2][64], listen[32];
    for (int i = 0; i < 2; i++)
        snprintf(urls[i], sizeof urls[i], "http://127.0.0.1:%u", kvr_fake_port(h.fleet, i));
    feed_port = kvr_test_free_port();
    snprintf(listen, sizeof listen, "127.0.0.1:%u", feed_port);
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_STATEFEED"),
                    "--shm",
                    seg_name,
                    "--period-ms",
                    "20",
                    "--capacity",
                    "8",
                    "--listen",
                    listen,
                    "--engine",
                    urls[0],
                    "--engine",
                    urls[1],
                    NULL};
    feed_pid = kvr_test_spawn(argv, feed_log);
    cr_assert_gt(feed_pid, 0);
}

static void setup(void)
{
    kvr_test_unique_name(seg_name, sizeof seg_name, "/kvr-test-drill");
    kvr_test_unique_name(feed_log, sizeof feed_log, "/tmp/kvr-test-drill-feed");
    const char *extra[] = {"--es", "1",           "--shm", seg_name, "--max-age-ms",
                           "1000", "--log-level", "info",  NULL};
    kvr_harness_start(&h, 2, extra);
    start_feed();
}

static void teardown(void)
{
    bool feed_clean = true;
    if (feed_pid > 0) {
        kill(feed_pid, SIGCONT);
        int status = kvr_test_stop(feed_pid, SIGTERM, 5000);
        feed_clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        cr_expect(feed_clean, "statefeed exited with status %d; its log is kept at %s", status,
                  feed_log);
    }
    feed_pid = 0;
    kvr_harness_stop(&h);
    kvr_shm_unlink(seg_name);
    if (feed_clean)
        unlink(feed_log);
}

TestSuite(segment_drill, .init = setup, .fini = teardown, .timeout = 60.);

/* The feed state /engines reports for engine 0, into out. */
static const char *engine_feed(char *out, size_t size)
{
    snprintf(out, size, "?");
    char *resp = NULL;
    if (kvr_test_http(h.admin_port, "GET", "/engines", NULL, NULL, &resp, 2000) != 200) {
        free(resp);
        return out;
    }
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "engines"), 0);
    const char *feed = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "feed"));
    if (feed != NULL)
        snprintf(out, size, "%s", feed);
    cJSON_Delete(doc);
    return out;
}

/* Polls /engines until engine 0's feed is (want) or is not (!want) state. */
static bool wait_feed(const char *state, bool want)
{
    char now[32];
    for (unsigned waited = 0; waited <= WAIT_MS; waited += 20) {
        if ((strcmp(engine_feed(now, sizeof now), state) == 0) == want)
            return true;
        kvr_test_sleep_ms(20);
    }
    return false;
}

/* Polls /metrics until sample reaches at least value. */
static bool wait_metric(const char *sample, double value)
{
    for (unsigned waited = 0; waited <= WAIT_MS; waited += 20) {
        if (kvr_harness_metric(&h, sample) >= value)
            return true;
        kvr_test_sleep_ms(20);
    }
    return false;
}

/* One sample of statefeed's own /metrics, -1 when absent. */
static double feed_metric(const char *sample)
{
    char *resp = NULL;
    double v = -1;
    char line[128];
    snprintf(line, sizeof line, "\n%s ", sample); /* the sample, not its # HELP line */
    if (kvr_test_http(feed_port, "GET", "/metrics", NULL, NULL, &resp, 2000) == 200) {
        const char *p = strstr(kvr_test_http_body(resp), line);
        if (p != NULL)
            v = strtod(p + strlen(line), NULL);
    }
    free(resp);
    return v;
}

static bool wait_feed_metric(const char *sample, double value)
{
    for (unsigned waited = 0; waited <= WAIT_MS; waited += 20) {
        if (feed_metric(sample) >= value)
            return true;
        kvr_test_sleep_ms(20);
    }
    return false;
}

/* Lines of path that contain text. */
static int count_lines(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, text) != NULL;
    fclose(f);
    return n;
}

static bool wait_log(const char *path, const char *text)
{
    for (unsigned waited = 0; waited <= WAIT_MS; waited += 20) {
        if (count_lines(path, text) > 0)
            return true;
        kvr_test_sleep_ms(20);
    }
    return false;
}

/* Every request answered 200, on shadow counters while the feed is away. */
static void expect_requests_served(int n)
{
    for (int i = 0; i < n; i++) {
        char *resp = NULL;
        int status = kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 3000);
        cr_expect_eq(status, 200, "request %d during the drill: %d", i, status);
        free(resp);
    }
    cr_expect(kvr_test_alive(h.pid), "kvroute died; see %s", h.log_path);
}

/* The drill's start: the feed is live, then the writer is held still so the router meets the damage first. */
static void fresh_then_hold_writer(void)
{
    cr_assert(wait_feed("fresh", true), "the feed never became fresh; see %s and %s", h.log_path,
              feed_log);
    cr_assert_eq(kill(feed_pid, SIGSTOP), 0);
}

/* The writer resumes: it restores the segment and the router uses it again. */
static void release_writer_and_expect_recovery(void)
{
    cr_assert_eq(kill(feed_pid, SIGCONT), 0);
    cr_expect(wait_feed_metric("kvroute_statefeed_segment_repairs_total", 1),
              "statefeed never repaired; see %s", feed_log);
    cr_expect(wait_feed("fresh", true), "the router never used the restored segment; see %s",
              h.log_path);
    cr_expect(kvr_test_alive(feed_pid), "statefeed died; see %s", feed_log);
    expect_requests_served(3);
}

static int tamper_fd(void)
{
    int fd = shm_open(seg_name, O_RDWR, 0);
    cr_assert_geq(fd, 0, "shm_open %s: %s", seg_name, strerror(errno));
    return fd;
}

Test(segment_drill, truncated_while_serving)
{
    fresh_then_hold_writer();
    int fd = tamper_fd();
    cr_assert_eq(ftruncate(fd, 0), 0);
    close(fd);
    expect_requests_served(9);
    cr_expect(wait_metric("kvroute_feed_segment_changes_total", 1), "the change was not counted");
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_feed_reads_total{state=\"no_segment\"}"), 0);
    cr_expect_eq(count_lines(h.log_path, "feed_changed"), 1, "one log line for the change");
    release_writer_and_expect_recovery();
}

Test(segment_drill, overwritten_with_random_bytes_while_serving)
{
    fresh_then_hold_writer();
    int fd = tamper_fd();
    struct stat st;
    cr_assert_eq(fstat(fd, &st), 0);
    unsigned char *junk = malloc((size_t)st.st_size);
    srand(5);
    for (off_t i = 0; i < st.st_size; i++)
        junk[i] = (unsigned char)rand();
    cr_assert_eq(pwrite(fd, junk, (size_t)st.st_size, 0), st.st_size);
    free(junk);
    close(fd);
    expect_requests_served(9);
    cr_expect(wait_metric("kvroute_feed_segment_changes_total", 1));
    cr_expect(wait_feed("fresh", false));
    release_writer_and_expect_recovery();
}

Test(segment_drill, replaced_by_another_file_while_serving)
{
    fresh_then_hold_writer();
    cr_assert_eq(kvr_shm_unlink(seg_name), 0);
    int fd = shm_open(seg_name, O_RDWR | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd, 0);
    char junk[8192];
    memset(junk, 0x5a, sizeof junk);
    cr_assert_eq(write(fd, junk, sizeof junk), (ssize_t)sizeof junk);
    close(fd);
    expect_requests_served(9);
    cr_expect(wait_metric("kvroute_feed_segment_changes_total", 1),
              "the replacement was not noticed");
    cr_expect(wait_feed("no_segment", true), "the junk file was used");
    release_writer_and_expect_recovery();
}

/* Another user's object at the name: a live-looking header, writer pid 1, slots of its choosing. */
static void plant_squatter(void)
{
    kvr_shm_t w;
    char other[64];
    kvr_test_unique_name(other, sizeof other, "/kvr-test-drill-bait");
    cr_assert_eq(kvr_shm_create(&w, other, 8), 0);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u", kvr_fake_port(h.fleet, 0));
    int slot = kvr_shm_add_engine(&w, url);
    kvr_engine_state_t st;
    kvr_shm_writer_state(&w, (uint32_t)slot, &st);
    st.flags |= KVR_SLOT_HEALTHY;
    st.sample_time_ns = UINT64_MAX; /* "age 0" forever to a reader that clamps */
    kvr_shm_write_slot(&w, (uint32_t)slot, &st);
    atomic_store(&w.header->writer_pid, 1);
    atomic_store(&w.header->heartbeat_ns, UINT64_MAX);
    cr_assert_eq(kvr_shm_unlink(seg_name), 0);
    char from[128], to[128];
    snprintf(from, sizeof from, "/dev/shm%s", other);
    snprintf(to, sizeof to, "/dev/shm%s", seg_name);
    cr_assert_eq(fchown(w.fd, 65534, (gid_t)-1), 0, "fchown: %s", strerror(errno));
    cr_assert_eq(fchmod(w.fd, 0644), 0);
    cr_assert_eq(rename(from, to), 0, "rename: %s", strerror(errno));
    kvr_shm_close(&w);
}

Test(segment_drill, squatted_by_another_user_while_serving)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to give the object another owner");
    fresh_then_hold_writer();
    plant_squatter();
    expect_requests_served(9);
    /* The name is looked up again at most every 250 ms: wait for that, then decide on it. */
    cr_expect(wait_feed("segment_rejected", true), "the squatter's numbers were used");
    expect_requests_served(3);
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_feed_reads_total{state=\"segment_rejected\"}"),
                  3);
    char fix[128];
    snprintf(fix, sizeof fix, "remove /dev/shm%s, owned by uid 65534", seg_name);
    cr_expect_eq(count_lines(h.log_path, fix), 1, "the router says once what to do");
    /* The writer will not write into another user's object either, and says the same. */
    cr_assert_eq(kill(feed_pid, SIGCONT), 0);
    cr_expect(wait_log(feed_log, fix), "statefeed did not name the fix; see %s", feed_log);
    cr_expect(kvr_test_alive(feed_pid));
    /* The operator removes it: the writer puts its segment back and the router follows. */
    cr_assert_eq(kvr_shm_unlink(seg_name), 0);
    cr_expect(wait_feed("fresh", true), "the router never came back to the writer's segment");
    cr_expect_eq(count_lines(feed_log, fix), 1, "statefeed says it once");
}

Test(segment_drill, statefeed_killed_and_restarted)
{
    cr_assert(wait_feed("fresh", true), "the feed never became fresh; see %s", feed_log);
    double opens = kvr_harness_metric(&h, "kvroute_feed_opens_total");
    cr_assert_eq(kill(feed_pid, SIGKILL), 0);
    waitpid(feed_pid, NULL, 0);
    feed_pid = 0;
    cr_expect(wait_feed("writer_stale", true), "a dead writer's heartbeat must go stale");
    expect_requests_served(5);
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_feed_reads_total{state=\"writer_stale\"}"), 0);
    start_feed();
    cr_expect(wait_feed("fresh", true),
              "the router never used the restarted writer's segment; see %s", h.log_path);
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_feed_opens_total"), opens,
                 "it re-opened the new object");
    expect_requests_served(3);
}

Test(segment_drill, statefeed_refuses_a_squatted_name_at_start)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to give the object another owner");
    cr_assert(wait_feed("fresh", true));
    kvr_test_stop(feed_pid, SIGTERM, 5000);
    feed_pid = 0;
    unlink(feed_log);
    /* The name now holds another user's object that claims a live writer (pid 1 is always alive). */
    plant_squatter();
    start_feed();
    int status = kvr_test_stop(feed_pid, 0, 5000); /* signal 0: wait for it to give up */
    feed_pid = 0;
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) != 0,
              "statefeed started on a squatted name");
    char fix[128];
    snprintf(fix, sizeof fix, "remove /dev/shm%s, owned by uid 65534", seg_name);
    cr_expect_eq(count_lines(feed_log, fix), 1, "statefeed names the fix; see %s", feed_log);
    cr_expect(wait_feed("segment_rejected", true));
    expect_requests_served(3);
    unlink(feed_log);
}
