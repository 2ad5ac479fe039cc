/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Byte-level BPE on one pre-token: the byte alphabet, and merges applied by
 * rank (lowest first, leftmost on a tie) with a heap over a linked list of
 * symbols, so a long pre-token costs O(n log n).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "common/xmalloc.h"
#include "tokens/internal.h"

/* Pieces longer than this are merged every time (they rarely repeat); so many are remembered. */
#define WORD_MAX_BYTES 64
#define WORDS_MAX_SLOTS (1u << 17)
/* The merge table is megabytes, read at random; its recent answers fit in a core's L2. */
#define RECENT_PAIRS_MAX 32768

/*
 * GPT-2's bytes_to_unicode: printable bytes map to themselves; the other 68
 * (0x00-0x20, 0x7f-0xa0, 0xad) to U+0100 on, in byte order.
 */
uint32_t kvr__tok_byte_char(uint8_t b)
{
    if (b <= 0x20)
        return 0x100 + b;
    if (b >= 0x7f && b <= 0xa0)
        return 0x100 + 33 + (uint32_t)(b - 0x7f);
    if (b == 0xad)
        return 0x100 + 67;
    return b;
}

static int char_byte(uint32_t cp)
{
    if ((cp >= 0x21 && cp <= 0x7e) || (cp >= 0xa1 && cp <= 0xac) || (cp >= 0xae && cp <= 0xff))
        return (int)cp;
    if (cp < 0x100 || cp >= 0x100 + 68)
        return -1;
    uint32_t k = cp - 0x100;
    if (k < 33)
        return (int)k;
    if (k < 67)
        return (int)(0x7f + k - 33);
    return 0xad;
}

int kvr__tok_byte_level_decode(const char *s, size_t len, char *out, size_t *out_len)
{
    const uint8_t *p = (const uint8_t *)s;
    size_t i = 0, o = 0;
    while (i < len) {
        uint32_t cp;
        if (p[i] < 0x80) {
            cp = p[i++];
        } else if ((p[i] & 0xe0) == 0xc0 && i + 1 < len && (p[i + 1] & 0xc0) == 0x80) {
            cp = (uint32_t)(p[i] & 0x1f) << 6 | (p[i + 1] & 0x3f);
            i += 2;
        } else {
            return -EINVAL; /* every alphabet character is one or two bytes */
        }
        int b = char_byte(cp);
        if (b < 0)
            return -EINVAL;
        out[o++] = (char)b;
    }
    *out_len = o;
    return 0;
}

void kvr__tok_ids_push(kvr_token_ids_t *ids, uint32_t id)
{
    if (ids->len == ids->cap) {
        size_t cap = ids->cap ? ids->cap * 2 : 256;
        ids->ids = kvr_xrealloc(ids->ids, cap * sizeof *ids->ids);
        ids->cap = cap;
    }
    ids->ids[ids->len++] = id;
}

void kvr__tok_bpe_scratch_close(kvr__tok_bpe_scratch_t *s)
{
    free(s->sym);
    free(s->next);
    free(s->prev);
    free(s->rank);
    free(s->merged);
    free(s->recent);
    free(s->heap);
    free(s->words);
    free(s->word_bytes);
    free(s->word_ids);
    memset(s, 0, sizeof *s);
}

static void heap_push(kvr__tok_bpe_scratch_t *s, size_t *n, uint64_t v)
{
    if (*n == s->heap_cap) {
        s->heap_cap = s->heap_cap ? s->heap_cap * 2 : 256;
        s->heap = kvr_xrealloc(s->heap, s->heap_cap * sizeof *s->heap);
    }
    size_t i = (*n)++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (s->heap[parent] <= v)
            break;
        s->heap[i] = s->heap[parent];
        i = parent;
    }
    s->heap[i] = v;
}

static uint64_t heap_pop(kvr__tok_bpe_scratch_t *s, size_t *n)
{
    uint64_t top = s->heap[0];
    uint64_t v = s->heap[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && s->heap[c + 1] < s->heap[c])
            c++;
        if (v <= s->heap[c])
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (*n)
        s->heap[i] = v;
    return top;
}

/*
 * The merge of LEFT with its right neighbour, remembered per symbol and
 * pushed on the heap ordered by (rank, position of the left symbol). Every
 * change to a symbol or to its right neighbour comes through here, so an
 * entry popped with another rank than its symbol's is stale (a pair has one
 * rank), and no second lookup is needed to tell.
 */
