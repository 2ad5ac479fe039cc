/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-statefeed under a container's seccomp filter (kvr-seccomp-run
 * builds it from a runtime's JSON profile). Without the io_uring calls, as
 * runtimes' default profiles have it, ring init fails with ENOSYS or EPERM
 * and the log names io_uring, seccomp and the profile to run with; under
 * deploy/seccomp/kvroute-statefeed.json the daemon starts and polls.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/statefeed/feed_harness.h"
#include "tests/support/fake_engine.h"
#include "tests/support/proc.h"

static void profile_path(char *out, size_t cap)
{
    const char *src = getenv("KVR_SOURCE_DIR");
    cr_assert_not_null(src);
    snprintf(out, cap, "%s/deploy/seccomp/kvroute-statefeed.json", src);
}

ParameterizedTestParameters(feed_seccomp, default_profile_names_io_uring_and_the_profile)
{
    static int errnos[] = {ENOSYS, EPERM};
    return cr_make_param_array(int, errnos, sizeof errnos / sizeof errnos[0]);
}

ParameterizedTest(int *err, feed_seccomp, default_profile_names_io_uring_and_the_profile,
                  .timeout = 30.)
{
    char profile[512], errno_text[8], shm[64], log_path[160];
    profile_path(profile, sizeof profile);
    snprintf(errno_text, sizeof errno_text, "%d", *err);
    kvr_test_unique_name(shm, sizeof shm, "/kvr-feedtest-seccomp");
    kvr_test_unique_name(log_path, sizeof log_path, "/tmp/kvr-feedtest-seccomp-log");
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_KVR_SECCOMP_RUN"),
                    profile,
                    "--drop",
                    "io_uring_setup",
                    "--drop",
                    "io_uring_enter",
                    "--drop",
                    "io_uring_register",
                    "--default-errno",
                    errno_text,
                    "--",
                    (char *)kvr_test_bin("KVR_BIN_KVROUTE_STATEFEED"),
                    "--shm",
                    shm,
                    "--engine",
                    "http://127.0.0.1:9",
                    NULL};
    pid_t pid = kvr_test_spawn(argv, log_path);
    cr_assert_gt(pid, 0);
    int status = kvr_test_wait_exit(pid, 20000);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) != 0, "statefeed ran without io_uring: %d",
              status);
    cr_expect(kvr_test_file_contains(log_path, "ring_init_failed reason="), "see %s", log_path);
    cr_expect(kvr_test_file_contains(log_path, strerror(*err)), "see %s", log_path);
    cr_expect(kvr_test_file_contains(log_path, "io_uring_setup was refused"), "see %s", log_path);
    cr_expect(kvr_test_file_contains(log_path, "seccomp profile"), "see %s", log_path);
    cr_expect(kvr_test_file_contains(log_path, "deploy/seccomp/kvroute-statefeed.json"), "see %s",
              log_path);
    cr_expect(
        kvr_test_file_contains(log_path, "io_uring_setup, io_uring_enter and io_uring_register"),
        "see %s", log_path);
    unlink(log_path);
}

Test(feed_seccomp, shipped_profile_runs_the_daemon, .timeout = 60.)
{
    char profile[512];
    profile_path(profile, sizeof profile);
    kvr_fake_fleet_t *fleet = kvr_fake_start(1);
    char url[64];
    feed_url(url, sizeof url, kvr_fake_port(fleet, 0));
    /*
     * LeakSanitizer's exit check ptraces the process, which the profile
     * refuses as runtimes' defaults do: under ASan it is off for this run
     * only (the other statefeed suites check leaks without a filter).
     */
    char asan[512];
    const char *prev = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "%s%sdetect_leaks=0", prev ? prev : "", prev ? ":" : "");
    setenv("ASAN_OPTIONS", asan, 1);
    const char *wrap[] = {kvr_test_bin("KVR_BIN_KVR_SECCOMP_RUN"), profile, "--"};
    const char *args[] = {"--engine", url, NULL};
    feed_proc_t feed;
    cr_assert(feed_start_wrapped(&feed, wrap, 3, args), "statefeed did not start; see %s",
              feed.log_path);
    kvr_engine_state_t st;
    cr_expect(feed_wait(&feed, url, feed_pred_healthy, NULL, 10000, &st),
              "the engine was never polled; see %s", feed.log_path);
    int status = feed_stop(&feed);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "statefeed exited with %d; see %s",
              status, feed.log_path);
    kvr_fake_stop(fleet);
}
