/* SPDX-License-Identifier: Apache-2.0 */
#include "common/state_frame.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "common/error.h"
#include "common/msgpack_buf.h"

/* The schema's keys; the order is the encoding order. */
typedef enum {
    KEY_VERSION,
    KEY_ENGINE,
    KEY_TS_NS,
    KEY_SEQ,
    KEY_RUNNING,
    KEY_WAITING,
    KEY_DP_RANKS,
    KEY_MAX_RUNNING,
    KEY_CAPS_COMPLETE,
    KEY_KV_USED,
    KEY_KV_CAPACITY,
    KEY_KV_USAGE,
    KEY_PENDING_PREFILL,
    KEY_MAX_PREFILL_REMAINING,
    KEY_UTILIZATION,
    KEY_COUNT,
} frame_key_t;

static const char *const key_names[KEY_COUNT] = {
    [KEY_VERSION] = "v",
    [KEY_ENGINE] = "engine",
    [KEY_TS_NS] = "ts_ns",
    [KEY_SEQ] = "seq",
    [KEY_RUNNING] = "running",
    [KEY_WAITING] = "waiting",
    [KEY_DP_RANKS] = "dp_ranks",
    [KEY_MAX_RUNNING] = "max_running",
    [KEY_CAPS_COMPLETE] = "caps_complete",
    [KEY_KV_USED] = "kv_used",
    [KEY_KV_CAPACITY] = "kv_capacity",
    [KEY_KV_USAGE] = "kv_usage",
    [KEY_PENDING_PREFILL] = "pending_prefill",
    [KEY_MAX_PREFILL_REMAINING] = "max_prefill_remaining",
    [KEY_UTILIZATION] = "utilization",
};

#define REQUIRED_KEYS                                                                              \
    ((1u << KEY_VERSION) | (1u << KEY_ENGINE) | (1u << KEY_TS_NS) | (1u << KEY_RUNNING) |          \
     (1u << KEY_WAITING))

#define TELEMETRY_FLAGS                                                                            \
    (KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_UTILIZATION | KVR_SLOT_HAS_PENDING_PREFILL)

/* ---- encoding ------------------------------------------------------------ */

static int pack_key(msgpack_packer *pk, frame_key_t key)
{
    return kvr_msgpack_pack_cstr(pk, key_names[key]);
}

static int pack_uint(msgpack_packer *pk, frame_key_t key, uint64_t v)
{
    return pack_key(pk, key) || msgpack_pack_uint64(pk, v);
}

static int pack_double(msgpack_packer *pk, frame_key_t key, double v)
{
    return pack_key(pk, key) || msgpack_pack_double(pk, v);
}

/* Which keys f carries: required ones always, optional ones when they say something. */
static unsigned keys_present(const kvr_state_frame_t *f)
{
    const kvr_engine_state_t *s = &f->state;
    unsigned keys = REQUIRED_KEYS;
    if (f->has_seq)
        keys |= 1u << KEY_SEQ;
    if (s->dp_ranks)
        keys |= 1u << KEY_DP_RANKS;
    if (s->max_running)
        keys |= 1u << KEY_MAX_RUNNING;
    if (s->flags & KVR_SLOT_CAPS_COMPLETE)
        keys |= 1u << KEY_CAPS_COMPLETE;
    if (s->kv_tokens_used)
        keys |= 1u << KEY_KV_USED;
    if (s->kv_tokens_capacity)
        keys |= 1u << KEY_KV_CAPACITY;
    if (s->kv_usage != 0)
        keys |= 1u << KEY_KV_USAGE;
    if (s->flags & KVR_SLOT_HAS_PENDING_PREFILL)
        keys |= (1u << KEY_PENDING_PREFILL) | (1u << KEY_MAX_PREFILL_REMAINING);
    if (s->flags & KVR_SLOT_HAS_UTILIZATION)
        keys |= 1u << KEY_UTILIZATION;
    return keys;
}

