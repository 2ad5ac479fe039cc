/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Admission after scoring. The policy has already chosen; admission only
 * asks whether the fleet can take the request at all. Turning a request
 * away because the chosen owner is full, while a peer sits idle, is the
 * hot-owner trap this module exists to rule out: a saturated pick moves to
 * an idle peer with complete telemetry under a one-in-flight seeding lease,
 * and a 429 is answered only when no candidate has headroom.
 */
#include "router/admission.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct kvr_admission_s {
    kvr_admission_mode_t mode;
    uint32_t max_waiting;
    kvr_admission_stats_t stats;
    uint32_t leases[KVR_MAX_ENGINES]; /* seeding leases in flight per engine index */
};

int kvr_admission_create(kvr_admission_mode_t mode, uint32_t max_waiting, kvr_admission_t **out)
{
    if (mode != KVR_ADMISSION_OFF && mode != KVR_ADMISSION_SHADOW && mode != KVR_ADMISSION_ENFORCE)
        return -EINVAL;
    kvr_admission_t *adm = calloc(1, sizeof(*adm));
    if (!adm)
        return -ENOMEM;
    adm->mode = mode;
    adm->max_waiting = max_waiting;
    *out = adm;
    return 0;
}

void kvr_admission_destroy(kvr_admission_t *adm)
{
    free(adm);
}

int kvr_admission_mode_parse(const char *text, kvr_admission_mode_t *out)
{
    if (!text)
        return -EINVAL;
    if (strcmp(text, "off") == 0)
        *out = KVR_ADMISSION_OFF;
    else if (strcmp(text, "shadow") == 0)
        *out = KVR_ADMISSION_SHADOW;
    else if (strcmp(text, "enforce") == 0)
        *out = KVR_ADMISSION_ENFORCE;
    else
        return -EINVAL;
    return 0;
}

int kvr_admission_order_parse(const char *text, kvr_admission_order_t *out)
{
    if (!text)
        return -EINVAL;
    if (strcmp(text, "after") == 0)
        *out = KVR_ADMISSION_AFTER;
    else if (strcmp(text, "before") == 0)
        *out = KVR_ADMISSION_BEFORE;
    else
        return -EINVAL;
    return 0;
}

/* An engine whose cap is unknown cannot be shown full, so it counts as having headroom (fail open). */
static bool has_headroom(const kvr_admission_t *adm, const kvr_engine_view_t *v)
{
    if (v->max_running == 0)
        return true;
    uint64_t queued = (uint64_t)v->eff_running + v->eff_waiting;
    return queued < (uint64_t)v->max_running + adm->max_waiting;
}

/* Idle by every measure the router has, and telemetry good enough to trust "idle". */
static bool seedable(const kvr_admission_t *adm, const kvr_engine_view_t *v)
{
    return v->feed_fresh && v->caps_complete && v->max_running > 0 && v->eff_requests == 0 &&
           v->eff_running == 0 && v->eff_waiting == 0 && v->index < KVR_MAX_ENGINES &&
           adm->leases[v->index] == 0;
}

/* The verdict when the request has (room) or lacks headroom; shadow mode admits and counts. */
static kvr_admission_verdict_t verdict(kvr_admission_t *adm, bool room)
{
    if (room) {
        adm->stats.admitted++;
        return KVR_ADMIT;
    }
    if (adm->mode == KVR_ADMISSION_SHADOW) {
        adm->stats.shadow_would_reject++;
        adm->stats.admitted++;
        return KVR_ADMIT;
    }
    adm->stats.rejected++;
    return KVR_ADMIT_REJECT;
}

kvr_admission_verdict_t kvr_admission_decide(kvr_admission_t *adm, const kvr_engine_view_t *views,
                                             size_t n, kvr_route_decision_t *decision)
{
    if (adm->mode == KVR_ADMISSION_OFF) {
        adm->stats.admitted++;
        return KVR_ADMIT;
    }
    int chosen = decision->view;
    if (chosen >= 0 && (size_t)chosen < n && has_headroom(adm, &views[chosen])) {
        adm->stats.admitted++;
        return KVR_ADMIT;
    }
    if (adm->mode == KVR_ADMISSION_ENFORCE) {
        for (size_t v = 0; v < n; v++) {
            if ((int)v == chosen || !seedable(adm, &views[v]))
                continue;
            decision->view = (int)v;
            decision->reason = "seed_lease";
            decision->prefix_match_blocks = 0;
            adm->leases[views[v].index]++;
            adm->stats.seed_leases++;
            adm->stats.admitted++;
            return KVR_ADMIT_SEED_LEASE;
        }
    }
    bool room = false;
    for (size_t v = 0; v < n && !room; v++)
        room = has_headroom(adm, &views[v]);
    return verdict(adm, room && chosen >= 0);
}

kvr_admission_verdict_t kvr_admission_gate(kvr_admission_t *adm, const kvr_engine_view_t *view)
{
    return verdict(adm, adm->mode == KVR_ADMISSION_OFF || has_headroom(adm, view));
}

void kvr_admission_release_lease(kvr_admission_t *adm, uint32_t engine_index)
{
    if (engine_index < KVR_MAX_ENGINES && adm->leases[engine_index] > 0)
        adm->leases[engine_index]--;
}

void kvr_admission_stats(const kvr_admission_t *adm, kvr_admission_stats_t *out)
{
    *out = adm->stats;
}
