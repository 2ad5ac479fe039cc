/* SPDX-License-Identifier: Apache-2.0 */
/* kvroute --check-config FILE: the router's own parser on the file, a verdict, no socket. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/proc.h"

typedef struct {
    char dir[128];
    char path[192];
} scratch_t;

static void scratch_init(scratch_t *s, const char *body)
{
    kvr_test_unique_name(s->dir, sizeof s->dir, "/tmp/kvr-test-check-config");
    cr_assert_eq(mkdir(s->dir, 0700), 0);
    snprintf(s->path, sizeof s->path, "%s/kvroute.conf", s->dir);
    FILE *f = fopen(s->path, "w");
    cr_assert_not_null(f);
    fputs(body, f);
    fclose(f);
}

static void scratch_close(scratch_t *s)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    cr_expect_eq(system(cmd), 0);
}

/* Runs kvroute with args (NULL-terminated); exit status, stdout + stderr in out (caller frees). */
static int run_kvroute(const char *const *args, char **out)
{
    char log[128];
    kvr_test_unique_name(log, sizeof log, "/tmp/kvr-test-check-config-out");
    char *argv[8] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE")};
    int argc = 1;
    for (int i = 0; args[i] && argc < 7; i++)
        argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    pid_t pid = kvr_test_spawn(argv, log);
    cr_assert_gt(pid, 0);
    int status = kvr_test_stop(pid, 0, 10000); /* signal 0: wait for it to exit */
    FILE *f = fopen(log, "r");
    cr_assert_not_null(f);
    char *buf = calloc(1, 1 << 16);
    cr_assert_not_null(buf);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    unlink(log);
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A port this test holds bound: a router that tried to listen on it would fail. */
static int hold_port(uint16_t *port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert_eq(listen(fd, 1), 0);
    socklen_t len = sizeof a;
    cr_assert_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    *port = ntohs(a.sin_port);
    return fd;
}

Test(check_config, good_file_is_ok_without_listening, .timeout = 20.)
{
    uint16_t port;
    int fd = hold_port(&port);
    char body[256];
    snprintf(body, sizeof body,
             "# a router in front of two engines\n"
             "listen 127.0.0.1:%u\n"
             "engine http://127.0.0.1:8000,model=m\n"
             "engine http://localhost:8001\n"
             "policy sticky\n",
             port);
    scratch_t s;
    scratch_init(&s, body);
    char *out;
    int rc = run_kvroute((const char *const[]){"--check-config", s.path, NULL}, &out);
    char want[300];
    snprintf(want, sizeof want, "kvroute: %s: ok\n", s.path);
    cr_expect_eq(rc, 0, "exit %d: %s", rc, out);
    cr_expect_str_eq(out, want);
    free(out);
    close(fd);
    scratch_close(&s);
}

Test(check_config, bad_line_is_named_and_exit_2, .timeout = 20.)
{
    scratch_t s;
    scratch_init(&s, "listen 127.0.0.1:8080\n"
                     "engine http://127.0.0.1:8000\n"
                     "retries 99\n");
    char *out;
    int rc = run_kvroute((const char *const[]){"--check-config", s.path, NULL}, &out);
    char want[400];
    snprintf(want, sizeof want,
             "kvroute: config %s:3: --retries: expected an integer in [0, 16], got '99'\n", s.path);
    cr_expect_eq(rc, 2);
    cr_expect_str_eq(out, want);
    free(out);
    scratch_close(&s);
}

/* A policy name is checked on its line, as every other value: the error names FILE:LINE. */
Test(check_config, unknown_policy_and_bad_engine_are_refused, .timeout = 20.)
{
    scratch_t s;
    scratch_init(&s, "engine http://127.0.0.1:8000\n"
                     "policy no_such_rule\n");
    char *out;
    int rc = run_kvroute((const char *const[]){"--check-config", s.path, NULL}, &out);
    cr_expect_eq(rc, 2);
    char want[400];
    snprintf(want, sizeof want, "kvroute: config %s:2: --policy: expected one of ", s.path);
    cr_expect(strncmp(out, want, strlen(want)) == 0, "%s", out);
    cr_expect(strstr(out, "got 'no_such_rule'") != NULL, "%s", out);
    free(out);
    scratch_close(&s);

    /* The decode phase's policy too: before, only the decision core's start-up refused it. */
    scratch_init(&s, "pd-decode-policy nope\n");
    rc = run_kvroute((const char *const[]){"--check-config", s.path, NULL}, &out);
    cr_expect_eq(rc, 2);
    cr_expect(strstr(out, ":1: --pd-decode-policy: expected one of ") != NULL, "%s", out);
    free(out);
    scratch_close(&s);

    scratch_init(&s, "engine ftp://127.0.0.1:8000\n");
    rc = run_kvroute((const char *const[]){"--check-config", s.path, NULL}, &out);
    cr_expect_eq(rc, 2);
    cr_expect(strstr(out, ":1: --engine: ") != NULL, "%s", out);
    free(out);
    scratch_close(&s);
}

Test(check_config, tokenizer_dir_without_tokenizer_json_is_refused, .timeout = 20.)
{
    scratch_t s;
    scratch_init(&s, "");
    char body[400];
    snprintf(body, sizeof body, "tokenizer m=%s/no-such-model\n", s.dir);
    FILE *f = fopen(s.path, "w");
    cr_assert_not_null(f);
    fputs(body, f);
    fclose(f);
    char *out;
    int rc = run_kvroute((const char *const[]){"--check-config", s.path, NULL}, &out);
    char want[400];
    snprintf(want, sizeof want,
             "kvroute: --tokenizer: cannot read %s/no-such-model/tokenizer.json: ", s.dir);
    cr_expect_eq(rc, 2);
    cr_expect(strncmp(out, want, strlen(want)) == 0, "%s", out);
    free(out);
    scratch_close(&s);
}

Test(check_config, missing_file_is_exit_2, .timeout = 20.)
{
    char *out;
    int rc = run_kvroute((const char *const[]){"--check-config", "/nonexistent/kvroute.conf", NULL},
                         &out);
    cr_expect_eq(rc, 2);
    cr_expect(strncmp(out, "kvroute: ", 9) == 0 && strstr(out, "/nonexistent/kvroute.conf"), "%s",
              out);
    free(out);
}