int kvr_state_frame_pack(msgpack_packer *pk, const kvr_state_frame_t *f)
{
    const kvr_engine_state_t *s = &f->state;
    unsigned keys = keys_present(f);
    size_t id_len = strnlen(s->engine_id, sizeof(s->engine_id));
    if (msgpack_pack_map(pk, (size_t)__builtin_popcount(keys)))
        return -ENOMEM;
    int bad = 0;
    for (frame_key_t k = 0; k < KEY_COUNT && !bad; k++) {
        if (!(keys & (1u << k)))
            continue;
        switch (k) {
        case KEY_VERSION: bad = pack_uint(pk, k, KVR_STATE_FRAME_VERSION); break;
        case KEY_ENGINE:
            bad = pack_key(pk, k) || msgpack_pack_str(pk, id_len) ||
                  msgpack_pack_str_body(pk, s->engine_id, id_len);
            break;
        case KEY_TS_NS: bad = pack_uint(pk, k, f->sample_unix_ns); break;
        case KEY_SEQ: bad = pack_uint(pk, k, f->seq); break;
        case KEY_RUNNING: bad = pack_uint(pk, k, s->running); break;
        case KEY_WAITING: bad = pack_uint(pk, k, s->waiting); break;
        case KEY_DP_RANKS: bad = pack_uint(pk, k, s->dp_ranks); break;
        case KEY_MAX_RUNNING: bad = pack_uint(pk, k, s->max_running); break;
        case KEY_CAPS_COMPLETE: bad = pack_key(pk, k) || msgpack_pack_true(pk); break;
        case KEY_KV_USED: bad = pack_uint(pk, k, s->kv_tokens_used); break;
        case KEY_KV_CAPACITY: bad = pack_uint(pk, k, s->kv_tokens_capacity); break;
        case KEY_KV_USAGE: bad = pack_double(pk, k, s->kv_usage); break;
        case KEY_PENDING_PREFILL: bad = pack_uint(pk, k, s->pending_prefill_tokens); break;
        case KEY_MAX_PREFILL_REMAINING: bad = pack_uint(pk, k, s->max_prefill_remaining); break;
        case KEY_UTILIZATION: bad = pack_double(pk, k, s->utilization); break;
        case KEY_COUNT: break;
        }
    }
    return bad ? -ENOMEM : 0;
}

int kvr_state_frame_encode(const kvr_state_frame_t *f, void *buf, size_t cap, size_t *len_out)
{
    size_t id_len = strnlen(f->state.engine_id, sizeof(f->state.engine_id));
    if (id_len == 0 || id_len == sizeof(f->state.engine_id))
        return -EINVAL;
    kvr_msgpack_buf_t out = {.data = buf,
                             .cap = cap < KVR_STATE_FRAME_MAX ? cap : KVR_STATE_FRAME_MAX};
    msgpack_packer pk;
    msgpack_packer_init(&pk, &out, kvr_msgpack_buf_write);
    if (kvr_state_frame_pack(&pk, f) != 0)
        return -EMSGSIZE;
    *len_out = out.len;
    return 0;
}

/* ---- decoding ------------------------------------------------------------ */

#define SHAPE_MAX_DEPTH 8

/* Big-endian length of n bytes at p. */
static uint64_t be_read(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

/*
 * msgpack-c's C unpacker allocates a container's element array as soon as it
 * reads the header (it has no equivalent of the C++ API's unpack_limit), so
 * a 5-byte datagram claiming 2^32 elements would ask for 64 GiB. This walk
 * only checks that every declared length fits in the bytes that remain, that
 * nesting stays shallow and that the objects are few enough; decoding itself
 * is msgpack-c's.
 */
int kvr_state_frame_shape_fits(const void *buf, size_t len, size_t max_objects)
{
    const uint8_t *p = buf;
    size_t objects = 0;
    uint64_t pending[SHAPE_MAX_DEPTH + 1];
    int depth = 0;
    pending[0] = 1;
    size_t off = 0;
    while (depth >= 0) {
        if (pending[depth] == 0) {
            depth--;
            continue;
        }
        pending[depth]--;
        if (off >= len || ++objects > max_objects)
            return 0;
        uint8_t b = p[off++];
        uint64_t skip = 0, items = 0;
        size_t len_bytes = 0;
        int container = 0;
        if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
            /* fixint, nil, bool: the byte itself */
        } else if ((b & 0xf0) == 0x80) {
            items = 2u * (b & 0x0fu), container = 1;
        } else if ((b & 0xf0) == 0x90) {
            items = b & 0x0fu, container = 1;
        } else if ((b & 0xe0) == 0xa0) {
            skip = b & 0x1fu;
        } else {
            switch (b) {
            case 0xc4:
            case 0xd9: len_bytes = 1; break; /* bin8, str8 */
            case 0xc5:
            case 0xda: len_bytes = 2; break; /* bin16, str16 */
            case 0xc6:
            case 0xdb: len_bytes = 4; break;           /* bin32, str32 */
            case 0xc7: len_bytes = 1, skip = 1; break; /* ext8 (+type) */
            case 0xc8: len_bytes = 2, skip = 1; break;
            case 0xc9: len_bytes = 4, skip = 1; break;
            case 0xcc:
            case 0xd0: skip = 1; break;
            case 0xcd:
            case 0xd1: skip = 2; break;
            case 0xca:
            case 0xce:
            case 0xd2: skip = 4; break;
            case 0xcb:
            case 0xcf:
            case 0xd3: skip = 8; break;
            case 0xd4: skip = 2; break; /* fixext 1..16 (+type) */
            case 0xd5: skip = 3; break;
            case 0xd6: skip = 5; break;
            case 0xd7: skip = 9; break;
            case 0xd8: skip = 17; break;
            case 0xdc:
            case 0xde: len_bytes = 2, container = 1; break; /* array16, map16 */
            case 0xdd:
            case 0xdf: len_bytes = 4, container = 1; break; /* array32, map32 */
            default: return 0;                              /* 0xc1: never used */
            }
        }
        if (len_bytes) {
            if (len - off < len_bytes)
                return 0;
            uint64_t n = be_read(p + off, len_bytes);
            off += len_bytes;
            if (container)
                items = (b == 0xde || b == 0xdf) ? 2 * n : n;
            else
                skip += n;
        }
        if (skip > len - off)
            return 0;
        off += (size_t)skip;
        if (container && items > 0) {
            /* every element takes at least one byte */
            if (items > len - off || depth == SHAPE_MAX_DEPTH)
                return 0;
            pending[++depth] = items;
        }
    }
    return 1;
}

