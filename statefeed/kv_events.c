/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The KV event decoder (kv_events.h). A small msgpack cursor reads the batch
 * in place: msgpack-c's unpacker would allocate every container as soon as it
 * reads the header, and the events' arrays (token ids by the thousand) only
 * need copying into fixed scratch.
 */
#include "statefeed/kv_events.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#define SKIP_MAX_DEPTH 16

typedef struct cursor_s {
    const uint8_t *p;
    size_t len, off;
    const char *why;
} cursor_t;

static int bad(cursor_t *c, const char *why)
{
    if (c->why == NULL)
        c->why = why;
    return -EBADMSG;
}

static uint64_t be_read(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

static int take(cursor_t *c, size_t n, const uint8_t **out)
{
    if (n > c->len - c->off)
        return bad(c, "truncated");
    *out = c->p + c->off;
    c->off += n;
    return 0;
}

static int peek(cursor_t *c, uint8_t *b)
{
    if (c->off >= c->len)
        return bad(c, "truncated");
    *b = c->p[c->off];
    return 0;
}

static bool is_nil(cursor_t *c)
{
    return c->off < c->len && c->p[c->off] == 0xc0;
}

/* An integer of any msgpack width: *neg set for a negative value, v its two's complement. */
static int read_int(cursor_t *c, uint64_t *v, bool *neg)
{
    uint8_t b;
    const uint8_t *q;
    if (peek(c, &b) < 0)
        return -EBADMSG;
    *neg = false;
    if (b <= 0x7f) {
        c->off++;
        *v = b;
        return 0;
    }
    if (b >= 0xe0) {
        c->off++;
        *v = (uint64_t)(int64_t)(int8_t)b;
        *neg = true;
        return 0;
    }
    size_t n;
    bool is_signed;
    switch (b) {
    case 0xcc: n = 1, is_signed = false; break;
    case 0xcd: n = 2, is_signed = false; break;
    case 0xce: n = 4, is_signed = false; break;
    case 0xcf: n = 8, is_signed = false; break;
    case 0xd0: n = 1, is_signed = true; break;
    case 0xd1: n = 2, is_signed = true; break;
    case 0xd2: n = 4, is_signed = true; break;
    case 0xd3: n = 8, is_signed = true; break;
    default: return bad(c, "expected an integer");
    }
    c->off++;
    if (take(c, n, &q) < 0)
        return -EBADMSG;
    uint64_t raw = be_read(q, n);
    if (is_signed) {
        unsigned shift = (unsigned)(64 - 8 * n);
        int64_t s = (int64_t)(raw << shift) >> shift;
        *v = (uint64_t)s;
        *neg = s < 0;
    } else {
        *v = raw;
    }
    return 0;
}

static int read_uint(cursor_t *c, uint64_t max, uint64_t *v)
{
    bool neg;
    if (read_int(c, v, &neg) < 0)
        return -EBADMSG;
    if (neg || *v > max)
        return bad(c, "integer out of range");
    return 0;
}

static int read_double(cursor_t *c, double *v)
{
    uint8_t b;
    const uint8_t *q;
    if (peek(c, &b) < 0)
        return -EBADMSG;
    if (b == 0xca || b == 0xcb) {
        c->off++;
        size_t n = b == 0xca ? 4 : 8;
        if (take(c, n, &q) < 0)
            return -EBADMSG;
        uint64_t raw = be_read(q, n);
        if (n == 4) {
            uint32_t r32 = (uint32_t)raw;
            float f;
            memcpy(&f, &r32, 4);
            *v = f;
        } else {
            memcpy(v, &raw, 8);
        }
        return 0;
    }
    uint64_t i;
    bool neg;
    if (read_int(c, &i, &neg) < 0)
        return -EBADMSG;
    *v = neg ? (double)(int64_t)i : (double)i;
    return 0;
}

/* A str or bin: *p and *n into the buffer. */
static int read_bytes(cursor_t *c, bool allow_bin, const uint8_t **p, size_t *n)
{
    uint8_t b;
    const uint8_t *q;
    if (peek(c, &b) < 0)
        return -EBADMSG;
    size_t len_bytes;
    if ((b & 0xe0) == 0xa0) {
        c->off++;
        return take(c, b & 0x1fu, p) < 0 ? -EBADMSG : (*n = b & 0x1fu, 0);
    }
    switch (b) {
    case 0xd9: len_bytes = 1; break;
    case 0xda: len_bytes = 2; break;
    case 0xdb: len_bytes = 4; break;
    case 0xc4: len_bytes = allow_bin ? 1 : 0; break;
    case 0xc5: len_bytes = allow_bin ? 2 : 0; break;
    case 0xc6: len_bytes = allow_bin ? 4 : 0; break;
    default: len_bytes = 0; break;
    }
    if (len_bytes == 0)
        return bad(c, allow_bin ? "expected bytes" : "expected a string");
    c->off++;
    if (take(c, len_bytes, &q) < 0)
        return -EBADMSG;
    size_t len = (size_t)be_read(q, len_bytes);
    if (take(c, len, p) < 0)
        return -EBADMSG;
    *n = len;
    return 0;
}

static int read_container(cursor_t *c, bool map, size_t *n)
{
    uint8_t b;
    const uint8_t *q;
    if (peek(c, &b) < 0)
        return -EBADMSG;
    size_t len_bytes = 0;
    if (!map && (b & 0xf0) == 0x90) {
        c->off++;
        *n = b & 0x0fu;
        return 0;
    }
    if (map && (b & 0xf0) == 0x80) {
        c->off++;
        *n = b & 0x0fu;
        return 0;
    }
    if (b == (map ? 0xde : 0xdc))
        len_bytes = 2;
    else if (b == (map ? 0xdf : 0xdd))
        len_bytes = 4;
    else
        return bad(c, map ? "expected a map" : "expected an array");
    c->off++;
    if (take(c, len_bytes, &q) < 0)
        return -EBADMSG;
    *n = (size_t)be_read(q, len_bytes);
    /* every element takes at least one byte (two for a map entry) */
    if (*n > (c->len - c->off) / (map ? 2 : 1))
        return bad(c, "container longer than the message");
    return 0;
}

/* Skips one object of any type, nesting at most SKIP_MAX_DEPTH deep. */
static int skip(cursor_t *c)
{
    uint64_t pending[SKIP_MAX_DEPTH + 1];
    int depth = 0;
    pending[0] = 1;
    while (depth >= 0) {
        if (pending[depth] == 0) {
            depth--;
            continue;
        }
        pending[depth]--;
        uint8_t b;
        const uint8_t *q;
        if (peek(c, &b) < 0)
            return -EBADMSG;
        uint64_t items = 0;
        size_t n = 0;
        if ((b & 0xf0) == 0x90 || (b & 0xf0) == 0x80 || b == 0xdc || b == 0xdd || b == 0xde ||
            b == 0xdf) {
            bool map = (b & 0xf0) == 0x80 || b == 0xde || b == 0xdf;
            if (read_container(c, map, &n) < 0)
                return -EBADMSG;
            items = map ? 2 * (uint64_t)n : n;
            if (items > 0) {
                if (depth == SKIP_MAX_DEPTH)
                    return bad(c, "nested too deep");
                pending[++depth] = items;
            }
            continue;
        }
        c->off++;
        size_t fixed = 0, len_bytes = 0;
        if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3)
            fixed = 0;
        else if ((b & 0xe0) == 0xa0)
            fixed = b & 0x1fu;
        else
            switch (b) {
            case 0xc4:
            case 0xd9: len_bytes = 1; break;
            case 0xc5:
            case 0xda: len_bytes = 2; break;
            case 0xc6:
            case 0xdb: len_bytes = 4; break;
            case 0xc7: len_bytes = 1, fixed = 1; break;
            case 0xc8: len_bytes = 2, fixed = 1; break;
            case 0xc9: len_bytes = 4, fixed = 1; break;
            case 0xcc:
            case 0xd0: fixed = 1; break;
            case 0xcd:
            case 0xd1: fixed = 2; break;
            case 0xca:
            case 0xce:
            case 0xd2: fixed = 4; break;
            case 0xcb:
            case 0xcf:
            case 0xd3: fixed = 8; break;
            case 0xd4: fixed = 2; break;
            case 0xd5: fixed = 3; break;
            case 0xd6: fixed = 5; break;
            case 0xd7: fixed = 9; break;
            case 0xd8: fixed = 17; break;
            default: return bad(c, "unknown msgpack type");
            }
        if (len_bytes) {
            if (take(c, len_bytes, &q) < 0)
                return -EBADMSG;
            uint64_t extra = be_read(q, len_bytes);
            if (extra > c->len - c->off)
                return bad(c, "truncated");
            fixed += (size_t)extra;
        }
        if (take(c, fixed, &q) < 0)
            return -EBADMSG;
    }
    return 0;
}

