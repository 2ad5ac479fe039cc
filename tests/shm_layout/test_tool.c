/* SPDX-License-Identifier: Apache-2.0 */
/* kvroute-shm as an operator uses it: against a live segment and broken ones. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "shm_layout/shm_layout.h"
#include "tests/support/proc.h"

/* Runs kvroute-shm with args; returns its exit code, output in *out (caller frees). */
static int run_tool(char **out, const char *a1, const char *a2, const char *a3)
{
    char log[128];
    kvr_test_unique_name(log, sizeof log, "/tmp/kvr-test-tool");
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_SHM"), (char *)a1, (char *)a2, (char *)a3,
                    NULL};
    pid_t pid = kvr_test_spawn(argv, log);
    cr_assert_gt(pid, 0);
    int status = kvr_test_stop(pid, 0, 10000); /* signal 0: just wait for it */
    FILE *f = fopen(log, "r");
    cr_assert_not_null(f);
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    unlink(log);
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A string member, or "" when it is absent or not a string. */
static const char *str_of(const cJSON *o, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    return s ? s : "";
}

Test(kvroute_shm, dump_json_shows_what_the_writer_published, .timeout = 20.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-tool");
    kvr_shm_t w;
    cr_assert_eq(kvr_shm_create(&w, name, 4), 0);
    int idx = kvr_shm_add_engine(&w, "http://127.0.0.1:30000");
    kvr_engine_state_t s;
    kvr_shm_writer_state(&w, (uint32_t)idx, &s);
    uint64_t now = kvr_clock_now_ns();
    s.sample_time_ns = now;
    s.sample_seq = 7;
    s.flags |= KVR_SLOT_HEALTHY | KVR_SLOT_HAS_PENDING_PREFILL;
    s.flags = kvr_slot_with_source(s.flags, KVR_SOURCE_PUSH);
    s.running = 12;
    s.waiting = 3;
    s.max_running = 64;
    s.pending_prefill_tokens = 4096;
    kvr_shm_write_slot(&w, (uint32_t)idx, &s);
    kvr_shm_heartbeat(&w, now);

    char *out;
    cr_assert_eq(run_tool(&out, "dump", name, "--json"), 0, "%s", out);
    cJSON *root = cJSON_Parse(out);
    cr_assert_not_null(root, "not JSON: %s", out);
    cr_expect_str_eq(str_of(root, "writer"), "live");
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "engines"), 0);
    cr_assert_not_null(e);
    cr_expect_str_eq(str_of(e, "engine"), "http://127.0.0.1:30000");
    /* cJSON_GetNumberValue is NaN for a missing or non-number member: never equal. */
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "running")), 12);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "waiting")), 3);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "max_running")), 64);
    cr_expect_eq(
        cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "pending_prefill_tokens")), 4096);
    cr_expect_str_eq(str_of(e, "source"), "push");
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "healthy")));
    cJSON_Delete(root);
    free(out);

    cr_assert_eq(run_tool(&out, "dump", name, NULL), 0);
    cr_expect_not_null(strstr(out, "http://127.0.0.1:30000"), "table lists the engine: %s", out);
    free(out);
    kvr_shm_close(&w);
    kvr_shm_unlink(name);
}

/* Writes a header-shaped object with one defect and checks the tool's one-line refusal. */
static void expect_refusal(void (*spoil)(kvr_shm_header_t *, size_t *), const char *words)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-tool-bad");
    size_t len = KVR_SHM_HEADER_SIZE + 2 * (size_t)KVR_SHM_SLOT_SIZE;
    kvr_shm_header_t *h = calloc(1, len);
    h->magic = KVR_SHM_MAGIC;
    h->abi_major = KVR_SHM_ABI_MAJOR;
    h->header_size = KVR_SHM_HEADER_SIZE;
    h->slot_size = KVR_SHM_SLOT_SIZE;
    h->capacity = 2;
    spoil(h, &len);
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, h, len), (ssize_t)len);
    close(fd);
    free(h);
    char *out;
    int code = run_tool(&out, "dump", name, NULL);
    shm_unlink(name);
    cr_expect_eq(code, 1, "exit code for '%s'", words);
    cr_expect_not_null(strstr(out, words), "expected '%s' in: %s", words, out);
    cr_expect_eq(strchr(out, '\n'), out + strlen(out) - 1, "one line: %s", out);
    free(out);
}

static void bad_magic(kvr_shm_header_t *h, size_t *len)
{
    (void)len;
    h->magic = 42;
}
static void other_major(kvr_shm_header_t *h, size_t *len)
{
    (void)len;
    h->abi_major = 2;
}
static void truncated(kvr_shm_header_t *h, size_t *len)
{
    (void)h;
    *len = 40;
}

