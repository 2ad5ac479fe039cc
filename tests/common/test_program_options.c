/* SPDX-License-Identifier: Apache-2.0 */
/* Every program answers a bad flag value with the one error line and exit 2. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/proc.h"

/* Arrays, not pointers: Criterion copies parameters into the worker process. */
typedef struct {
    char bin[32];     /* KVR_BIN_* variable naming the program */
    char args[6][48]; /* "" ends the list */
    char output[160]; /* the whole of stdout + stderr */
} program_case_t;

/* Runs the program with the case's args; returns its exit status, output in *out (caller frees). */
static int run(const program_case_t *c, char **out)
{
    char log[128];
    kvr_test_unique_name(log, sizeof log, "/tmp/kvr-test-options");
    char *argv[8] = {(char *)kvr_test_bin(c->bin)};
    int argc = 1;
    for (int i = 0; i < 6 && c->args[i][0]; i++)
        argv[argc++] = (char *)c->args[i];
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

ParameterizedTestParameters(program_options, bad_value_is_one_line_and_exit_2)
{
    static program_case_t cases[] = {
        {"KVR_BIN_KVROUTE",
         {"--retries", "17"},
         "kvroute: --retries: expected an integer in [0, 16], got '17'\n"},
        {"KVR_BIN_KVROUTE",
         {"--max-age-ms", "-1"},
         "kvroute: --max-age-ms: expected an integer in [1, 3600000], got '-1'\n"},
        {"KVR_BIN_KVROUTE",
         {"--listen", "127.0.0.1:x"},
         "kvroute: --listen: expected HOST:PORT with a port in [0, 65535], got '127.0.0.1:x'\n"},
        {"KVR_BIN_KVROUTE",
         {"--balance-abs", "0x10"},
         "kvroute: --balance-abs: expected an integer in [0, 4000000000], got '0x10'\n"},
        {"KVR_BIN_KVROUTE",
         {"--owner-pressure", "maybe"},
         "kvroute: --owner-pressure: expected on/off, true/false or 1/0, got 'maybe'\n"},
        {"KVR_BIN_KVROUTE",
         {"--admission", "loud"},
         "kvroute: --admission: expected one of off, shadow, enforce, got 'loud'\n"},
        {"KVR_BIN_KVROUTE",
         {"--no-such-flag", "1"},
         "kvroute: unknown flag --no-such-flag (see --help)\n"},
        {"KVR_BIN_KVROUTE",
         {"--engine-dns", "engines:0"},
         "kvroute: --engine-dns: expected NAME:PORT with a port in [1, 65535], at most 16 names, got 'engines:0'\n"},
        {"KVR_BIN_KVROUTE_STATEFEED",
         {"--engine-dns", "svc:80,kind=x"},
         "kvroute-statefeed: --engine-dns: expected NAME:PORT[,kind=vllm|sglang|push] with a port in [1, 65535], "
         "at most 16 names, got 'svc:80,kind=x'\n"},
        {"KVR_BIN_KVROUTE_STATEFEED",
         {"--engine", "http://127.0.0.1:1", "--capacity", "0"},
         "kvroute-statefeed: --capacity: expected an integer in [1, 65536], got '0'\n"},
        {"KVR_BIN_KVROUTE_STATEFEED",
         {"--engine", "http://127.0.0.1:1", "--period-ms", "99999999999999999999"},
         "kvroute-statefeed: --period-ms: expected an integer in [1, 3600000], got '99999999999999999999'\n"},
        {"KVR_BIN_KVROUTE_STATEFEED",
         {"--engine", "http://127.0.0.1:1", "--relay-max-changes", "16x"},
         "kvroute-statefeed: --relay-max-changes: expected an integer in [1, 16384], got '16x'\n"},
        {"KVR_BIN_KVROUTE_SHM",
         {"create", "/kvr-test-options", "--capacity", "70000"},
         "kvroute-shm: --capacity: expected an integer in [1, 65536], got '70000'\n"},
        {"KVR_BIN_KVROUTE_SHM",
         {"watch", "/kvr-test-options", "--interval-ms", "5"},
         "kvroute-shm: --interval-ms: expected an integer in [10, 3600000], got '5'\n"},
        {"KVR_BIN_KVROUTE_SIM",
         {"--port", "65536"},
         "kvroute-sim: --port: expected an integer in [1, 65535], got '65536'\n"},
        {"KVR_BIN_KVROUTE_SIM",
         {"--error-rate", "1.5"},
         "kvroute-sim: --error-rate: expected a number in [0, 1], got '1.5'\n"},
        {"KVR_BIN_KVROUTE_REPLAY",
         {"--url", "http://127.0.0.1:1/", "--trace", "/nonexistent", "--max-inflight", "0"},
         "kvroute-replay: --max-inflight: expected an integer in [1, 2147483647], got '0'\n"},
        {"KVR_BIN_KVROUTE_TRACEGEN",
         {"--seed", "1.5"},
         "kvroute-tracegen: --seed: expected an integer in [0, 18446744073709551615], got '1.5'\n"},
        {"KVR_BIN_KVROUTE_TRACEGEN",
         {"--tenants", "0"},
         "kvroute-tracegen: --tenants: expected an integer in [1, 1000000000], got '0'\n"},
        {"KVR_BIN_KVROUTE_BENCH_DECISION",
         {"--engines", "20000"},
         "kvroute-bench-decision: --engines: expected an integer in [0, 16384], got '20000'\n"},
        {"KVR_BIN_KVROUTE_SIM_BENCH",
         {"--sim", "/nonexistent", "--streams", "0"},
         "kvroute-sim-bench: --streams: expected an integer in [1, 65536], got '0'\n"},
        {"KVR_BIN_KVROUTE_FEEDSAMPLE",
         {"--shm", "/kvr-test-options", "--interval-us", "5"},
         "kvroute-feedsample: --interval-us: expected a number in [10, 100000], got '5'\n"},
        {"KVR_BIN_KVROUTE_SOAK_CLIENT",
         {"--url", "http://127.0.0.1:1", "--stream-fraction", "1.5"},
         "kvroute-soak-client: --stream-fraction: expected a number in [0, 1], got '1.5'\n"},
        {"KVR_BIN_KVROUTE_BENCH_FEEDFMT",
         {"--iterations", "20k"},
         "kvroute-bench-feedfmt: --iterations: expected an integer in [1, 1000000000], got '20k'\n"},
        {"KVR_BIN_KVR_PUSH_PROBE",
         {"--socket", "/nonexistent/probe.sock", "--timeout-ms", "0"},
         "push-probe: --timeout-ms: expected an integer in [1, 2147483647], got '0'\n"},
    };
    return cr_make_param_array(program_case_t, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(program_case_t *c, program_options, bad_value_is_one_line_and_exit_2,
                  .timeout = 20.)
{
    char *out;
    int rc = run(c, &out);
    cr_expect_eq(rc, 2, "%s %s: exit %d", c->bin, c->args[0], rc);
    cr_expect_str_eq(out, c->output);
    free(out);
}

ParameterizedTestParameters(program_options, help_shows_defaults)
{
    static program_case_t cases[] = {
        {"KVR_BIN_KVROUTE", {"--help"}, "(default 2000)"},
        {"KVR_BIN_KVROUTE_STATEFEED", {"--help"}, "(default 1024)"},
        {"KVR_BIN_KVROUTE_SHM", {"--help"}, "(default 500)"},
        {"KVR_BIN_KVROUTE_SIM", {"--help"}, "(default 8100)"},
        {"KVR_BIN_KVROUTE_REPLAY", {"--help"}, "(default 512)"},
        {"KVR_BIN_KVROUTE_TRACEGEN", {"-h"}, "(default study)"},
        {"KVR_BIN_KVROUTE_BENCH_DECISION",
         {"--help"},
         "(default:\n                              cache_aware,affinity"},
        {"KVR_BIN_KVROUTE_SIM_BENCH", {"--help"}, "(default 18800)"},
        {"KVR_BIN_KVROUTE_FEEDSAMPLE", {"--help"}, "(default 1000)"},
        {"KVR_BIN_KVROUTE_SOAK_CLIENT", {"-h"}, "(default 0.75)"},
        {"KVR_BIN_KVROUTE_BENCH_FEEDFMT", {"--help"}, "(default 20000)"},
        {"KVR_BIN_KVR_PUSH_PROBE", {"--help"}, "(default 5000)"},
    };
    return cr_make_param_array(program_case_t, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(program_case_t *c, program_options, help_shows_defaults, .timeout = 20.)
{
    char *out;
    int rc = run(c, &out);
    cr_expect_eq(rc, 0, "%s --help: exit %d", c->bin, rc);
    cr_expect_not_null(strstr(out, c->output), "%s --help lacks %s:\n%s", c->bin, c->output, out);
    free(out);
}

/* The README writes --owner-pressure alone; it was refused with "invalid value". */
Test(program_options, router_takes_a_bare_bool, .timeout = 20.)
{
    program_case_t c = {"KVR_BIN_KVROUTE", {"--owner-pressure", "--policy", "nope"}, ""};
    char *out;
    int rc = run(&c, &out);
    cr_expect_eq(rc, 2);
    cr_expect(strncmp(out, "kvroute: --policy: expected one of ", 35) == 0,
              "--owner-pressure alone must parse, and the error be about --policy: %s", out);
    free(out);
}

ParameterizedTestParameters(program_options, version_is_one_line_and_exit_0)
{
    static program_case_t cases[] = {
        {"KVR_BIN_KVROUTE", {"--version"}, "kvroute "},
        {"KVR_BIN_KVROUTE_STATEFEED", {"--version"}, "kvroute-statefeed "},
        {"KVR_BIN_KVROUTE_SHM", {"--version"}, "kvroute-shm "},
        {"KVR_BIN_KVROUTE_SIM", {"--version"}, "kvroute-sim "},
        {"KVR_BIN_KVROUTE_REPLAY", {"--version"}, "kvroute-replay "},
        {"KVR_BIN_KVROUTE_TRACEGEN", {"--version"}, "kvroute-tracegen "},
        {"KVR_BIN_KVROUTE_BENCH_DECISION", {"--version"}, "kvroute-bench-decision "},
        {"KVR_BIN_KVROUTE_SIM_BENCH", {"--version"}, "kvroute-sim-bench "},
        {"KVR_BIN_KVROUTE_FEEDSAMPLE", {"--version"}, "kvroute-feedsample "},
        {"KVR_BIN_KVROUTE_SOAK_CLIENT", {"--version"}, "kvroute-soak-client "},
        {"KVR_BIN_KVROUTE_BENCH_FEEDFMT", {"--version"}, "kvroute-bench-feedfmt "},
        {"KVR_BIN_KVR_PUSH_PROBE", {"--version"}, "kvr-push-probe "},
        /* --version wins over flags that would otherwise be refused. */
        {"KVR_BIN_KVROUTE", {"--version", "--retries", "99"}, "kvroute "},
    };
    return cr_make_param_array(program_case_t, cases, sizeof cases / sizeof cases[0]);
}

/* "NAME VERSION (commit HASH)\n": what a platform team pastes into a bug report. */
ParameterizedTest(program_case_t *c, program_options, version_is_one_line_and_exit_0,
                  .timeout = 20.)
{
    char *out;
    int rc = run(c, &out);
    cr_expect_eq(rc, 0, "%s --version: exit %d", c->bin, rc);
    size_t n = strlen(c->output);
    cr_expect(strncmp(out, c->output, n) == 0, "%s --version: %s", c->bin, out);
    const char *version = out + n;
    const char *commit = strstr(version, " (commit ");
    cr_expect(commit && commit > version && strchr("0123456789", version[0]),
              "%s --version lacks VERSION (commit ...): %s", c->bin, out);
    const char *nl = strchr(out, '\n');
    cr_expect(nl && nl[1] == '\0' && nl[-1] == ')', "%s --version: not one line: %s", c->bin, out);
    free(out);
}
