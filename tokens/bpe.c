/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Byte-level BPE on one pre-token: the byte alphabet, and merges applied by
 * rank (lowest first, leftmost on a tie) with a heap over a linked list of
 * symbols, so a long pre-token costs O(n log n).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "tokens/internal.h"

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
    free(s->heap);
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

/* Heap entries order by (rank, position of the left symbol). */
static void push_pair(const kvr_tokenizer_t *tok, kvr__tok_bpe_scratch_t *s, size_t *n,
                      int32_t left)
{
    int32_t right = s->next[left];
    if (right < 0)
        return;
    const kvr__tok_pair_t *p = kvr__tok_pairmap_get(&tok->merges, s->sym[left], s->sym[right]);
    if (p)
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

int kvr__tok_bpe_piece(const kvr_tokenizer_t *tok, kvr__tok_bpe_scratch_t *s, const char *piece,
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
        s->cap = cap;
    }
    for (size_t i = 0; i < len; i++) {
        s->sym[i] = tok->byte_symbol[(uint8_t)piece[i]];
        s->prev[i] = (int32_t)i - 1;
        s->next[i] = i + 1 < len ? (int32_t)i + 1 : -1;
    }
    size_t n = 0;
    for (size_t i = 0; i + 1 < len; i++)
        push_pair(tok, s, &n, (int32_t)i);
    while (n) {
        uint64_t top = heap_pop(s, &n);
        uint32_t rank = (uint32_t)(top >> 32);
        int32_t left = (int32_t)(uint32_t)top;
        int32_t right = s->next[left];
        if (s->sym[left] == KVR__TOK_NO_ID || right < 0)
            continue;
        /* A pair has one rank, so an equal rank means the entry is current. */
        const kvr__tok_pair_t *p = kvr__tok_pairmap_get(&tok->merges, s->sym[left], s->sym[right]);
        if (!p || p->rank != rank)
            continue;
        s->sym[left] = p->merged;
        s->sym[right] = KVR__TOK_NO_ID;
        s->next[left] = s->next[right];
        if (s->next[left] >= 0)
            s->prev[s->next[left]] = left;
        if (s->prev[left] >= 0)
            push_pair(tok, s, &n, s->prev[left]);
        push_pair(tok, s, &n, left);
    }
    for (int32_t i = 0; i >= 0; i = s->next[i]) {
        int rc = emit_symbol(tok, s->sym[i], ids);
        if (rc < 0)
            return rc;
    }
    return 0;
}
