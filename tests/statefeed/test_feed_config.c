/* SPDX-License-Identifier: Apache-2.0 */
/* Engine specs, flags and the config file. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "statefeed/feed.h"

typedef struct {
    const char *text;
    int ok;
    const char *url;
    kvr__feed_kind_t kind;
} spec_case_t;

/* Criterion re-executes the binary per test, so parameters are indexes into
 * this table rather than pointers. */
static const spec_case_t spec_cases[] = {
    {"http://10.0.0.1:8000", 1, "http://10.0.0.1:8000", KVR_FEED_KIND_VLLM},
    {"http://10.0.0.1:8000/", 1, "http://10.0.0.1:8000", KVR_FEED_KIND_VLLM},
    {"http://h,kind=sglang", 1, "http://h:80", KVR_FEED_KIND_SGLANG},
    {"http://h:1/metrics", 0, NULL, 0},
    {"http://h:99999", 0, NULL, 0},
    {"http://h:1,kind=sglang", 1, "http://h:1", KVR_FEED_KIND_SGLANG},
    {"http://h:1,kind=push", 1, "http://h:1", KVR_FEED_KIND_PUSH},
    {"http://h:1,kind=vllm", 1, "http://h:1", KVR_FEED_KIND_VLLM},
    {"http://h:1,kind=relay", 0, NULL, 0},
    {"http://h:1,kind=", 0, NULL, 0},
    {"http://h:1,weight=2", 0, NULL, 0},
    {"https://h:1", 0, NULL, 0},
    {"", 0, NULL, 0},
    {",kind=vllm", 0, NULL, 0},
};
#define SPEC_CASES (sizeof(spec_cases) / sizeof(spec_cases[0]))

ParameterizedTestParameters(feed_config, engine_spec)
{
    static size_t index[SPEC_CASES];
    for (size_t i = 0; i < SPEC_CASES; i++)
        index[i] = i;
    return cr_make_param_array(size_t, index, SPEC_CASES);
}

ParameterizedTest(size_t *i, feed_config, engine_spec)
{
    const spec_case_t *c = &spec_cases[*i];
    kvr__feed_engine_spec_t spec;
    char err[200] = "";
    int rc = kvr__feed_engine_spec_parse(c->text, &spec, err, sizeof err);
    if (!c->ok) {
        cr_expect_lt(rc, 0, "'%s' accepted", c->text);
        cr_expect_gt(strlen(err), 0, "'%s' refused without a reason", c->text);
        return;
    }
    cr_assert_eq(rc, 0, "'%s' refused", c->text);
    cr_expect_str_eq(spec.url, c->url, "the engine id is the normalised URL");
    cr_expect_eq(spec.kind, c->kind);
}

Test(feed_config, defaults_and_file, .timeout = 5.)
{
    char path[] = "/tmp/kvr-feedconf-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *fp = fdopen(fd, "w");
    fprintf(fp, "# fleet\n\n--period-ms 20   # fast\nengine http://a:1\n"
                "engine=http://b:2,kind=sglang\n  fail-threshold 5\n");
    fclose(fp);
    kvr__feed_config_t cfg;
    kvr__feed_config_init(&cfg);
    char *argv[] = {"kvroute-statefeed",  "--engine", "http://c:3", "--config", path,
                    "--fail-threshold=7", NULL};
    cr_assert_eq(kvr__feed_config_parse_args(&cfg, 6, argv), 0);
    cr_expect_eq(cfg.period_ns, 20 * KVR_NS_PER_MS);
    cr_expect_eq(cfg.timeout_ns, 80 * KVR_NS_PER_MS, "timeout defaults to four periods");
    cr_expect_eq(cfg.fail_threshold, 7, "the command line overrides the file");
    cr_expect_str_eq(cfg.shm_name, "/kvroute-state");
    cr_assert_eq(cfg.engine_count, 3);
    cr_expect_str_eq(cfg.engines[0].url, "http://a:1");
    cr_expect(cfg.engines[0].from_file);
    cr_expect_eq(cfg.engines[1].kind, KVR_FEED_KIND_SGLANG);
    cr_expect_str_eq(cfg.engines[2].url, "http://c:3");
    cr_expect_not(cfg.engines[2].from_file, "SIGHUP must not remove command-line engines");
    kvr__feed_config_free(&cfg);
    unlink(path);
}

