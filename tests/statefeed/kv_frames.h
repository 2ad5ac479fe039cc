/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_STATEFEED_KV_FRAMES_H
#define KVR_TESTS_STATEFEED_KV_FRAMES_H

/*
 * KV event batches built the way the engines build them (msgspec): newer
 * vLLM's map batch of "type"-tagged maps, older vLLM's and SGLang's
 * positional arrays with the tag first.
 */

#include <msgpack.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct kv_stored_s {
    const uint64_t *hashes;
    size_t n_hashes;
    bool has_parent;
    uint64_t parent;
    const uint32_t *tokens;
    size_t n_tokens;
    uint32_t block_size;
    const char *medium;    /* NULL: nil */
    const char *lora_name; /* NULL: nil */
} kv_stored_t;

static inline void kv_str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str(pk, strlen(s));
    msgpack_pack_str_body(pk, s, strlen(s));
}

static inline void kv_str_or_nil(msgpack_packer *pk, const char *s)
{
    if (s == NULL)
        msgpack_pack_nil(pk);
    else
        kv_str(pk, s);
}

static inline void kv_hashes(msgpack_packer *pk, const uint64_t *h, size_t n)
{
    msgpack_pack_array(pk, n);
    for (size_t i = 0; i < n; i++)
        msgpack_pack_uint64(pk, h[i]);
}

/** Batch header: map {ts, events: [n...]} (map) or [ts, [n...]] (positional). */
static inline void kv_batch_begin(msgpack_packer *pk, bool map, size_t n_events)
{
    if (map) {
        msgpack_pack_map(pk, 3);
        kv_str(pk, "ts");
        msgpack_pack_double(pk, 1764460000.5);
        kv_str(pk, "data_parallel_rank");
        msgpack_pack_int(pk, 0);
        kv_str(pk, "events");
    } else {
        msgpack_pack_array(pk, 2);
        msgpack_pack_double(pk, 1764460000.5);
    }
    msgpack_pack_array(pk, n_events);
}

static inline void kv_pack_stored(msgpack_packer *pk, bool map, const kv_stored_t *s)
{
    if (map) {
        msgpack_pack_map(pk, 8);
        kv_str(pk, "type");
        kv_str(pk, "BlockStored");
        kv_str(pk, "block_hashes");
        kv_hashes(pk, s->hashes, s->n_hashes);
        kv_str(pk, "parent_block_hash");
    } else {
        msgpack_pack_array(pk, 8);
        kv_str(pk, "BlockStored");
        kv_hashes(pk, s->hashes, s->n_hashes);
    }
    if (s->has_parent)
        msgpack_pack_uint64(pk, s->parent);
    else
        msgpack_pack_nil(pk);
    if (map)
        kv_str(pk, "token_ids");
    msgpack_pack_array(pk, s->n_tokens);
    for (size_t i = 0; i < s->n_tokens; i++)
        msgpack_pack_uint32(pk, s->tokens[i]);
    if (map)
        kv_str(pk, "block_size");
    msgpack_pack_uint32(pk, s->block_size);
    if (map)
        kv_str(pk, "lora_id");
    msgpack_pack_nil(pk);
    if (map)
        kv_str(pk, "medium");
    kv_str_or_nil(pk, s->medium);
    if (map)
        kv_str(pk, "lora_name");
    kv_str_or_nil(pk, s->lora_name);
}

static inline void kv_pack_removed(msgpack_packer *pk, bool map, const uint64_t *h, size_t n,
                                   const char *medium)
{
    if (map) {
        msgpack_pack_map(pk, 3);
        kv_str(pk, "type");
        kv_str(pk, "BlockRemoved");
        kv_str(pk, "block_hashes");
    } else {
        msgpack_pack_array(pk, 3);
        kv_str(pk, "BlockRemoved");
    }
    kv_hashes(pk, h, n);
    if (map)
        kv_str(pk, "medium");
    kv_str_or_nil(pk, medium);
}

static inline void kv_pack_cleared(msgpack_packer *pk, bool map)
{
    if (map) {
        msgpack_pack_map(pk, 1);
        kv_str(pk, "type");
    } else {
        msgpack_pack_array(pk, 1);
    }
    kv_str(pk, "AllBlocksCleared");
}

#endif
