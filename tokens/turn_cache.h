/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TOKENS_TURN_CACHE_H
#define KVR_TOKENS_TURN_CACHE_H

/*
 * The ids of texts' leading parts, kept so that a conversation's next turn
 * tokenizes only what is new. A text is cut where its encoding splits
 * anyway (right after an added token, such as a chat template's end of
 * turn), each part keyed by a hash of the whole text up to its end (and of
 * the tokenizer's files), so a part is reused only behind the same prefix.
 * The ids are those of kvr_tokenizer_encode without special tokens, for
 * every text. Bounded in memory (least recently used parts go first);
 * thread-safe. See tokens/README.md.
 */

#include <stddef.h>
#include <stdint.h>

#include "tokens/tokenizer.h"

typedef struct kvr_turn_cache_s kvr_turn_cache_t;

typedef struct kvr_turn_cache_stats_s {
    uint64_t hits, misses;                    /* parts reused / tokenized */
    uint64_t hit_text_bytes, miss_text_bytes; /* their text */
    uint64_t evictions;                       /* parts dropped for room */
    size_t bytes, entries;                    /* memory held now, parts held */
    size_t max_bytes;
} kvr_turn_cache_stats_t;

/** A cache holding at most max_bytes (at least 1); 0 or -ENOMEM. */
int kvr_turn_cache_create(size_t max_bytes, kvr_turn_cache_t **out);
/** Frees the cache (NULL is fine). */
void kvr_turn_cache_destroy(kvr_turn_cache_t *c);
/** kvr_tokenizer_encode(tok, text, len, false, ids), reusing earlier texts' parts; c may be NULL. */
int kvr_turn_cache_encode(kvr_turn_cache_t *c, const kvr_tokenizer_t *tok, const char *text,
                          size_t len, kvr_token_ids_t *ids);
/** A consistent copy of the counters. */
void kvr_turn_cache_stats(kvr_turn_cache_t *c, kvr_turn_cache_stats_t *out);

#endif
