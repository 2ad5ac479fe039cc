/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdlib.h>

#include "test_policy_fixture.h"

Test(policy_config, defaults_are_the_documented_ones, .timeout = 5.)
{
    kvr_policy_config_t c;
    kvr_policy_config_defaults(&c);
    cr_expect_float_eq(c.overload_factor, 1.3, 1e-12);
    cr_expect_eq(c.balance_abs, 64);
    cr_expect_float_eq(c.balance_rel, 1.5, 1e-12);
    cr_expect_float_eq(c.cache_threshold, 0.3, 1e-12);
    cr_expect_not(c.owner_pressure, "the SGLang rule as it ships");
    cr_expect_float_eq(c.high_watermark, 0.90, 1e-12);
    cr_expect_float_eq(c.owner_slack, 0.10, 1e-12);
    cr_expect_geq(c.replication_ceiling, 2);
    cr_expect_gt(c.spill_cooldown_ns, 0);
    cr_expect_float_eq(c.overlap_weight, 1.0, 1e-12);
    cr_expect_float_eq(c.temperature, 0.0, 1e-12);
    cr_expect_gt(c.index_tokens_per_engine, 0);
    cr_expect_gt(c.index_ttl_ns, 0);
    cr_expect_gt(c.index_max_blocks, 0);
}

/* Arrays, not pointers: Criterion copies parameters into the worker process. */
typedef struct {
    char key[32], value[32];
    int rc;
} set_case_t;

