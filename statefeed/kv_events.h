/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_STATEFEED_KV_EVENTS_H
#define KVR_STATEFEED_KV_EVENTS_H

/*
 * The engines' KV event wire (vLLM --kv-events-config, SGLang's kv events):
 * ZMQ multipart [topic, 8-byte big-endian sequence, msgpack batch]. The batch
 * is [ts, events, data_parallel_rank?] or, in newer vLLM, the map {ts, events,
 * data_parallel_rank}. An event is either a map tagged by its "type" key
 * (newer vLLM) or a positional array whose first element is the tag (older
 * vLLM, SGLang): BlockStored, BlockRemoved, AllBlocksCleared.
 *
 * The bytes are hostile: this reader walks them with its own bounded cursor
 * (no allocation per message, nesting and array sizes capped) and answers a
 * negative errno for anything it does not know, never a partial guess.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KVR_KV_MAX_BLOCKS 4096   /* block hashes in one event */
#define KVR_KV_MAX_TOKENS 262144 /* token ids in one event */
#define KVR_KV_MAX_BLOCK_SIZE 65536
#define KVR_KV_MAX_EVENTS 65536 /* events in one batch */
#define KVR_KV_LORA_NAME_MAX 256

typedef enum {
    KVR_KV_EVENT_STORED = 1,
    KVR_KV_EVENT_REMOVED,
    KVR_KV_EVENT_CLEARED,
} kvr_kv_event_kind_t;

/** Where a block lives: the event's medium ("GPU" or none, "CPU...", anything else). */
typedef enum {
    KVR_KV_TIER_GPU = 0,
    KVR_KV_TIER_CPU,
    KVR_KV_TIER_OTHER, /* disk, remote store */
    KVR_KV_TIERS
} kvr_kv_tier_t;

/** One decoded event; the arrays point into the decoder's scratch until the next event. */
typedef struct kvr_kv_event_s {
    kvr_kv_event_kind_t kind;
    const uint64_t *engine_hashes; /* the engine's own block hashes, as 64-bit keys */
    size_t n_hashes;
    bool has_parent;
    uint64_t parent; /* engine hash of the block before the first, when has_parent */
    const uint32_t *token_ids;
    size_t n_tokens;
    uint32_t block_size;
    bool has_lora_id;      /* an adapter given by id alone: kvroute cannot name its chain */
    const char *lora_name; /* NULL for the base model */
    size_t lora_name_len;
    kvr_kv_tier_t tier;
    int64_t group_idx;      /* -1 when none */
    size_t extra_keys_from; /* first block with non-nil extra keys (n_hashes when none) */
} kvr_kv_event_t;

typedef struct kvr_kv_batch_s {
    double ts;
    int64_t dp_rank; /* -1 when absent */
    size_t events;
    bool positional; /* the events came as tagged arrays */
} kvr_kv_batch_t;

/** Called once per decoded event, in order; a nonzero return stops the batch with it. */
typedef int (*kvr_kv_event_cb)(void *arg, const kvr_kv_event_t *ev);

typedef struct kvr_kv_decoder_s {
    uint64_t *hashes; /* KVR_KV_MAX_BLOCKS */
    uint32_t *tokens; /* KVR_KV_MAX_TOKENS */
    char lora_name[KVR_KV_LORA_NAME_MAX];
} kvr_kv_decoder_t;

/** Allocates the scratch; 0 or -ENOMEM. */
int kvr_kv_decoder_init(kvr_kv_decoder_t *d);
void kvr_kv_decoder_close(kvr_kv_decoder_t *d);

/**
 * Decodes one batch payload, calling cb per event. 0; -EBADMSG for bytes that
 * are not a batch (truncated, wrong types, unknown event tag), -E2BIG for an
 * array over the limits above; or the callback's nonzero return. Events
 * before the failing one have been delivered: the caller treats the engine's
 * state as untrusted on any error. *why names the failure (static text).
 */
int kvr_kv_batch_decode(kvr_kv_decoder_t *d, const void *payload, size_t len, kvr_kv_event_cb cb,
                        void *arg, kvr_kv_batch_t *batch, const char **why);

/** The 8-byte big-endian sequence frame; 0 or -EBADMSG when it is not 8 bytes. */
int kvr_kv_seq_parse(const void *frame, size_t len, int64_t *seq);

/** "GPU", "CPU", "other". */
const char *kvr_kv_tier_name(kvr_kv_tier_t tier);

#endif
