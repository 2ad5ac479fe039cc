/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Migration of pinned sessions. A pin is placed once, on the load seen at
 * the session's birth; when its engine later runs far above the fleet, the
 * session pays that queue on every turn. The test is guard A's: above
 * factor x fleet mean + 1, so a fleet at rest never migrates anything.
 */
#include "router/policies/policy_util.h"

bool kvr_policy_migrate_due(const kvr_policy_config_t *config, const kvr_engine_view_t *views,
                            size_t n, size_t pinned)
{
    if (config->migrate_factor <= 0 || n < 2 || pinned >= n)
        return false;
    double sum = 0;
    for (size_t v = 0; v < n; v++)
        sum += views[v].eff_requests;
    /* Tolerance as in affinity: exactly at the threshold stays. */
    double threshold = config->migrate_factor * (sum / (double)n) + 1.0 + 1e-9;
    return (double)views[pinned].eff_requests > threshold;
}