static int fail(const char **reason, const char *text, int code)
{
    if (reason)
        *reason = text;
    return code;
}

static int key_index(const msgpack_object *key)
{
    if (key->type != MSGPACK_OBJECT_STR)
        return -1;
    for (int k = 0; k < KEY_COUNT; k++) {
        if (strlen(key_names[k]) == key->via.str.size &&
            memcmp(key_names[k], key->via.str.ptr, key->via.str.size) == 0)
            return k;
    }
    return KEY_COUNT; /* a key this version does not know: ignored */
}

static int get_uint(const msgpack_object *o, uint64_t max, uint64_t *out)
{
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max)
        return -1;
    *out = o->via.u64;
    return 0;
}

static int get_fraction(const msgpack_object *o, double *out)
{
    double v;
    if (o->type == MSGPACK_OBJECT_FLOAT32 || o->type == MSGPACK_OBJECT_FLOAT64)
        v = o->via.f64;
    else if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER && o->via.u64 <= 1)
        v = (double)o->via.u64;
    else
        return -1;
    if (!(v >= 0.0 && v <= 1.0)) /* also false for NaN */
        return -1;
    *out = v;
    return 0;
}

/* Stores one known key's value into f; -1 when its type or range is wrong. */
static int take_value(kvr_state_frame_t *f, frame_key_t k, const msgpack_object *v)
{
    kvr_engine_state_t *s = &f->state;
    uint64_t u = 0;
    switch (k) {
    case KEY_VERSION:
        if (get_uint(v, UINT32_MAX, &u))
            return -1;
        f->version = (uint32_t)u;
        return 0;
    case KEY_ENGINE:
        if (v->type != MSGPACK_OBJECT_STR || v->via.str.size == 0 ||
            v->via.str.size >= sizeof(s->engine_id) ||
            memchr(v->via.str.ptr, '\0', v->via.str.size))
            return -1;
        memcpy(s->engine_id, v->via.str.ptr, v->via.str.size);
        s->engine_id[v->via.str.size] = '\0';
        return 0;
    case KEY_TS_NS: return get_uint(v, UINT64_MAX, &f->sample_unix_ns);
    case KEY_SEQ: f->has_seq = true; return get_uint(v, UINT64_MAX, &f->seq);
    case KEY_RUNNING: return get_uint(v, UINT32_MAX, &u) ? -1 : (s->running = (uint32_t)u, 0);
    case KEY_WAITING: return get_uint(v, UINT32_MAX, &u) ? -1 : (s->waiting = (uint32_t)u, 0);
    case KEY_DP_RANKS: return get_uint(v, UINT32_MAX, &u) ? -1 : (s->dp_ranks = (uint32_t)u, 0);
    case KEY_MAX_RUNNING:
        return get_uint(v, UINT32_MAX, &u) ? -1 : (s->max_running = (uint32_t)u, 0);
    case KEY_CAPS_COMPLETE:
        if (v->type != MSGPACK_OBJECT_BOOLEAN)
            return -1;
        if (v->via.boolean)
            s->flags |= KVR_SLOT_CAPS_COMPLETE;
        return 0;
    case KEY_KV_USED: return get_uint(v, UINT64_MAX, &s->kv_tokens_used);
    case KEY_KV_CAPACITY: return get_uint(v, UINT64_MAX, &s->kv_tokens_capacity);
    case KEY_KV_USAGE: return get_fraction(v, &s->kv_usage);
    case KEY_PENDING_PREFILL:
        s->flags |= KVR_SLOT_HAS_PENDING_PREFILL;
        return get_uint(v, UINT64_MAX, &s->pending_prefill_tokens);
    case KEY_MAX_PREFILL_REMAINING: return get_uint(v, UINT64_MAX, &s->max_prefill_remaining);
    case KEY_UTILIZATION:
        s->flags |= KVR_SLOT_HAS_UTILIZATION;
        return get_fraction(v, &s->utilization);
    case KEY_COUNT: return 0;
    }
    return -1;
}