static const kvr__tok_pair_t *pair_get(const kvr_tokenizer_t *tok, kvr__tok_bpe_scratch_t *s,
                                       uint32_t left, uint32_t right)
{
    uint64_t key = (uint64_t)left << 32 | right;
    kvr__tok_pair_t *r = &s->recent[kvr__tok_pair_hash(key) & (s->recent_cap - 1)];
    if (r->key != key) {
        const kvr__tok_pair_t *p = kvr__tok_pairmap_get(&tok->merges, left, right);
        *r = p ? *p : (kvr__tok_pair_t){.key = key, .rank = UINT32_MAX};
    }
    return r->rank == UINT32_MAX ? NULL : r;
}

static void push_pair(const kvr_tokenizer_t *tok, kvr__tok_bpe_scratch_t *s, size_t *n,
                      int32_t left)
{
    int32_t right = s->next[left];
    const kvr__tok_pair_t *p = right < 0 ? NULL : pair_get(tok, s, s->sym[left], s->sym[right]);
    if (!p) {
        s->rank[left] = UINT32_MAX;
        return;
    }
    s->rank[left] = p->rank;
    s->merged[left] = p->merged;
    heap_push(s, n, (uint64_t)p->rank << 32 | (uint32_t)left);
}

static int emit_symbol(const kvr_tokenizer_t *tok, uint32_t sym, kvr_token_ids_t *ids)
{
    uint32_t id = tok->symbol_id[sym];
    if (id != KVR__TOK_NO_ID) {
        kvr__tok_ids_push(ids, id);
        return 0;
    }
    if (tok->byte_fallback) {
        size_t len;
        const char *k = kvr__tok_strmap_key(&tok->symbols, sym, &len);
        bool all = true;
        for (size_t i = 0; i < len; i++)
            all = all && tok->byte_fallback_id[(uint8_t)k[i]] != KVR__TOK_NO_ID;
        if (all) {
            for (size_t i = 0; i < len; i++)
                kvr__tok_ids_push(ids, tok->byte_fallback_id[(uint8_t)k[i]]);
            return 0;
        }
    }
    if (tok->unk_id == KVR__TOK_NO_ID)
        return -ENOENT; /* no id for this piece and no unknown token */
    kvr__tok_ids_push(ids, tok->unk_id);
    return 0;
}

static int bpe_merge(const kvr_tokenizer_t *tok, kvr__tok_bpe_scratch_t *s, const char *piece,
                     size_t len, kvr_token_ids_t *ids)
{
    if (tok->ignore_merges || len == 0) {
        /* The whole pre-token as one vocabulary entry wins over merging. */
        int64_t sym = kvr__tok_strmap_find(&tok->symbols, piece, len);
        if (sym >= 0 && tok->symbol_id[sym] != KVR__TOK_NO_ID) {
            kvr__tok_ids_push(ids, tok->symbol_id[sym]);
            return 0;
        }
        if (len == 0)
            return 0;
    }
    if (len == 1)
        return emit_symbol(tok, tok->byte_symbol[(uint8_t)piece[0]], ids);
    if (len > INT32_MAX)
        return -E2BIG;
    if (len > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < len)
            cap *= 2;
        s->sym = kvr_xrealloc(s->sym, cap * sizeof *s->sym);
        s->next = kvr_xrealloc(s->next, cap * sizeof *s->next);
        s->prev = kvr_xrealloc(s->prev, cap * sizeof *s->prev);
        s->rank = kvr_xrealloc(s->rank, cap * sizeof *s->rank);
        s->merged = kvr_xrealloc(s->merged, cap * sizeof *s->merged);
        s->cap = cap;
    }
    if (!s->recent) {
        /* Filling a table costs its size: a short text gets a small one. */
        size_t cap = 256;
        while (cap < RECENT_PAIRS_MAX && cap < s->recent_cap)
            cap *= 2;
        s->recent_cap = cap;
        s->recent = kvr_xmalloc(cap * sizeof *s->recent);
        for (size_t i = 0; i < cap; i++)
            s->recent[i].key = UINT64_MAX; /* no pair of symbols has this key */
    }
    for (size_t i = 0; i < len; i++) {
        s->sym[i] = tok->byte_symbol[(uint8_t)piece[i]];
        s->prev[i] = (int32_t)i - 1;
        s->next[i] = i + 1 < len ? (int32_t)i + 1 : -1;
    }
    /* The first lookups are independent: start each a few pairs ahead so their misses overlap. */
    enum { AHEAD = 8 };
    for (size_t i = 0; i + 1 < len && i < AHEAD; i++)
        kvr__tok_pairmap_prefetch(&tok->merges, s->sym[i], s->sym[i + 1]);
    size_t n = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (i + AHEAD + 1 < len)
            kvr__tok_pairmap_prefetch(&tok->merges, s->sym[i + AHEAD], s->sym[i + AHEAD + 1]);
        push_pair(tok, s, &n, (int32_t)i);
    }
    s->rank[len - 1] = UINT32_MAX;
    while (n) {
        uint64_t top = heap_pop(s, &n);
        uint32_t rank = (uint32_t)(top >> 32);
        int32_t left = (int32_t)(uint32_t)top;
        if (s->sym[left] == KVR__TOK_NO_ID || s->rank[left] != rank)
            continue;
        int32_t right = s->next[left];
        s->sym[left] = s->merged[left];
        s->sym[right] = KVR__TOK_NO_ID;
        s->rank[right] = UINT32_MAX;
        s->next[left] = s->next[right];
        if (s->next[left] >= 0)
            s->prev[s->next[left]] = left;
        int32_t before = s->prev[left];
        if (before >= 0)
            kvr__tok_pairmap_prefetch(&tok->merges, s->sym[before], s->sym[left]);
        if (s->next[left] >= 0)
            kvr__tok_pairmap_prefetch(&tok->merges, s->sym[left], s->sym[s->next[left]]);
        if (before >= 0)
            push_pair(tok, s, &n, before);
        push_pair(tok, s, &n, left);
    }
    for (int32_t i = 0; i >= 0; i = s->next[i]) {
        int rc = emit_symbol(tok, s->sym[i], ids);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static kvr__tok_word_t *word_slot(kvr__tok_word_t *words, size_t cap, uint64_t hash,
                                  const char *bytes, const char *piece, size_t len)
{
    size_t mask = cap - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        kvr__tok_word_t *w = &words[i];
        if (w->hash == 0 || (w->hash == hash && w->bytes_len == len &&
                             memcmp(bytes + w->bytes_off, piece, len) == 0))
            return w;
    }
}