/* An engine block hash: an integer (int64 or uint64: both are 64-bit keys) or bytes (hashed). */
static int read_hash(cursor_t *c, uint64_t *h)
{
    uint8_t b;
    if (peek(c, &b) < 0)
        return -EBADMSG;
    if ((b >= 0xc4 && b <= 0xc6) || (b & 0xe0) == 0xa0 || (b >= 0xd9 && b <= 0xdb)) {
        const uint8_t *p;
        size_t n;
        if (read_bytes(c, true, &p, &n) < 0)
            return -EBADMSG;
        *h = XXH3_64bits(p, n);
        return 0;
    }
    bool neg;
    return read_int(c, h, &neg) < 0 ? bad(c, "block hash is not an integer or bytes") : 0;
}

static int read_hashes(kvr_kv_decoder_t *d, cursor_t *c, kvr_kv_event_t *ev)
{
    size_t n;
    if (read_container(c, false, &n) < 0)
        return -EBADMSG;
    if (n > KVR_KV_MAX_BLOCKS)
        return c->why = "too many block hashes", -E2BIG;
    for (size_t i = 0; i < n; i++)
        if (read_hash(c, &d->hashes[i]) < 0)
            return -EBADMSG;
    ev->engine_hashes = d->hashes;
    ev->n_hashes = n;
    return 0;
}

