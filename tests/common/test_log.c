/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"

/* The test's stderr becomes a small pipe that nobody reads until the test says so. */
static int stall_stderr(void)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    fcntl(p[0], F_SETPIPE_SZ, 4096);
    cr_assert_geq(dup2(p[1], STDERR_FILENO), 0);
    close(p[1]);
    return p[0];
}

/* Reads the pipe into out (cap bytes, NUL-terminated) until needle shows up; false after ~5 s. */
static bool drain_until(int fd, char *out, size_t cap, const char *needle)
{
    size_t len = 0;
    for (int i = 0; i < 100; i++) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, 50) <= 0)
            continue;
        if (len + 1 >= cap) /* keep the tail */
            len = 0;
        ssize_t n = read(fd, out + len, cap - len - 1);
        if (n <= 0)
            return false;
        len += (size_t)n;
        out[len] = '\0';
        if (strstr(out, needle))
            return true;
    }
    return false;
}

Test(log, a_stalled_stderr_drops_and_counts_lines_and_says_so_later, .timeout = 20.)
{
    kvr_log_init("test", KVR_LOG_INFO);
    int fd = stall_stderr();
    char pad[201];
    memset(pad, 'p', 200);
    pad[200] = '\0';
    /* ~2,000 lines of 250 bytes: far more than the ring and the pipe hold. Every call returns. */
    for (int i = 0; i < 2000; i++)
        KVR_INFO("filler n=%d pad=%s", i, pad);
    cr_expect_gt(kvr_log_dropped_total(), 0);
    static char seen[1 << 17];
    cr_expect(drain_until(fd, seen, sizeof seen, "log_dropped lines="), "the loss was never said");
    /* After the notice, lines flow again, whole. */
    KVR_INFO("after_drain marker=1");
    cr_expect(drain_until(fd, seen, sizeof seen, "test info after_drain marker=1\n"));
    close(fd);
}

Test(log, lines_reach_stderr_whole_and_in_order, .timeout = 20.)
{
    kvr_log_init("test", KVR_LOG_INFO);
    int fd = stall_stderr();
    for (int i = 0; i < 10; i++)
        KVR_WARN("ordered n=%d", i);
    cr_assert(kvr_log_flush(5000));
    static char seen[1 << 16];
    cr_assert(drain_until(fd, seen, sizeof seen, "ordered n=9\n"));
    const char *at = seen;
    for (int i = 0; i < 10; i++) {
        char want[32];
        snprintf(want, sizeof want, " test warn ordered n=%d\n", i);
        const char *hit = strstr(at, want);
        cr_assert_not_null(hit, "line %d missing or out of order", i);
        at = hit + strlen(want);
    }
    cr_expect_eq(kvr_log_dropped_total(), 0);
    close(fd);
}
