/* SPDX-License-Identifier: Apache-2.0 */
/* The option table: the integer parser, the one error form, bools, the config file, --help. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/options.h"

typedef struct {
    uint64_t port;
    int64_t offset;
    uint64_t seed;
    double ratio;
    bool pressure;
    bool header;
    char name[8];
    const char *path;
    int mode;
    uint64_t cooldown_ns;
} demo_t;

static const char *const mode_names[] = {"off", "shadow", "enforce", NULL};

#define T demo_t
static const kvr_opt_t demo_options[] = {
    KVR_OPT_ROW_U64(T, port, "port", "PORT", "8080", 1, 65535, "port to listen on"),
    KVR_OPT_ROW_INT(T, offset, "offset", "N", "-3", -10, 10, "signed shift"),
    KVR_OPT_ROW_U64(T, seed, "seed", "N", "1", 0, UINT64_MAX, "seed"),
    KVR_OPT_ROW_DOUBLE(T, ratio, "ratio", "X", "0.5", 0, 1, "a fraction"),
    KVR_OPT_ROW_BOOL(T, pressure, "owner-pressure", "off", "judge owners by pressure"),
    {.name = "no-header",
     .type = KVR_OPT_BOOL,
     .offset = offsetof(T, header),
     .size = sizeof(bool),
     .def = "off",
     .flags = KVR_OPT_NEGATE,
     .help = "leave the header out"},
    KVR_OPT_ROW_STRING(T, name, "name", "S", "abc", "a short name"),
    KVR_OPT_ROW_STRPTR(T, path, "path", "FILE", NULL, "a path"),
    KVR_OPT_ROW_ENUM(T, mode, "mode", "MODE", "off", mode_names, "admission mode"),
    KVR_OPT_ROW_MS(T, cooldown_ns, "cooldown-ms", "250", 0, 60000, "a duration"),
    KVR_OPT_ROW_HELP,
};
#undef T

static kvr_opt_set_t demo_set(demo_t *d)
{
    memset(d, 0, sizeof *d);
    kvr_opt_set_t set = {
        .opts = demo_options, .n_opts = sizeof demo_options / sizeof demo_options[0], .obj = d};
    char err[256];
    cr_assert_eq(kvr_opt_defaults(&set, err, sizeof err), 0, "%s", err);
    return set;
}

/* Arrays, not pointers: Criterion copies parameters into the worker process. */
typedef struct {
    char text[32];
    int rc;
    uint64_t value;
} u64_case_t;

