/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TOKENS_INTERNAL_H
#define KVR_TOKENS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "tokens/tokenizer.h"

/* Bounds on what a tokenizer.json may declare, far above every real model. */
#define KVR__TOK_MAX_SYMBOLS (1u << 24)
#define KVR__TOK_MAX_ID INT32_MAX
#define KVR__TOK_MAX_STEPS 16
#define KVR__TOK_MAX_TEMPLATE 64
#define KVR__TOK_MAX_DEPTH 8
#define KVR__TOK_NO_ID UINT32_MAX

/*
 * Interned byte strings: each distinct string gets a dense index. The
 * symbols of the BPE model are raw bytes (the byte-level alphabet undone).
 */
typedef struct kvr__tok_strmap_s {
    uint32_t *slots; /* index + 1, 0 = empty */
    size_t slot_cap;
    uint64_t *offs; /* per index: offset << 32 | length into arena */
    size_t n, n_cap;
    char *arena;
    size_t arena_len, arena_cap;
} kvr__tok_strmap_t;

void kvr__tok_strmap_init(kvr__tok_strmap_t *m);
void kvr__tok_strmap_close(kvr__tok_strmap_t *m);
/** Index of KEY, inserted if absent (*inserted tells); -ENOMEM or -E2BIG. */
int kvr__tok_strmap_intern(kvr__tok_strmap_t *m, const char *key, size_t len, uint32_t *index,
                           bool *inserted);
/** Room for N keys without growing (a hint: 0 or -ENOMEM). */
int kvr__tok_strmap_reserve(kvr__tok_strmap_t *m, size_t n);
/** Index of KEY or -1. */
int64_t kvr__tok_strmap_find(const kvr__tok_strmap_t *m, const char *key, size_t len);
const char *kvr__tok_strmap_key(const kvr__tok_strmap_t *m, uint32_t index, size_t *len);

/* (left symbol, right symbol) -> (rank, merged symbol). */
typedef struct kvr__tok_pair_s {
    uint64_t key; /* left << 32 | right, UINT64_MAX = empty */
    uint32_t rank;
    uint32_t merged;
} kvr__tok_pair_t;

typedef struct kvr__tok_pairmap_s {
    kvr__tok_pair_t *slots;
    size_t cap, n;
} kvr__tok_pairmap_t;

void kvr__tok_pairmap_init(kvr__tok_pairmap_t *m);
void kvr__tok_pairmap_close(kvr__tok_pairmap_t *m);
/** Sets the pair, overwriting an earlier rank (a later merge line wins, as the reference). */
int kvr__tok_pairmap_put(kvr__tok_pairmap_t *m, uint32_t left, uint32_t right, uint32_t rank,
                         uint32_t merged);
/** Room for N pairs without growing. */
int kvr__tok_pairmap_reserve(kvr__tok_pairmap_t *m, size_t n);

/* The slot a pair starts its probe at: splitmix64's finaliser, as symbol indices are dense. */
static inline size_t kvr__tok_pair_hash(uint64_t key)
{
    key ^= key >> 30;
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 27;
    key *= 0x94d049bb133111ebULL;
    key ^= key >> 31;
    return (size_t)key;
}

/** The pair's merge, or NULL. Inline: the BPE loop is mostly these lookups. */
static inline const kvr__tok_pair_t *kvr__tok_pairmap_get(const kvr__tok_pairmap_t *m,
                                                          uint32_t left, uint32_t right)
{
    if (m->cap == 0)
        return NULL;
    uint64_t key = (uint64_t)left << 32 | right;
    size_t mask = m->cap - 1;
    for (size_t i = kvr__tok_pair_hash(key) & mask;; i = (i + 1) & mask) {
        if (m->slots[i].key == key)
            return &m->slots[i];
        if (m->slots[i].key == UINT64_MAX)
            return NULL;
    }
}

/** Starts loading the pair's first slot into cache, for a lookup a little later. */
static inline void kvr__tok_pairmap_prefetch(const kvr__tok_pairmap_t *m, uint32_t left,
                                             uint32_t right)
{
    if (m->cap)
        __builtin_prefetch(
            &m->slots[kvr__tok_pair_hash((uint64_t)left << 32 | right) & (m->cap - 1)]);
}

/* Pre-tokenizer steps, applied in order; ByteLevel is the last. */
typedef enum {
    KVR__TOK_SPLIT_ISOLATED, /* matches and the text between them */
    KVR__TOK_SPLIT_REMOVED,  /* only the text between matches */
    KVR__TOK_SPLIT_MATCHES,  /* invert: only the matches */
} kvr__tok_split_mode_t;

typedef struct kvr__tok_split_s {
    pcre2_code *re;
    kvr__tok_split_mode_t mode;
} kvr__tok_split_t;

typedef enum {
    KVR__TOK_NORM_NFC = 1,
    KVR__TOK_NORM_NFD,
    KVR__TOK_NORM_NFKC,
    KVR__TOK_NORM_NFKD,
} kvr__tok_norm_t;

/** FORM of S: *out gets a malloc'd result, or NULL when S is its own normal form. */
int kvr__tok_normalize(kvr__tok_norm_t form, const char *s, size_t len, char **out,
                       size_t *out_len);

/* One post-processor wrap: special ids around the sequence. */
typedef struct kvr__tok_wrap_s {
    uint32_t before[KVR__TOK_MAX_TEMPLATE], after[KVR__TOK_MAX_TEMPLATE];
    size_t n_before, n_after;
} kvr__tok_wrap_t;

