/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "test_policy_fixture.h"

typedef struct {
    double factor;
    uint32_t loads[4];
    bool due;
} migrate_case_t;

ParameterizedTestParameters(policy_migrate, threshold)
{
    static migrate_case_t cases[] = {
        {0.0, {100, 0, 0, 0}, false}, /* off */
        {1.5, {16, 8, 8, 8}, false},  /* mean 10: threshold 16, exactly at it stays */
        {1.5, {17, 8, 8, 7}, true},     {1.5, {1, 0, 0, 0}, false}, /* a lone request never moves */
        {2.0, {30, 30, 30, 30}, false}, /* a uniformly busy fleet: nowhere better to go */
    };
    return cr_make_param_array(migrate_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(migrate_case_t *c, policy_migrate, threshold, .timeout = 5.)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cr_expect_float_eq(cfg.migrate_factor, 0.0, 1e-12, "off by default");
    cfg.migrate_factor = c->factor;
    kvr_engine_view_t v[4];
    for (uint32_t i = 0; i < 4; i++)
        v[i] = fx_view(i, c->loads[i]);
    cr_expect_eq(kvr_policy_migrate_due(&cfg, v, 4, 0), c->due);
}

Test(policy_migrate, single_engine_never_migrates, .timeout = 5.)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cfg.migrate_factor = 1.0;
    kvr_engine_view_t v[1] = {fx_view(0, 500)};
    cr_expect_not(kvr_policy_migrate_due(&cfg, v, 1, 0));
}