ParameterizedTestParameters(options, parse_u64)
{
    static u64_case_t cases[] = {
        {"0", 0, 0},
        {"10", 0, 10},
        {"010", 0, 10}, /* base 10 always: not octal 8 */
        {"65535", 0, 65535},
        {"65536", -ERANGE, 0},
        {"18446744073709551615", -ERANGE, 0}, /* within 64 bits but above max */
        {"", -EINVAL, 0},
        {"-1", -EINVAL, 0},
        {"+1", -EINVAL, 0},
        {" 1", -EINVAL, 0},
        {"1 ", -EINVAL, 0},
        {"1x", -EINVAL, 0},
        {"0x10", -EINVAL, 0},
        {"1.0", -EINVAL, 0},
        {"1e3", -EINVAL, 0},
        {"99999999999999999999999", -ERANGE, 0},
    };
    return cr_make_param_array(u64_case_t, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(u64_case_t *c, options, parse_u64, .timeout = 5.)
{
    uint64_t v = 12345;
    int rc = kvr_opt_parse_u64(c->text, 0, 65535, &v);
    cr_expect_eq(rc, c->rc, "'%s': rc %d", c->text, rc);
    if (c->rc == 0)
        cr_expect_eq(v, c->value, "'%s' gave %llu", c->text, (unsigned long long)v);
    else
        cr_expect_eq(v, 12345, "a refused value leaves the output alone");
}

Test(options, parse_u64_full_range_and_signed, .timeout = 5.)
{
    uint64_t u;
    cr_expect_eq(kvr_opt_parse_u64("18446744073709551615", 0, UINT64_MAX, &u), 0);
    cr_expect_eq(u, UINT64_MAX);
    cr_expect_eq(kvr_opt_parse_u64("18446744073709551616", 0, UINT64_MAX, &u), -ERANGE);
    int64_t i;
    cr_expect_eq(kvr_opt_parse_int("-010", -100, 100, &i), 0);
    cr_expect_eq(i, -10);
    cr_expect_eq(kvr_opt_parse_int("-", -100, 100, &i), -EINVAL);
    cr_expect_eq(kvr_opt_parse_int("--1", -100, 100, &i), -EINVAL);
    cr_expect_eq(kvr_opt_parse_int("-101", -100, 100, &i), -ERANGE);
    cr_expect_eq(kvr_opt_parse_int("-9223372036854775809", INT64_MIN, INT64_MAX, &i), -ERANGE);
}

Test(options, parse_double_is_decimal_and_finite, .timeout = 5.)
{
    double d;
    cr_expect_eq(kvr_opt_parse_double("0.25", 0, 1, &d), 0);
    cr_expect_float_eq(d, 0.25, 1e-12);
    cr_expect_eq(kvr_opt_parse_double(".5", 0, 1, &d), 0);
    cr_expect_eq(kvr_opt_parse_double("1e-3", 0, 1, &d), 0);
    const char *bad[] = {"",     "nan",  "inf",  "-inf",  "0x1p-2", "1.5",
                         "-0.1", "0.5x", " 0.5", "1e400", "."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_lt(kvr_opt_parse_double(bad[i], 0, 1, &d), 0, "'%s' accepted", bad[i]);
}

Test(options, parse_bool_words, .timeout = 5.)
{
    const char *yes[] = {"on", "true", "1", "yes"}, *no[] = {"off", "false", "0", "no"};
    for (size_t i = 0; i < 4; i++) {
        bool b = false;
        cr_expect_eq(kvr_opt_parse_bool(yes[i], &b), 0);
        cr_expect(b, "%s", yes[i]);
        cr_expect_eq(kvr_opt_parse_bool(no[i], &b), 0);
        cr_expect_not(b, "%s", no[i]);
    }
    bool b;
    cr_expect_eq(kvr_opt_parse_bool("maybe", &b), -EINVAL);
    cr_expect_eq(kvr_opt_parse_bool("", &b), -EINVAL);
}

Test(options, defaults_come_from_the_table, .timeout = 5.)
{
    demo_t d;
    demo_set(&d);
    cr_expect_eq(d.port, 8080);
    cr_expect_eq(d.offset, -3);
    cr_expect_float_eq(d.ratio, 0.5, 1e-12);
    cr_expect_not(d.pressure);
    cr_expect(d.header, "a negated bool off by default leaves its field true");
    cr_expect_str_eq(d.name, "abc");
    cr_expect_null(d.path);
    cr_expect_eq(d.mode, 0);
    cr_expect_eq(d.cooldown_ns, 250000000ull);
}

/* One bad value per type, and the one line each gives. */
typedef struct {
    char args[3][40];
    char error[120];
} error_case_t;

ParameterizedTestParameters(options, error_form)
{
    static error_case_t cases[] = {
        {{"--port", "x"}, "--port: expected an integer in [1, 65535], got 'x'"},
        {{"--port=0"}, "--port: expected an integer in [1, 65535], got '0'"},
        {{"--port", "-1"}, "--port: expected an integer in [1, 65535], got '-1'"},
        {{"--port"}, "--port: expected an integer in [1, 65535], got nothing"},
        {{"--offset", "11"}, "--offset: expected an integer in [-10, 10], got '11'"},
        {{"--ratio", "2"}, "--ratio: expected a number in [0, 1], got '2'"},
        {{"--owner-pressure=maybe"},
         "--owner-pressure: expected on/off, true/false or 1/0, got 'maybe'"},
        {{"--owner-pressure", "maybe"},
         "--owner-pressure: expected on/off, true/false or 1/0, got 'maybe'"},
        {{"--name", "abcdefgh"}, "--name: expected at most 7 bytes, got 'abcdefgh'"},
        {{"--mode", "loud"}, "--mode: expected one of off, shadow, enforce, got 'loud'"},
        {{"--cooldown-ms", "1.5"}, "--cooldown-ms: expected an integer in [0, 60000], got '1.5'"},
        {{"--nope", "1"}, "unknown flag --nope (see --help)"},
        {{"-x"}, "unknown flag -x (see --help)"},
        {{"stray"}, "unexpected argument 'stray' (see --help)"},
    };
    return cr_make_param_array(error_case_t, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(error_case_t *c, options, error_form, .timeout = 5.)
{
    demo_t d;
    kvr_opt_set_t set = demo_set(&d);
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    char *argv[5] = {"prog"};
    int argc = 1;
    for (int i = 0; i < 3 && c->args[i][0]; i++)
        argv[argc++] = c->args[i];
    char err[256] = "";
    cr_expect_eq(kvr_opt_parse_args(&parser, argc, argv, err, sizeof err), -EINVAL);
    cr_expect_str_eq(err, c->error);
}

Test(options, bools_stand_alone_or_take_a_word, .timeout = 5.)
{
    demo_t d;
    kvr_opt_set_t set = demo_set(&d);
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    char err[256];
    char *bare[] = {"prog", "--owner-pressure", "--no-header", "--port", "9"};
    cr_assert_eq(kvr_opt_parse_args(&parser, 5, bare, err, sizeof err), 0, "%s", err);
    cr_expect(d.pressure, "a bare bool is on");
    cr_expect_not(d.header, "a bare negated bool turns its field off");
    cr_expect_eq(d.port, 9, "the flag after a bare bool is still a flag");

    set = demo_set(&d);
    char *words[] = {"prog", "--owner-pressure", "on", "--no-header=false"};
    cr_assert_eq(kvr_opt_parse_args(&parser, 4, words, err, sizeof err), 0, "%s", err);
    cr_expect(d.pressure);
    cr_expect(d.header);

    char *off[] = {"prog", "--owner-pressure", "off"};
    cr_assert_eq(kvr_opt_parse_args(&parser, 3, off, err, sizeof err), 0, "%s", err);
    cr_expect_not(d.pressure);
}

Test(options, values_land_and_help_is_reported, .timeout = 5.)
{
    demo_t d;
    kvr_opt_set_t set = demo_set(&d);
    char *pos[2];
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1, .positional = pos, .max_positional = 2};
    char err[256];
    char *argv[] = {"prog",   "dump", "--port",        "010",     "--seed=18446744073709551615",
                    "--path", "/x",   "--mode",        "enforce", "--offset",
                    "-10",    "name", "--cooldown-ms", "0"};
    cr_assert_eq(kvr_opt_parse_args(&parser, 14, argv, err, sizeof err), 0, "%s", err);
    cr_expect_eq(d.port, 10, "010 is ten");
    cr_expect_eq(d.seed, UINT64_MAX, "a 64-bit seed keeps every bit");
    cr_expect_str_eq(d.path, "/x");
    cr_expect_eq(d.mode, 2);
    cr_expect_eq(d.offset, -10);
    cr_expect_eq(d.cooldown_ns, 0);
    cr_assert_eq(parser.n_positional, 2);
    cr_expect_str_eq(pos[0], "dump");
    cr_expect_str_eq(pos[1], "name");

    char *help[] = {"prog", "--port", "1", "-h"};
    cr_expect_eq(kvr_opt_parse_args(&parser, 4, help, err, sizeof err), 1);
    char *help2[] = {"prog", "--help"};
    cr_expect_eq(kvr_opt_parse_args(&parser, 2, help2, err, sizeof err), 1);
}

Test(options, config_file_uses_the_same_rows, .timeout = 5.)
{
    char path[] = "/tmp/kvr-test-options-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# a comment\n\n--port 010   # trailing comment\nratio=0.25\n  owner-pressure\n"
               "no-header off\nmode shadow\n");
    fclose(f);
    demo_t d;
    kvr_opt_set_t set = demo_set(&d);
    char err[512];
    cr_assert_eq(kvr_opt_load_file(&set, 1, path, err, sizeof err), 0, "%s", err);
    cr_expect_eq(d.port, 10);
    cr_expect_float_eq(d.ratio, 0.25, 1e-12);
    cr_expect(d.pressure, "a bool alone on its line is on");
    cr_expect(d.header);
    cr_expect_eq(d.mode, 1);

    f = fopen(path, "w");
    fprintf(f, "port 80\n\nport 0x50\n");
    fclose(f);
    cr_expect_eq(kvr_opt_load_file(&set, 1, path, err, sizeof err), -EINVAL);
    char want[256];
    snprintf(want, sizeof want,
             "config %s:3: --port: expected an integer in [1, 65535], got '0x50'", path);
    cr_expect_str_eq(err, want);

    f = fopen(path, "w");
    fprintf(f, "name ");
    for (int i = 0; i < 5000; i++)
        fputc('a', f);
    fprintf(f, "\nport 9\n");
    fclose(f);
    cr_expect_eq(kvr_opt_load_file(&set, 1, path, err, sizeof err), -EINVAL,
                 "an overlong line is refused, not read as two");
    cr_expect_not_null(strstr(err, ":1: line longer than"), "%s", err);

    f = fopen(path, "w");
    fprintf(f, "help\n");
    fclose(f);
    cr_expect_eq(kvr_opt_load_file(&set, 1, path, err, sizeof err), -EINVAL,
                 "--help is no file line");
    unlink(path);
    cr_expect_eq(kvr_opt_load_file(&set, 1, path, err, sizeof err), -ENOENT);
}

Test(options, help_is_generated_with_each_default, .timeout = 5.)
{
    demo_t d;
    kvr_opt_set_t set = demo_set(&d);
    set.title = "demo flags:";
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    kvr_opt_help(f, &set);
    fclose(f);
    const char *want[] = {"demo flags:\n", "--port PORT",       "port to listen on (default 8080)",
                          "(default -3)",  "--owner-pressure ", "(default off)",
                          "(default abc)", "(default 250)",     "-h, --help",
                          "--mode MODE"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect_not_null(strstr(buf, want[i]), "'%s' missing from:\n%s", want[i], buf);
    cr_expect_null(strstr(buf, "--path FILE                 a path (default"),
                   "no default, none shown");
    for (char *line = buf; *line;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        cr_expect_leq(n, 79, "help line longer than 79 columns: %.*s", (int)n, line);
        line += n + (nl != NULL);
    }
    free(buf);
}

/* A program's whole flag step: defaults, argv, and what --help and a bad flag give it. */
Test(options, a_program_step_applies_defaults_then_argv, .timeout = 5.)
{
    demo_t d;
    memset(&d, 0, sizeof d);
    kvr_opt_set_t set = {
        .opts = demo_options, .n_opts = sizeof demo_options / sizeof demo_options[0], .obj = &d};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {
        .name = "demo", .head = "usage: demo\n", .tail = "the end\n"};
    char *ok_argv[] = {"demo", "--seed", "7", NULL};
    cr_assert_eq(kvr_opt_program_parse(&program, &parser, 3, ok_argv), 0);
    cr_expect_eq(d.seed, 7);
    cr_expect_eq(d.port, 8080, "the defaults were applied first");
    char *bad_argv[] = {"demo", "--port", "0", NULL};
    cr_expect_eq(kvr_opt_program_parse(&program, &parser, 3, bad_argv), -EINVAL);
    char *help_argv[] = {"demo", "--help", NULL};
    cr_expect_eq(kvr_opt_program_parse(&program, &parser, 2, help_argv), 1);
}

typedef struct {
    kvr_log_level_t level;
} log_demo_t;

Test(options, log_level_row_takes_the_four_names_and_refuses_the_rest, .timeout = 5.)
{
    static const kvr_opt_t rows[] = {KVR_OPT_ROW_LOG_LEVEL(log_demo_t, level, "warn", "level")};
    log_demo_t d = {.level = KVR_LOG_DEBUG};
    kvr_opt_set_t set = {.opts = rows, .n_opts = 1, .obj = &d};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    char err[256];
    cr_assert_eq(kvr_opt_defaults(&set, err, sizeof err), 0, "%s", err);
    cr_expect_eq(d.level, KVR_LOG_WARN);
    const char *names[] = {"debug", "info", "warn", "error"};
    for (int i = 0; i < 4; i++) {
        char *argv[] = {"prog", "--log-level", (char *)names[i]};
        cr_assert_eq(kvr_opt_parse_args(&parser, 3, argv, err, sizeof err), 0, "%s", err);
        cr_expect_eq((int)d.level, i, "%s", names[i]);
    }
    char *bad[] = {"prog", "--log-level", "WARN"};
    cr_expect_eq(kvr_opt_parse_args(&parser, 3, bad, err, sizeof err), -EINVAL);
    cr_expect_str_eq(err, "--log-level: expected one of debug, info, warn, error, got 'WARN'");
    cr_expect_eq(d.level, KVR_LOG_ERROR, "a refused value leaves the field alone");
}