/* Added tokens, matched on the raw text before anything else (a byte trie). */
typedef struct kvr__tok_added_s {
    uint32_t id;
    bool lstrip, rstrip;
} kvr__tok_added_t;

typedef struct kvr__tok_trie_edge_s {
    uint64_t key; /* node << 8 | byte, UINT64_MAX = empty */
    uint32_t child;
} kvr__tok_trie_edge_t;

struct kvr_tokenizer_s {
    kvr__tok_strmap_t symbols;
    uint32_t *symbol_id; /* per symbol: token id or KVR__TOK_NO_ID */
    size_t symbol_id_cap;
    uint32_t byte_symbol[256];
    uint32_t byte_fallback_id[256]; /* <0xNN> ids, KVR__TOK_NO_ID if absent */
    kvr__tok_pairmap_t merges;
    bool ignore_merges, byte_fallback;
    uint32_t unk_id;

    kvr__tok_strmap_t added_contents; /* content -> index into added[] */
    kvr__tok_added_t *added;
    uint32_t *content_last; /* per content: index of its last entry in added[] */
    size_t n_added;
    kvr__tok_trie_edge_t *trie_edges;
    size_t trie_cap, trie_nodes;
    int32_t *trie_match;   /* per node: added index ending here or -1 */
    bool added_first[256]; /* bytes an added token's content starts with */

    kvr__tok_norm_t norms[KVR__TOK_MAX_STEPS];
    size_t n_norms;
    bool remove_space;

    kvr__tok_split_t splits[KVR__TOK_MAX_STEPS];
    size_t n_splits;
    bool byte_level_prefix_space;
    pcre2_code *byte_level_re; /* ByteLevel's own regex when use_regex */

    kvr__tok_wrap_t wraps[KVR__TOK_MAX_STEPS];
    size_t n_wraps;
    size_t vocab_size;
    uint64_t fingerprint; /* of the files' bytes: equal files, equal ids */
};

/** Fills the tokenizer's fields from the two documents. */
int kvr__tok_load(kvr_tokenizer_t *tok, const char *json, size_t json_len, const char *config,
                  size_t config_len, char *err, size_t err_len);

/** Compiles a tokenizer.json regex the way a JavaScript engine reads it ("gu"). */
int kvr__tok_regex_compile(const char *pattern, size_t len, bool literal, pcre2_code **out,
                           char *err, size_t err_len);

/** Whether S is well-formed UTF-8 (no surrogates, nothing past U+10FFFF). */
bool kvr__tok_utf8_valid(const char *s, size_t len);

/** Whether CP is whitespace to JavaScript (\s, trim). */
bool kvr__tok_is_js_space(uint32_t cp);

/* The bytes-to-unicode alphabet of byte-level BPE. */
uint32_t kvr__tok_byte_char(uint8_t byte);
/** Byte-level string (UTF-8) back to raw bytes; -EINVAL when a character is not in the alphabet. */
int kvr__tok_byte_level_decode(const char *s, size_t len, char *out, size_t *out_len);

/* A piece already merged in this encode call: its bytes and ids in the scratch's arenas. */
typedef struct kvr__tok_word_s {
    uint64_t hash; /* 0 = empty slot */
    uint32_t bytes_off, ids_off;
    uint16_t bytes_len, ids_len;
} kvr__tok_word_t;

/* Scratch of one encode call. */
typedef struct kvr__tok_bpe_scratch_s {
    uint32_t *sym;
    int32_t *next, *prev;
    uint32_t *rank,
        *merged; /* per symbol: the merge with its right neighbour, rank UINT32_MAX: none */
    kvr__tok_pair_t
        *recent;       /* the merge table's last answers, direct-mapped (rank UINT32_MAX: none) */
    size_t recent_cap; /* a power of two, set before the first piece by the text's length */
    uint64_t *heap;
    size_t cap, heap_cap;
    /* Pieces seen before in the call (words repeat): bytes -> ids without merging again. */
    kvr__tok_word_t *words;
    size_t words_cap, words_n;
    char *word_bytes;
    size_t word_bytes_len, word_bytes_cap;
    uint32_t *word_ids;
    size_t word_ids_len, word_ids_cap;
} kvr__tok_bpe_scratch_t;

/** Encodes one pre-token (raw bytes) with the BPE model, appending ids. */
int kvr__tok_bpe_piece(const kvr_tokenizer_t *tok, kvr__tok_bpe_scratch_t *s, const char *piece,
                       size_t len, kvr_token_ids_t *ids);
void kvr__tok_bpe_scratch_close(kvr__tok_bpe_scratch_t *s);

void kvr__tok_ids_push(kvr_token_ids_t *ids, uint32_t id);

/** Positions in S (well-formed UTF-8) where it may be cut and encoded in parts; up to CAP. */
size_t kvr__tok_cut_points(const kvr_tokenizer_t *tok, const char *s, size_t len, size_t *cuts,
                           size_t cap);

/**
 * Encodes s[bounds[i], bounds[i + 1]) for i < n_ranges (well-formed UTF-8, no
 * special tokens) one after the other, appending to ids; ends[i] is ids->len
 * after range i. On failure nothing is appended.
 */
int kvr__tok_encode_ranges(const kvr_tokenizer_t *tok, const char *s, const size_t *bounds,
                           size_t n_ranges, kvr_token_ids_t *ids, size_t *ends);

#endif