int kvr_state_frame_from_object(const msgpack_object *obj, kvr_state_frame_t *out,
                                const char **reason)
{
    memset(out, 0, sizeof(*out));
    if (obj->type != MSGPACK_OBJECT_MAP)
        return fail(reason, "frame is not a msgpack map", KVR_EPARSE);
    unsigned seen = 0;
    int rc = 0;
    for (uint32_t i = 0; i < obj->via.map.size; i++) {
        const msgpack_object_kv *kv = &obj->via.map.ptr[i];
        int k = key_index(&kv->key);
        if (k < 0) {
            rc = fail(reason, "frame has a key that is not a string", KVR_EPARSE);
            goto fail_clear;
        }
        if (k == KEY_COUNT)
            continue;
        if (seen & (1u << k)) {
            rc = fail(reason, "frame repeats a key", KVR_EPARSE);
            goto fail_clear;
        }
        seen |= 1u << k;
        if (take_value(out, (frame_key_t)k, &kv->val) != 0) {
            rc = fail(reason, "frame value has the wrong type or range", KVR_EPARSE);
            goto fail_clear;
        }
    }
    if (seen & (1u << KEY_VERSION) && out->version != KVR_STATE_FRAME_VERSION) {
        rc = fail(reason, "frame schema version is not 1", -EPROTONOSUPPORT);
        goto fail_clear;
    }
    if ((seen & REQUIRED_KEYS) != REQUIRED_KEYS) {
        rc = fail(reason, "frame lacks a required key (v, engine, ts_ns, running, waiting)",
                  -EBADMSG);
        goto fail_clear;
    }
    out->state.flags &= TELEMETRY_FLAGS;
    return 0;

fail_clear:
    memset(out, 0, sizeof(*out));
    return rc;
}

int kvr_state_frame_decode(const void *buf, size_t len, kvr_state_frame_t *out, const char **reason)
{
    memset(out, 0, sizeof(*out));
    if (len == 0 || len > KVR_STATE_FRAME_MAX)
        return fail(reason, len ? "frame larger than 1024 bytes" : "empty frame", -EMSGSIZE);
    if (!kvr_state_frame_shape_fits(buf, len, len))
        return fail(reason, "frame is truncated or not msgpack", KVR_EPARSE);

    msgpack_unpacked unpacked;
    msgpack_unpacked_init(&unpacked);
    size_t off = 0;
    int rc;
    msgpack_unpack_return ret = msgpack_unpack_next(&unpacked, buf, len, &off);
    if (ret == MSGPACK_UNPACK_CONTINUE) {
        rc = fail(reason, "frame is truncated", KVR_EPARSE);
        goto done;
    }
    if (ret != MSGPACK_UNPACK_SUCCESS && ret != MSGPACK_UNPACK_EXTRA_BYTES) {
        rc = fail(reason, "frame is not msgpack", KVR_EPARSE);
        goto done;
    }
    if (off != len) {
        rc = fail(reason, "frame has trailing bytes after its map", KVR_EPARSE);
        goto done;
    }
    rc = kvr_state_frame_from_object(&unpacked.data, out, reason);
done:
    msgpack_unpacked_destroy(&unpacked);
    return rc;
}

uint64_t kvr_state_frame_local_sample_time(const kvr_state_frame_t *f, uint64_t now_mono_ns,
                                           uint64_t now_unix_ns, bool *skewed)
{
    uint64_t age = now_unix_ns > f->sample_unix_ns ? now_unix_ns - f->sample_unix_ns : 0;
    uint64_t ahead = f->sample_unix_ns > now_unix_ns ? f->sample_unix_ns - now_unix_ns : 0;
    if (skewed)
        *skewed = age > KVR_STATE_FRAME_MAX_SKEW_NS || ahead > KVR_STATE_FRAME_MAX_SKEW_NS;
    return age >= now_mono_ns ? 0 : now_mono_ns - age;
}
