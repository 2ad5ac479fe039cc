/* SPDX-License-Identifier: Apache-2.0 */
/* The tokenizer's two hash maps: interned byte strings and merge pairs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "tokens/internal.h"

void kvr__tok_strmap_init(kvr__tok_strmap_t *m)
{
    memset(m, 0, sizeof *m);
}

void kvr__tok_strmap_close(kvr__tok_strmap_t *m)
{
    free(m->slots);
    free(m->offs);
    free(m->arena);
    memset(m, 0, sizeof *m);
}

const char *kvr__tok_strmap_key(const kvr__tok_strmap_t *m, uint32_t index, size_t *len)
{
    uint64_t o = m->offs[index];
    *len = (size_t)(o & 0xffffffffu);
    /* Only empty keys interned so far leave the arena unallocated. */
    return m->arena ? m->arena + (o >> 32) : "";
}

static size_t strmap_slot(const kvr__tok_strmap_t *m, const char *key, size_t len, bool *found)
{
    size_t mask = m->slot_cap - 1;
    size_t i = (size_t)XXH3_64bits(key, len) & mask;
    for (;;) {
        uint32_t v = m->slots[i];
        if (v == 0) {
            *found = false;
            return i;
        }
        size_t klen;
        const char *k = kvr__tok_strmap_key(m, v - 1, &klen);
        if (klen == len && memcmp(k, key, len) == 0) {
            *found = true;
            return i;
        }
        i = (i + 1) & mask;
    }
}

int64_t kvr__tok_strmap_find(const kvr__tok_strmap_t *m, const char *key, size_t len)
{
    if (m->slot_cap == 0)
        return -1;
    bool found;
    size_t i = strmap_slot(m, key, len, &found);
    return found ? (int64_t)m->slots[i] - 1 : -1;
}

static int strmap_rehash(kvr__tok_strmap_t *m, size_t cap)
{
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -ENOMEM;
    uint32_t *old = m->slots;
    m->slots = slots;
    m->slot_cap = cap;
    for (size_t idx = 0; idx < m->n; idx++) {
        size_t len;
        const char *k = kvr__tok_strmap_key(m, (uint32_t)idx, &len);
        bool found;
        size_t i = strmap_slot(m, k, len, &found);
        m->slots[i] = (uint32_t)idx + 1;
    }
    free(old);
    return 0;
}

static int strmap_grow(kvr__tok_strmap_t *m)
{
    return strmap_rehash(m, m->slot_cap ? m->slot_cap * 2 : 1024);
}

int kvr__tok_strmap_reserve(kvr__tok_strmap_t *m, size_t n)
{
    if (n > KVR__TOK_MAX_SYMBOLS)
        n = KVR__TOK_MAX_SYMBOLS;
    size_t cap = 1024;
    while (cap < 2 * n)
        cap *= 2;
    return cap > m->slot_cap ? strmap_rehash(m, cap) : 0;
}

int kvr__tok_strmap_intern(kvr__tok_strmap_t *m, const char *key, size_t len, uint32_t *index,
                           bool *inserted)
{
    *inserted = false;
    if (len > UINT32_MAX)
        return -E2BIG;
    if (m->slot_cap) {
        bool found;
        size_t i = strmap_slot(m, key, len, &found);
        if (found) {
            *index = m->slots[i] - 1;
            return 0;
        }
    }
    if (m->n >= KVR__TOK_MAX_SYMBOLS)
        return -E2BIG;
    if ((m->n + 1) * 2 > m->slot_cap) {
        int rc = strmap_grow(m);
        if (rc < 0)
            return rc;
    }
    if (m->n == m->n_cap) {
        size_t cap = m->n_cap ? m->n_cap * 2 : 1024;
        uint64_t *offs = realloc(m->offs, cap * sizeof *offs);
        if (!offs)
            return -ENOMEM;
        m->offs = offs;
        m->n_cap = cap;
    }
    if (m->arena_len + len > UINT32_MAX)
        return -E2BIG;
    if (m->arena_len + len > m->arena_cap) {
        size_t cap = m->arena_cap ? m->arena_cap : 4096;
        while (cap < m->arena_len + len)
            cap *= 2;
        char *arena = realloc(m->arena, cap);
        if (!arena)
            return -ENOMEM;
        m->arena = arena;
        m->arena_cap = cap;
    }
    if (len)
        memcpy(m->arena + m->arena_len, key, len);
    m->offs[m->n] = (uint64_t)m->arena_len << 32 | (uint64_t)len;
    m->arena_len += len;
    bool found;
    size_t i = strmap_slot(m, key, len, &found);
    m->slots[i] = (uint32_t)m->n + 1;
    *index = (uint32_t)m->n++;
    *inserted = true;
    return 0;
}

void kvr__tok_pairmap_init(kvr__tok_pairmap_t *m)
{
    memset(m, 0, sizeof *m);
}

void kvr__tok_pairmap_close(kvr__tok_pairmap_t *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

static kvr__tok_pair_t *pair_slot(kvr__tok_pair_t *slots, size_t cap, uint64_t key)
{
    size_t mask = cap - 1;
    for (size_t i = kvr__tok_pair_hash(key) & mask;; i = (i + 1) & mask) {
        if (slots[i].key == key || slots[i].key == UINT64_MAX)
            return &slots[i];
    }
}

static int pairmap_rehash(kvr__tok_pairmap_t *m, size_t cap)
{
    kvr__tok_pair_t *slots = malloc(cap * sizeof *slots);
    if (!slots)
        return -ENOMEM;
    for (size_t i = 0; i < cap; i++)
        slots[i].key = UINT64_MAX;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->slots[i].key != UINT64_MAX)
            *pair_slot(slots, cap, m->slots[i].key) = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

int kvr__tok_pairmap_reserve(kvr__tok_pairmap_t *m, size_t n)
{
    if (n > KVR__TOK_MAX_SYMBOLS)
        n = KVR__TOK_MAX_SYMBOLS;
    size_t cap = 1024;
    while (cap < 2 * n)
        cap *= 2;
    return cap > m->cap ? pairmap_rehash(m, cap) : 0;
}

int kvr__tok_pairmap_put(kvr__tok_pairmap_t *m, uint32_t left, uint32_t right, uint32_t rank,
                         uint32_t merged)
{
    if ((m->n + 1) * 2 > m->cap) {
        int rc = pairmap_rehash(m, m->cap ? m->cap * 2 : 1024);
        if (rc < 0)
            return rc;
    }
    uint64_t key = (uint64_t)left << 32 | right;
    kvr__tok_pair_t *p = pair_slot(m->slots, m->cap, key);
    if (p->key == UINT64_MAX)
        m->n++;
    p->key = key;
    p->rank = rank;
    p->merged = merged;
    return 0;
}