Test(feed_config, duplicate_engine_refused, .timeout = 5.)
{
    kvr__feed_config_t cfg;
    kvr__feed_config_init(&cfg);
    char *argv[] = {"kvroute-statefeed", "--engine", "http://a:1", "--engine", "http://a:1", NULL};
    cr_expect_lt(kvr__feed_config_parse_args(&cfg, 5, argv), 0);
    kvr__feed_config_free(&cfg);
}

Test(feed_config, share_needs_the_relay_and_a_plain_name, .timeout = 5.)
{
    kvr__feed_config_t cfg;
    kvr__feed_config_init(&cfg);
    char *alone[] = {"kvroute-statefeed", "--engine",      "http://a:1",
                     "--share",           "kvroute-share", NULL};
    cr_expect_lt(kvr__feed_config_parse_args(&cfg, 5, alone), 0,
                 "--share without --export or --import");
    kvr__feed_config_free(&cfg);
    kvr__feed_config_init(&cfg);
    char *slash[] = {"kvroute-statefeed", "--import", "tcp:127.0.0.1:1", "--share", "a/b", NULL};
    cr_expect_lt(kvr__feed_config_parse_args(&cfg, 5, slash), 0, "a name with '/' past the first");
    kvr__feed_config_free(&cfg);
    kvr__feed_config_init(&cfg);
    char *ok[] = {"kvroute-statefeed", "--import",       "tcp:127.0.0.1:1",
                  "--share",           "/kvroute-share", NULL};
    cr_assert_eq(kvr__feed_config_parse_args(&cfg, 5, ok), 0);
    cr_expect_str_eq(cfg.share_name, "/kvroute-share");
    cr_expect_eq(cfg.share_max_age_ns, 3000 * KVR_NS_PER_MS);
    cr_expect_eq(cfg.relay_max_placements, 50000);
    kvr__feed_config_free(&cfg);
}

/* The shipped examples must parse: operators start from them. */
Test(feed_config, deploy_examples_parse, .timeout = 5.)
{
    const char *src = getenv("KVR_SOURCE_DIR");
    cr_assert_not_null(src, "run through ctest");
    const char *files[] = {"deploy/examples/kvroute-statefeed.conf",
                           "deploy/examples/kvroute-statefeed-relay.conf",
                           "deploy/kubernetes/statefeed.conf"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", src, files[i]);
        if (access(path, R_OK) != 0)
            continue; /* not in this tree */
        kvr__feed_config_t cfg;
        kvr__feed_config_init(&cfg);
        cr_expect_eq(kvr__feed_config_load_file(&cfg, path, false), 0, "%s does not parse",
                     files[i]);
        kvr__feed_config_free(&cfg);
    }
}

Test(feed_config, engine_dns_takes_a_kind_and_needs_no_engine, .timeout = 5.)
{
    kvr__feed_config_t cfg;
    kvr__feed_config_init(&cfg);
    char *argv[] = {"kvroute-statefeed",
                    "--engine-dns",
                    "sglang.ns.svc:30000,kind=sglang",
                    "--engine-dns",
                    "[fd00::1]:8000",
                    "--engine-dns-interval-s",
                    "2",
                    "--engine-dns-family",
                    "ipv6",
                    NULL};
    cr_assert_eq(kvr__feed_config_parse_args(&cfg, 9, argv), 0);
    cr_assert_eq(cfg.engine_dns_count, 2);
    cr_expect_str_eq(cfg.engine_dns[0].spec, "sglang.ns.svc:30000");
    cr_expect_eq(cfg.engine_dns[0].kind, KVR_FEED_KIND_SGLANG);
    cr_expect_str_eq(cfg.engine_dns[1].spec, "[fd00::1]:8000");
    cr_expect_eq(cfg.engine_dns[1].kind, KVR_FEED_KIND_VLLM);
    cr_expect_eq(cfg.engine_dns_interval_s, 2);
    cr_expect_eq(cfg.engine_dns_drain_after, 2);
    cr_expect_eq(cfg.engine_dns_family, 2);
    kvr__feed_config_free(&cfg);
    const char *bad[] = {"svc:80,kind=relay", "svc:80,weight=2", "svc", "svc:0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kvr__feed_config_init(&cfg);
        char *argv_bad[] = {"kvroute-statefeed", "--engine-dns", (char *)bad[i], NULL};
        cr_expect_lt(kvr__feed_config_parse_args(&cfg, 3, argv_bad), 0, "%s", bad[i]);
        kvr__feed_config_free(&cfg);
    }
}

