/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_SGLANG_LOADS_H
#define KVR_COMMON_SGLANG_LOADS_H

/*
 * SGLang's load endpoints as engine state.
 *
 * GET /v1/loads?include=core answers {"loads": [ {per DP rank}, ... ]} with
 * num_running_reqs, num_waiting_reqs, max_running_requests,
 * num_used_tokens, max_total_num_tokens, token_usage, utilization and
 * num_total_tokens (used + admitted-but-not-prefilled). Counts and token
 * figures are summed over ranks, token_usage and utilization take the max,
 * caps are complete only when every rank reports max_running_requests > 0,
 * pending prefill = sum of max(0, num_total_tokens - num_used_tokens) over
 * the ranks that report num_total_tokens (flagged only when all do).
 *
 * The older GET /get_load answers either one object or an array of objects
 * (one per DP rank) with num_reqs (running + waiting) / num_waiting_reqs /
 * num_tokens and, in later releases, num_pending_tokens; it is accepted too,
 * without caps.
 */

#include <stddef.h>

#include "shm_layout/shm_layout.h"

/**
 * Parses a /v1/loads (or /get_load) body into out: running, waiting,
 * max_running, kv_tokens_used, kv_tokens_capacity, kv_usage,
 * pending_prefill_tokens, max_prefill_remaining (0: not reported),
 * utilization, dp_ranks and the telemetry flags (CAPS_COMPLETE,
 * HAS_UTILIZATION, HAS_PENDING_PREFILL). engine_id, times, sample_seq,
 * consecutive_failures, IN_USE, HEALTHY and the source bits are left as they
 * are. On failure *out is untouched.
 * Returns 0, or KVR_EPARSE with *reason (static text; reason may be NULL)
 * for invalid JSON or bytes after it, a missing or empty loads[], a rank
 * that is not an object with distinct keys (at most 512), a required count
 * missing, negative, not a whole number or not within 64 bits, and a sum
 * over ranks that would not fit 64 bits (refused, not wrapped or saturated:
 * either would turn a flood into a guess, a wrap into an idle engine).
 */
int kvr_sglang_loads_parse(const char *json, size_t len, kvr_engine_state_t *out,
                           const char **reason);

#endif
