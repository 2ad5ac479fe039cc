/* SPDX-License-Identifier: Apache-2.0 */
/* --decision-log under logrotate: rename the file, SIGHUP, new lines land in a new file. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "router_harness.h"
#include "tests/support/proc.h"

static const char chat[] =
    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hello there\"}]}";

/* Lines in path (0 when it cannot be read). */
static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static void post_one(const kvr_harness_t *h)
{
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h->port, "POST", "/v1/chat/completions", NULL, chat, &resp, 5000),
                 200, "%s", resp ? resp : "(no answer)");
    free(resp);
}

Test(decision_log, sighup_reopens_after_rename, .timeout = 60.)
{
    char path[128], rotated[160];
    kvr_test_unique_name(path, sizeof path, "/tmp/kvroute-test-decision-reopen");
    snprintf(rotated, sizeof rotated, "%s.1", path);
    const char *extra[] = {"--decision-log", path, "--log-level", "info", NULL};
    kvr_harness_t h;
    kvr_harness_start(&h, 1, extra);

    post_one(&h);
    cr_assert(kvr_test_wait_file_contains(path, "\"request_id\"", 5000), "first record");
    cr_assert_eq(rename(path, rotated), 0);
    kill(h.pid, SIGHUP);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "decision_log_reopened", 5000),
              "no decision_log_reopened line");
    post_one(&h);
    cr_expect(kvr_test_wait_file_contains(path, "\"request_id\"", 5000),
              "the record after SIGHUP is not in a new file at the path");
    cr_expect_eq(count_lines(path), 1);
    cr_expect_eq(count_lines(rotated), 1, "the rotated file got the later record too");

    /* A path that cannot be opened any more keeps the open file in use, and the router serving. */
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(mkdir(path, 0700), 0); /* fopen(path, "a") now fails with EISDIR */
    kill(h.pid, SIGHUP);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "decision_log_reopen_failed", 5000));
    post_one(&h);
    cr_expect(kvr_test_alive(h.pid));
    kvr_harness_stop(&h);
    rmdir(path);
    unlink(rotated);
}
