/* SPDX-License-Identifier: Apache-2.0 */
/* SIGHUP names each setting of --config it does not apply, instead of keeping it silently,
 * and counts each reading in kvroute_config_reloads_total{result}. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "router_harness.h"
#include "tests/support/proc.h"

static void write_file(const char *path, const char *body)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(body, f);
    fclose(f);
}

/* Occurrences of needle in the file at path. */
static int count_in_file(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[2048];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

static bool two_reloads(void *arg)
{
    return count_in_file(arg, "reloaded config=") >= 2;
}

Test(reload, changed_policy_is_refused_by_name, .timeout = 60.)
{
    char conf[128];
    kvr_test_unique_name(conf, sizeof conf, "/tmp/kvroute-test-reload-ignored");
    write_file(conf, "policy sticky\nretries 2\n");
    const char *extra[] = {"--config", conf, "--log-level", "info", NULL};
    kvr_harness_t h;
    kvr_harness_start(&h, 0, extra);

    /* The same file again: nothing to refuse. */
    kill(h.pid, SIGHUP);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "reloaded config=", 5000));
    cr_expect_eq(count_in_file(h.log_path, "reload_ignored"), 0, "an unchanged file refused");

    write_file(conf, "policy round_robin\nretries 2\n");
    kill(h.pid, SIGHUP);
    cr_assert(kvr_test_wait_until(two_reloads, h.log_path, 5000));
    cr_expect_eq(
        count_in_file(h.log_path, "reload_ignored setting=policy hint=\"restart to change it\""),
        1);
    cr_expect_eq(count_in_file(h.log_path, "reload_ignored"), 1, "only policy changed");
    cr_expect(kvr_harness_wait_metric(&h, "kvroute_config_reloads_total{result=\"ok\"}", 1, 5000));
    cr_expect(
        kvr_harness_wait_metric(&h, "kvroute_config_reloads_total{result=\"partial\"}", 1, 5000));

    /* A file that does not read changes nothing, and is counted as such. */
    write_file(conf, "policy round_robin\nretries 99\n");
    kill(h.pid, SIGHUP);
    cr_expect(
        kvr_harness_wait_metric(&h, "kvroute_config_reloads_total{result=\"failed\"}", 1, 5000));
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_config_reloads_total{result=\"ok\"}"), 1);
    kvr_harness_stop(&h);
    unlink(conf);
}