/* The KV event options of an --engine: ports and DP ranks, each checked. */
Test(feed_config, kv_event_options, .timeout = 5.)
{
    kvr__feed_engine_spec_t spec;
    char err[256];
    cr_assert_eq(kvr__feed_engine_spec_parse(
                     "http://10.0.0.5:8000,kind=sglang,kv_events=5557,kv_replay=5600,kv_dp=4",
                     &spec, err, sizeof err),
                 0, "%s", err);
    cr_expect_eq(spec.kind, KVR_FEED_KIND_SGLANG);
    cr_expect_eq(spec.kv_events_port, 5557);
    cr_expect_eq(spec.kv_replay_port, 5600);
    cr_expect_eq(spec.kv_dp_ranks, 4);
    cr_assert_eq(kvr__feed_engine_spec_parse("http://10.0.0.5:8000", &spec, err, sizeof err), 0);
    cr_expect_eq(spec.kv_events_port, 0, "no subscription unless asked");
    static const char *const bad[] = {
        "http://h:1,kv_events=0",         "http://h:1,kv_events=65536", "http://h:1,kv_events=",
        "http://h:1,kv_events=55x",       "http://h:1,kv_dp=257",       "http://h:1,kv_replay=5600",
        "http://h:1,kv_events=1,kv_dp=0", "http://h:1,kv_events=-1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        cr_expect_lt(kvr__feed_engine_spec_parse(bad[i], &spec, err, sizeof err), 0,
                     "'%s' accepted", bad[i]);
        cr_expect_gt(strlen(err), 0, "'%s' refused without a reason", bad[i]);
    }
}

/* n --engine flags and nothing else; 0 or the parse's error. */
static int parse_engines(kvr__feed_config_t *cfg, unsigned n)
{
    char **argv = calloc(2 * n + 2, sizeof *argv);
    char(*urls)[32] = calloc(n, sizeof *urls);
    cr_assert(argv && urls);
    argv[0] = "kvroute-statefeed";
    for (unsigned i = 0; i < n; i++) {
        snprintf(urls[i], sizeof urls[i], "http://10.0.%u.%u:8000", i / 250, i % 250 + 1);
        argv[1 + 2 * i] = "--engine";
        argv[2 + 2 * i] = urls[i];
    }
    int rc = kvr__feed_config_parse_args(cfg, (int)(2 * n + 1), argv);
    free(urls);
    free(argv);
    return rc;
}

/* A router reads as many engines as its --max-engines (1024 by default): the default segment holds them. */
Test(feed_config, default_capacity_holds_the_routers_default_engines, .timeout = 5.)
{
    kvr__feed_config_t cfg;
    kvr__feed_config_init(&cfg);
    cr_assert_eq(parse_engines(&cfg, 1024), 0, "1024 engines refused by the default --capacity");
    cr_expect_eq(cfg.capacity, 1024);
    kvr__feed_config_free(&cfg);
    kvr__feed_config_init(&cfg);
    cr_expect_lt(parse_engines(&cfg, 1025), 0, "1025 engines fit the default --capacity");
    kvr__feed_config_free(&cfg);
}