/* Remembers PIECE's ids; quietly does nothing once the table is at its bound. */
static void word_put(kvr__tok_bpe_scratch_t *s, uint64_t hash, const char *piece, size_t len,
                     const uint32_t *ids, size_t n)
{
    if (n > WORD_MAX_BYTES)
        return;
    if ((s->words_n + 1) * 2 > s->words_cap) {
        if (s->words_cap >= WORDS_MAX_SLOTS)
            return;
        size_t cap = s->words_cap ? s->words_cap * 2 : 512;
        kvr__tok_word_t *words = kvr_xcalloc(cap, sizeof *words);
        for (size_t i = 0; i < s->words_cap; i++) {
            kvr__tok_word_t *w = &s->words[i];
            if (w->hash)
                *word_slot(words, cap, w->hash, s->word_bytes, s->word_bytes + w->bytes_off,
                           w->bytes_len) = *w;
        }
        free(s->words);
        s->words = words;
        s->words_cap = cap;
    }
    if (s->word_bytes_len + len > s->word_bytes_cap) {
        s->word_bytes_cap = s->word_bytes_cap ? s->word_bytes_cap * 2 : 8192;
        s->word_bytes = kvr_xrealloc(s->word_bytes, s->word_bytes_cap);
    }
    if (s->word_ids_len + n > s->word_ids_cap) {
        s->word_ids_cap = s->word_ids_cap ? s->word_ids_cap * 2 : 2048;
        s->word_ids = kvr_xrealloc(s->word_ids, s->word_ids_cap * sizeof *s->word_ids);
    }
    kvr__tok_word_t *w = word_slot(s->words, s->words_cap, hash, s->word_bytes, piece, len);
    memcpy(s->word_bytes + s->word_bytes_len, piece, len);
    memcpy(s->word_ids + s->word_ids_len, ids, n * sizeof *ids);
    *w = (kvr__tok_word_t){.hash = hash,
                           .bytes_off = (uint32_t)s->word_bytes_len,
                           .ids_off = (uint32_t)s->word_ids_len,
                           .bytes_len = (uint16_t)len,
                           .ids_len = (uint16_t)n};
    s->word_bytes_len += len;
    s->word_ids_len += n;
    s->words_n++;
}

int kvr__tok_bpe_piece(const kvr_tokenizer_t *tok, kvr__tok_bpe_scratch_t *s, const char *piece,
                       size_t len, kvr_token_ids_t *ids)
{
    if (len < 2 || len > WORD_MAX_BYTES)
        return bpe_merge(tok, s, piece, len, ids);
    uint64_t hash = XXH3_64bits(piece, len) | 1; /* never 0, the empty slot */
    if (s->words_cap) {
        const kvr__tok_word_t *w = word_slot(s->words, s->words_cap, hash, s->word_bytes, piece,
                                             len);
        if (w->hash) {
            for (size_t i = 0; i < w->ids_len; i++)
                kvr__tok_ids_push(ids, s->word_ids[w->ids_off + i]);
            return 0;
        }
    }
    size_t base = ids->len;
    int rc = bpe_merge(tok, s, piece, len, ids);
    if (rc == 0)
        word_put(s, hash, piece, len, ids->ids + base, ids->len - base);
    return rc;
}