ParameterizedTestParameters(policy_config, set)
{
    static set_case_t cases[] = {
        {"overload-factor", "2.5", 0},         {"--overload-factor", "2", 0},
        {"overload-factor", "x", -EINVAL},     {"overload-factor", "-1", -EINVAL},
        {"overload-factor", "", -EINVAL},      {"balance-abs", "10", 0},
        {"balance-abs", "-3", -EINVAL},        {"balance-abs", "1.5", -EINVAL},
        {"cache-threshold", "1.5", -EINVAL},   {"owner-pressure", "on", 0},
        {"owner-pressure", "maybe", -EINVAL},  {"spill-cooldown-ms", "250", 0},
        {"replication-ceiling", "0", -EINVAL}, {"seed", "18446744073709551615", 0},
        {"temperature", "nan", -EINVAL},       {"index-ttl-ms", "0", 0},
        {"no-such-option", "1", -ENOENT},      {"max-waiting", "1", -ENOENT},
    };
    return cr_make_param_array(set_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(set_case_t *c, policy_config, set, .timeout = 5.)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cr_expect_eq(kvr_policy_config_set(&cfg, c->key, c->value), c->rc, "%s=%s", c->key, c->value);
}

Test(policy_config, values_land_in_their_fields, .timeout = 5.)
{
    kvr_policy_config_t c;
    kvr_policy_config_defaults(&c);
    cr_assert_eq(kvr_policy_config_set(&c, "spill-cooldown-ms", "250"), 0);
    cr_expect_eq(c.spill_cooldown_ns, 250 * KVR_NS_PER_MS);
    cr_assert_eq(kvr_policy_config_set(&c, "owner-pressure", "true"), 0);
    cr_expect(c.owner_pressure);
    cr_assert_eq(kvr_policy_config_set(&c, "seed", "18446744073709551615"), 0);
    cr_expect_eq(c.seed, UINT64_MAX);
    cr_assert_eq(kvr_policy_config_set(&c, "balance-rel", "2.25"), 0);
    cr_expect_float_eq(c.balance_rel, 2.25, 1e-12);
    cr_assert_eq(kvr_policy_config_set(&c, "index-max-blocks", "4096"), 0);
    cr_expect_eq(c.index_max_blocks, 4096);
}

/* The router reads 010 as ten; the policy options once read it as octal eight. */
Test(policy_config, integers_are_base_10_like_every_flag, .timeout = 5.)
{
    kvr_policy_config_t c;
    kvr_policy_config_defaults(&c);
    cr_assert_eq(kvr_policy_config_set(&c, "balance-abs", "010"), 0);
    cr_expect_eq(c.balance_abs, 10);
    cr_assert_eq(kvr_policy_config_set(&c, "index-max-blocks", "0100"), 0);
    cr_expect_eq(c.index_max_blocks, 100);
    cr_expect_eq(kvr_policy_config_set(&c, "balance-abs", "0x10"), -EINVAL);
    cr_expect_eq(c.balance_abs, 10, "a refused value leaves the field alone");
}

Test(policy_config, a_bool_given_alone_is_on, .timeout = 5.)
{
    kvr_policy_config_t c;
    kvr_policy_config_defaults(&c);
    cr_assert_eq(kvr_policy_config_set(&c, "owner-pressure", NULL), 0);
    cr_expect(c.owner_pressure);
    cr_assert_eq(kvr_policy_config_set(&c, "owner-pressure", "off"), 0);
    cr_expect_not(c.owner_pressure);
}

Test(policy_config, help_names_every_option_with_its_default, .timeout = 5.)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    kvr_policy_config_help(f);
    fclose(f);
    const char *keys[] = {"--seed",
                          "--overload-factor",
                          "--balance-abs",
                          "--balance-rel",
                          "--cache-threshold",
                          "--owner-pressure",
                          "--high-watermark",
                          "--owner-slack",
                          "--replication-ceiling",
                          "--spill-cooldown-ms",
                          "--overlap-weight",
                          "--temperature",
                          "--index-tokens-per-engine",
                          "--index-ttl-ms",
                          "--index-max-blocks",
                          "--ttft-prefill-tokens-per-s",
                          "--ttft-step-ms",
                          "--ttft-step-per-seq-ms",
                          "--ttft-others-weight",
                          "--ttft-learn-rate",
                          "--ttft-output-tokens"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        cr_expect_not_null(strstr(buf, keys[i]), "%s in help", keys[i]);
    cr_expect_not_null(strstr(buf, "(default 1.3)"));
    cr_expect_not_null(strstr(buf, "(default 0.9)"));
    cr_expect_not_null(strstr(buf, "(default 10000)"));
    free(buf);
}

Test(policy_config, ttft_options_bounds, .timeout = 5.)
{
    kvr_policy_config_t c;
    kvr_policy_config_defaults(&c);
    cr_expect_float_eq(c.ttft_prefill_tokens_per_s, 10000, 1e-9);
    cr_expect_float_eq(c.ttft_others_weight, 0.5, 1e-12);
    cr_expect_float_eq(c.ttft_learn_rate, 0.2, 1e-12);
    /* A zero prefill prior would divide by zero: refused. */
    cr_expect_eq(kvr_policy_config_set(&c, "ttft-prefill-tokens-per-s", "0"), -EINVAL);
    cr_expect_eq(kvr_policy_config_set(&c, "ttft-prefill-tokens-per-s", "nan"), -EINVAL);
    cr_expect_eq(kvr_policy_config_set(&c, "ttft-learn-rate", "1.5"), -EINVAL);
    cr_expect_eq(kvr_policy_config_set(&c, "ttft-others-weight", "-1"), -EINVAL);
    cr_expect_eq(kvr_policy_config_set(&c, "ttft-step-ms", "0"), -EINVAL);
    cr_expect_eq(kvr_policy_config_set(&c, "ttft-others-weight", "0.25"), 0);
    cr_expect_float_eq(c.ttft_others_weight, 0.25, 1e-12);
}

Test(policy_registry, finds_every_policy_by_name, .timeout = 5.)
{
    const char *names[] = {"round_robin", "random",   "power_of_two",  "load_only",
                           "lmetric",     "affinity", "cache_aware",   "cost",
                           "ttft",        "llmd",     "lmetric_paper", "kv_headroom"};
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 1024;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const kvr_policy_ops_t *ops = kvr_policy_find(names[i]);
        cr_assert_not_null(ops, "%s", names[i]);
        cr_expect_str_eq(ops->name, names[i]);
        void *st = NULL;
        cr_assert_eq(ops->create(&cfg, &st), 0);
        ops->destroy(st);
    }
    cr_expect_str_eq(kvr_policy_find("sticky")->name, "load_only");
    cr_expect_null(kvr_policy_find("nonesuch"));
    cr_expect_null(kvr_policy_find(NULL));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    kvr_policy_list(f);
    fclose(f);
    cr_expect_str_eq(
        buf,
        "round_robin,random,power_of_two,load_only,lmetric,affinity,cache_aware,cost,ttft,llmd,lmetric_paper,kv_headroom,sticky");
    free(buf);
}