static int read_tokens(kvr_kv_decoder_t *d, cursor_t *c, kvr_kv_event_t *ev)
{
    size_t n;
    if (read_container(c, false, &n) < 0)
        return -EBADMSG;
    if (n > KVR_KV_MAX_TOKENS)
        return c->why = "too many token ids", -E2BIG;
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        if (read_uint(c, UINT32_MAX, &v) < 0)
            return bad(c, "token id out of range");
        d->tokens[i] = (uint32_t)v;
    }
    ev->token_ids = d->tokens;
    ev->n_tokens = n;
    return 0;
}

/* block_size, or the old num_toks_per_block list (one count per block, all equal). */
static int read_block_size(cursor_t *c, kvr_kv_event_t *ev)
{
    uint8_t b;
    if (peek(c, &b) < 0)
        return -EBADMSG;
    uint64_t v = 0;
    if ((b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd) {
        size_t n;
        if (read_container(c, false, &n) < 0)
            return -EBADMSG;
        for (size_t i = 0; i < n; i++) {
            uint64_t each;
            if (read_uint(c, KVR_KV_MAX_BLOCK_SIZE, &each) < 0)
                return -EBADMSG;
            if (i > 0 && each != v)
                return bad(c, "blocks of different sizes");
            v = each;
        }
    } else if (read_uint(c, KVR_KV_MAX_BLOCK_SIZE, &v) < 0) {
        return -EBADMSG;
    }
    if (v == 0)
        return bad(c, "block size 0");
    ev->block_size = (uint32_t)v;
    return 0;
}

static int read_parent(cursor_t *c, kvr_kv_event_t *ev)
{
    if (is_nil(c)) {
        c->off++;
        ev->has_parent = false;
        return 0;
    }
    ev->has_parent = true;
    return read_hash(c, &ev->parent);
}

static int read_opt_uint_present(cursor_t *c, bool *present)
{
    if (is_nil(c)) {
        c->off++;
        *present = false;
        return 0;
    }
    uint64_t v;
    bool neg;
    *present = true;
    return read_int(c, &v, &neg);
}

static int read_medium(cursor_t *c, kvr_kv_event_t *ev)
{
    if (is_nil(c)) {
        c->off++;
        ev->tier = KVR_KV_TIER_GPU;
        return 0;
    }
    const uint8_t *p;
    size_t n;
    if (read_bytes(c, false, &p, &n) < 0)
        return -EBADMSG;
    if (n >= 3 && memcmp(p, "GPU", 3) == 0)
        ev->tier = KVR_KV_TIER_GPU;
    else if (n >= 3 && memcmp(p, "CPU", 3) == 0)
        ev->tier = KVR_KV_TIER_CPU;
    else
        ev->tier = KVR_KV_TIER_OTHER;
    return 0;
}

static int read_lora_name(kvr_kv_decoder_t *d, cursor_t *c, kvr_kv_event_t *ev)
{
    if (is_nil(c)) {
        c->off++;
        return 0;
    }
    const uint8_t *p;
    size_t n;
    if (read_bytes(c, false, &p, &n) < 0)
        return -EBADMSG;
    if (n >= sizeof d->lora_name)
        return c->why = "adapter name too long", -E2BIG;
    memcpy(d->lora_name, p, n);
    d->lora_name[n] = '\0';
    ev->lora_name = n ? d->lora_name : NULL;
    ev->lora_name_len = n;
    return 0;
}

/* extra_keys: nil, or one entry per block (nil or a tuple): the first block with keys. */
static int read_extra_keys(cursor_t *c, kvr_kv_event_t *ev)
{
    if (is_nil(c)) {
        c->off++;
        return 0;
    }
    size_t n;
    if (read_container(c, false, &n) < 0)
        return -EBADMSG;
    for (size_t i = 0; i < n; i++) {
        if (is_nil(c)) {
            c->off++;
            continue;
        }
        if (i < ev->extra_keys_from)
            ev->extra_keys_from = i;
        if (skip(c) < 0)
            return -EBADMSG;
    }
    return 0;
}

static int read_group(cursor_t *c, kvr_kv_event_t *ev)
{
    if (is_nil(c)) {
        c->off++;
        return 0;
    }
    return read_uint(c, INT32_MAX, (uint64_t *)&ev->group_idx);
}

/* Field readers by name, shared by both encodings; the order is the positional one. */
enum {
    F_BLOCK_HASHES,
    F_PARENT,
    F_TOKEN_IDS,
    F_BLOCK_SIZE,
    F_LORA_ID,
    F_MEDIUM,
    F_LORA_NAME,
    F_EXTRA_KEYS,
    F_GROUP_IDX,
    F_OTHER,
};

static const char *const stored_fields[] = {
    "block_hashes", "parent_block_hash", "token_ids",  "block_size", "lora_id",
    "medium",       "lora_name",         "extra_keys", "group_idx",
};
static const int removed_fields[] = {F_BLOCK_HASHES, F_MEDIUM, F_GROUP_IDX};

static int read_field(kvr_kv_decoder_t *d, cursor_t *c, kvr_kv_event_t *ev, int field)
{
    switch (field) {
    case F_BLOCK_HASHES: return read_hashes(d, c, ev);
    case F_PARENT: return read_parent(c, ev);
    case F_TOKEN_IDS: return read_tokens(d, c, ev);
    case F_BLOCK_SIZE: return read_block_size(c, ev);
    case F_LORA_ID: return read_opt_uint_present(c, &ev->has_lora_id);
    case F_MEDIUM: return read_medium(c, ev);
    case F_LORA_NAME: return read_lora_name(d, c, ev);
    case F_EXTRA_KEYS: return read_extra_keys(c, ev);
    case F_GROUP_IDX: return read_group(c, ev);
    default: return skip(c);
    }
}

static int field_by_name(const uint8_t *p, size_t n)
{
    for (int i = 0; i < (int)(sizeof stored_fields / sizeof stored_fields[0]); i++)
        if (strlen(stored_fields[i]) == n && memcmp(stored_fields[i], p, n) == 0)
            return i;
    if (n == 18 && memcmp(p, "num_toks_per_block", 18) == 0)
        return F_BLOCK_SIZE;
    return F_OTHER;
}

static int kind_by_tag(const uint8_t *p, size_t n, kvr_kv_event_kind_t *kind)
{
    if (n == 11 && memcmp(p, "BlockStored", 11) == 0)
        *kind = KVR_KV_EVENT_STORED;
    else if (n == 12 && memcmp(p, "BlockRemoved", 12) == 0)
        *kind = KVR_KV_EVENT_REMOVED;
    else if (n == 16 && memcmp(p, "AllBlocksCleared", 16) == 0)
        *kind = KVR_KV_EVENT_CLEARED;
    else
        return -EBADMSG;
    return 0;
}

static void event_reset(kvr_kv_event_t *ev)
{
    memset(ev, 0, sizeof(*ev));
    ev->group_idx = -1;
    ev->tier = KVR_KV_TIER_GPU;
    ev->extra_keys_from = SIZE_MAX;
}

/* The fields each kind must carry, as a bit set of F_*. */
static unsigned required_fields(kvr_kv_event_kind_t kind)
{
    if (kind == KVR_KV_EVENT_STORED)
        return 1u << F_BLOCK_HASHES | 1u << F_PARENT | 1u << F_TOKEN_IDS | 1u << F_BLOCK_SIZE;
    if (kind == KVR_KV_EVENT_REMOVED)
        return 1u << F_BLOCK_HASHES;
    return 0;
}

static int finish_event(cursor_t *c, kvr_kv_event_t *ev, unsigned seen)
{
    unsigned need = required_fields(ev->kind);
    if ((seen & need) != need)
        return bad(c, "event lacks a required field");
    if (ev->extra_keys_from > ev->n_hashes)
        ev->extra_keys_from = ev->n_hashes;
    return 0;
}

static int read_event_positional(kvr_kv_decoder_t *d, cursor_t *c, kvr_kv_event_t *ev)
{
    size_t n;
    const uint8_t *tag;
    size_t tag_len;
    if (read_container(c, false, &n) < 0)
        return -EBADMSG;
    if (n == 0 || read_bytes(c, false, &tag, &tag_len) < 0)
        return bad(c, "event array without a tag");
    if (kind_by_tag(tag, tag_len, &ev->kind) < 0)
        return bad(c, "unknown event type");
    unsigned seen = 0;
    for (size_t i = 1; i < n; i++) {
        int field = F_OTHER;
        size_t at = i - 1;
        if (ev->kind == KVR_KV_EVENT_STORED && at < sizeof stored_fields / sizeof stored_fields[0])
            field = (int)at;
        else if (ev->kind == KVR_KV_EVENT_REMOVED &&
                 at < sizeof removed_fields / sizeof removed_fields[0])
            field = removed_fields[at];
        int rc = read_field(d, c, ev, field);
        if (rc < 0)
            return rc;
        if (field != F_OTHER)
            seen |= 1u << field;
    }
    return finish_event(c, ev, seen);
}

/* The next key is "type": reads it and its tag. 1 when it was, 0 when not (nothing read), <0. */
static int read_tag_first(cursor_t *c, kvr_kv_event_t *ev)
{
    size_t at = c->off;
    const char *why = c->why;
    const uint8_t *k;
    size_t kl;
    if (read_bytes(c, false, &k, &kl) < 0 || !(kl == 4 && memcmp(k, "type", 4) == 0)) {
        c->off = at; /* the two passes read it again and say what is wrong */
        c->why = why;
        return 0;
    }
    const uint8_t *tag;
    size_t tag_len;
    if (read_bytes(c, false, &tag, &tag_len) < 0)
        return bad(c, "bad event type");
    if (kind_by_tag(tag, tag_len, &ev->kind) < 0)
        return bad(c, "unknown event type");
    return 1;
}

static int read_event_map(kvr_kv_decoder_t *d, cursor_t *c, kvr_kv_event_t *ev)
{
    size_t n;
    if (read_container(c, true, &n) < 0)
        return -EBADMSG;
    /*
     * msgspec writes the tag first, and then one pass reads the fields. The tag may also come
     * after them: then it is found first, and the fields read in a second pass.
     */
    int first = n > 0 ? read_tag_first(c, ev) : 0;
    if (first < 0)
        return first;
    bool one_pass = first == 1;
    size_t start = c->off;
    size_t end = 0;
    if (!one_pass) {
        bool tagged = false;
        for (size_t i = 0; i < n; i++) {
            const uint8_t *k;
            size_t kl;
            if (read_bytes(c, false, &k, &kl) < 0)
                return bad(c, "event key is not a string");
            if (kl == 4 && memcmp(k, "type", 4) == 0) {
                const uint8_t *tag;
                size_t tag_len;
                if (tagged || read_bytes(c, false, &tag, &tag_len) < 0)
                    return bad(c, "bad event type");
                if (kind_by_tag(tag, tag_len, &ev->kind) < 0)
                    return bad(c, "unknown event type");
                tagged = true;
            } else if (skip(c) < 0) {
                return -EBADMSG;
            }
        }
        if (!tagged)
            return bad(c, "event map without a type");
        end = c->off;
        c->off = start;
    }
    unsigned seen = 0;
    for (size_t i = one_pass ? 1 : 0; i < n; i++) {
        const uint8_t *k;
        size_t kl;
        if (read_bytes(c, false, &k, &kl) < 0)
            return bad(c, "event key is not a string");
        int field = F_OTHER;
        if (kl == 4 && memcmp(k, "type", 4) == 0) {
            if (one_pass)
                return bad(c, "bad event type"); /* a second tag */
        } else {
            field = field_by_name(k, kl);
            if (ev->kind == KVR_KV_EVENT_REMOVED && field != F_BLOCK_HASHES && field != F_MEDIUM &&
                field != F_GROUP_IDX)
                field = F_OTHER;
            if (ev->kind == KVR_KV_EVENT_CLEARED && field != F_MEDIUM)
                field = F_OTHER;
        }
        if (field != F_OTHER && (seen & 1u << field))
            return bad(c, "event field given twice");
        int rc = read_field(d, c, ev, field);
        if (rc < 0)
            return rc;
        if (field != F_OTHER)
            seen |= 1u << field;
    }
    if (!one_pass && c->off != end)
        return bad(c, "event map changed length");
    return finish_event(c, ev, seen);
}

static int read_events(kvr_kv_decoder_t *d, cursor_t *c, kvr_kv_event_cb cb, void *arg,
                       kvr_kv_batch_t *batch)
{
    size_t n;
    if (read_container(c, false, &n) < 0)
        return -EBADMSG;
    if (n > KVR_KV_MAX_EVENTS)
        return c->why = "too many events", -E2BIG;
    for (size_t i = 0; i < n; i++) {
        kvr_kv_event_t ev;
        event_reset(&ev);
        uint8_t b;
        if (peek(c, &b) < 0)
            return -EBADMSG;
        bool positional = (b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd;
        int rc = positional ? read_event_positional(d, c, &ev) : read_event_map(d, c, &ev);
        if (rc < 0)
            return rc;
        if (i == 0)
            batch->positional = positional;
        batch->events++;
        if (cb != NULL && (rc = cb(arg, &ev)) != 0)
            return rc;
    }
    return 0;
}

static int read_dp_rank(cursor_t *c, kvr_kv_batch_t *batch)
{
    if (is_nil(c)) {
        c->off++;
        return 0;
    }
    uint64_t v;
    if (read_uint(c, INT32_MAX, &v) < 0)
        return -EBADMSG;
    batch->dp_rank = (int64_t)v;
    return 0;
}

int kvr_kv_batch_decode(kvr_kv_decoder_t *d, const void *payload, size_t len, kvr_kv_event_cb cb,
                        void *arg, kvr_kv_batch_t *batch, const char **why)
{
    cursor_t c = {.p = payload, .len = len};
    memset(batch, 0, sizeof(*batch));
    batch->dp_rank = -1;
    uint8_t b;
    int rc;
    if (peek(&c, &b) < 0) {
        rc = -EBADMSG;
    } else if ((b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd) {
        size_t n;
        rc = read_container(&c, false, &n);
        if (rc == 0 && (n < 2 || n > 3))
            rc = bad(&c, "batch array of a size other than 2 or 3");
        if (rc == 0)
            rc = read_double(&c, &batch->ts);
        if (rc == 0)
            rc = read_events(d, &c, cb, arg, batch);
        if (rc == 0 && n == 3)
            rc = read_dp_rank(&c, batch);
    } else {
        size_t n;
        rc = read_container(&c, true, &n);
        bool have_events = false;
        for (size_t i = 0; rc == 0 && i < n; i++) {
            const uint8_t *k;
            size_t kl;
            rc = read_bytes(&c, false, &k, &kl);
            if (rc < 0)
                break;
            if (kl == 2 && memcmp(k, "ts", 2) == 0) {
                rc = read_double(&c, &batch->ts);
            } else if (kl == 6 && memcmp(k, "events", 6) == 0 && !have_events) {
                have_events = true;
                rc = read_events(d, &c, cb, arg, batch);
            } else if (kl == 18 && memcmp(k, "data_parallel_rank", 18) == 0) {
                rc = read_dp_rank(&c, batch);
            } else {
                rc = skip(&c);
            }
        }
        if (rc == 0 && !have_events)
            rc = bad(&c, "batch without events");
    }
    if (rc == 0 && c.off != c.len)
        rc = bad(&c, "bytes after the batch");
    if (why != NULL)
        *why = rc == 0 ? NULL : (c.why != NULL ? c.why : "rejected by the consumer");
    return rc;
}

int kvr_kv_seq_parse(const void *frame, size_t len, int64_t *seq)
{
    if (len != 8)
        return -EBADMSG;
    *seq = (int64_t)be_read(frame, 8);
    return 0;
}

const char *kvr_kv_tier_name(kvr_kv_tier_t tier)
{
    switch (tier) {
    case KVR_KV_TIER_GPU: return "GPU";
    case KVR_KV_TIER_CPU: return "CPU";
    default: return "other";
    }
}

int kvr_kv_decoder_init(kvr_kv_decoder_t *d)
{
    memset(d, 0, sizeof(*d));
    d->hashes = malloc(KVR_KV_MAX_BLOCKS * sizeof(*d->hashes));
    d->tokens = malloc(KVR_KV_MAX_TOKENS * sizeof(*d->tokens));
    if (d->hashes == NULL || d->tokens == NULL) {
        kvr_kv_decoder_close(d);
        return -ENOMEM;
    }
    return 0;
}

void kvr_kv_decoder_close(kvr_kv_decoder_t *d)
{
    free(d->hashes);
    free(d->tokens);
    d->hashes = NULL;
    d->tokens = NULL;
}