Test(kvroute_shm, broken_segments_get_one_clear_line_and_exit_1, .timeout = 20.)
{
    expect_refusal(bad_magic, "bad magic");
    expect_refusal(other_major, "ABI major");
    expect_refusal(truncated, "smaller than the segment header");
    char *out;
    cr_expect_eq(run_tool(&out, "dump", "/kvr-test-no-such-segment", NULL), 1);
    cr_expect_not_null(strstr(out, "no such segment"), "%s", out);
    free(out);
    cr_expect_eq(run_tool(&out, "frobnicate", "/x", NULL), 2);
    free(out);
}

/* True once path holds text (the tool has drawn at least once). */
static bool log_has(const char *path, const char *text, unsigned timeout_ms)
{
    for (unsigned waited = 0; waited <= timeout_ms; waited += 10) {
        FILE *f = fopen(path, "r");
        if (f != NULL) {
            char buf[1 << 14];
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            buf[n] = '\0';
            fclose(f);
            if (strstr(buf, text) != NULL)
                return true;
        }
        kvr_test_sleep_ms(10);
    }
    return false;
}

Test(kvroute_shm, watch_survives_its_segment_being_truncated, .timeout = 20.)
{
    char name[64], log[128];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-tool-watch");
    kvr_test_unique_name(log, sizeof log, "/tmp/kvr-test-tool-watch");
    kvr_shm_t w;
    cr_assert_eq(kvr_shm_create(&w, name, 64), 0);
    cr_assert_geq(kvr_shm_add_engine(&w, "http://127.0.0.1:30001"), 0);
    char *argv[] = {
        (char *)kvr_test_bin("KVR_BIN_KVROUTE_SHM"), "watch", name, "--interval-ms", "10", NULL};
    pid_t pid = kvr_test_spawn(argv, log);
    cr_assert_gt(pid, 0);
    cr_assert(log_has(log, "http://127.0.0.1:30001", 5000), "watch never drew the table");
    int fd = shm_open(name, O_RDWR, 0);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, 0), 0);
    close(fd);
    /* Reading the slots of a shrunk object is SIGBUS; the tool must say so and stop instead. */
    cr_assert(log_has(log, "smaller than the segment header", 5000),
              "no clear line after truncation");
    int status = kvr_test_stop(pid, 0, 5000);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status %d", status);
    unlink(log);
    kvr_shm_close(&w);
    kvr_shm_unlink(name);
}

Test(kvroute_shm, a_squatted_name_is_refused_with_the_fix, .timeout = 20.)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to give the object another owner");
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-tool-squat");
    kvr_shm_t w;
    cr_assert_eq(kvr_shm_create(&w, name, 2), 0);
    cr_assert_eq(fchown(w.fd, 65534, (gid_t)-1), 0);
    kvr_shm_close(&w);
    char *out;
    cr_expect_eq(run_tool(&out, "dump", name, NULL), 1);
    char want[128];
    snprintf(want, sizeof want, "remove /dev/shm%s, owned by uid 65534", name);
    cr_expect_not_null(strstr(out, want), "%s", out);
    free(out);
    cr_expect_eq(run_tool(&out, "create", name, "--capacity=2"), 1);
    cr_expect_not_null(strstr(out, want), "%s", out);
    free(out);
    kvr_shm_unlink(name);
}

Test(kvroute_shm, hostile_slot_contents_print_as_plain_text, .timeout = 20.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-tool-hostile");
    kvr_shm_t w;
    cr_assert_eq(kvr_shm_create(&w, name, 2), 0);
    int idx = kvr_shm_add_engine(&w, "http://x\033]0;owned\007");
    cr_assert_geq(idx, 0);
    kvr_engine_state_t s;
    kvr_shm_writer_state(&w, (uint32_t)idx, &s);
    s.flags |= KVR_SLOT_HEALTHY;
    s.sample_seq = 1;
    s.sample_time_ns = UINT64_MAX;
    s.running = UINT32_MAX;
    s.kv_usage = -1e308;
    kvr_shm_write_slot(&w, (uint32_t)idx, &s);
    char *out;
    cr_expect_eq(run_tool(&out, "dump", name, NULL), 0, "%s", out);
    cr_expect_null(strchr(out, '\033'), "a terminal escape reached the output");
    cr_expect_not_null(strstr(out, "http://x?]0;owned?"), "%s", out);
    free(out);
    cr_expect_eq(run_tool(&out, "dump", name, "--json"), 0);
    cJSON *root = cJSON_Parse(out);
    cr_expect_not_null(root, "not JSON: %s", out);
    cJSON_Delete(root);
    free(out);
    kvr_shm_close(&w);
    kvr_shm_unlink(name);
}
