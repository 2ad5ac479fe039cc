/* SPDX-License-Identifier: Apache-2.0 */
/* The relay protocol's frames: length prefix, table, challenge and hello (relay_wire.h). */
#include "statefeed/relay_wire.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "common/error.h"
#include "common/msgpack_buf.h"

/* A full table of the longest entries (a state frame and ~48 bytes of keys around it), a full
 * share (a load is an array of four integers: at most 37 bytes; a placement at most ~160). */
_Static_assert((uint64_t)KVR_RELAY_MAX_TABLE_ENGINES *(KVR_STATE_FRAME_MAX + 48) +
                       (uint64_t)KVR_RELAY_MAX_SHARE_LOADS * 37 +
                       (uint64_t)KVR_RELAY_MAX_PLACEMENTS * 160 <=
                   KVR_RELAY_FRAME_MAX,
               "a full table fits a frame");
_Static_assert(KVR_RELAY_MAX_TABLE_ENGINES * 40u + KVR_RELAY_MAX_SHARE_LOADS * 5u +
                       KVR_RELAY_MAX_PLACEMENTS * 16u <=
                   KVR_RELAY_MAX_OBJECTS,
               "a full table's objects fit the frame's object bound");

/* Bound into every MAC, so a MAC made for something else (or for the other
 * direction) never passes here. Both labels have the same length. */
static const char *const mac_labels[] = {
    [KVR_RELAY_ROLE_IMPORTER] = "kvroute-relay-v2 importer",
    [KVR_RELAY_ROLE_EXPORTER] = "kvroute-relay-v2 exporter",
};
#define MAC_LABEL_LEN 25

static int fail(const char **reason, const char *text, int code)
{
    if (reason)
        *reason = text;
    return code;
}

int kvr__relay_frame_length(const uint8_t header[KVR_RELAY_HEADER], uint32_t max, uint32_t *len_out)
{
    uint32_t n = (uint32_t)header[0] << 24 | (uint32_t)header[1] << 16 | (uint32_t)header[2] << 8 |
                 header[3];
    if (n == 0 || n > max)
        return -EMSGSIZE;
    *len_out = n;
    return 0;
}

static void put_header(uint8_t *p, uint32_t n)
{
    p[0] = (uint8_t)(n >> 24);
    p[1] = (uint8_t)(n >> 16);
    p[2] = (uint8_t)(n >> 8);
    p[3] = (uint8_t)n;
}

static const msgpack_object *map_get(const msgpack_object *map, const char *key)
{
    size_t klen = strlen(key);
    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object_kv *kv = &map->via.map.ptr[i];
        if (kv->key.type == MSGPACK_OBJECT_STR && kv->key.via.str.size == klen &&
            memcmp(kv->key.via.str.ptr, key, klen) == 0)
            return &kv->val;
    }
    return NULL;
}

/*
 * One msgpack map filling buf exactly, with "relay" == KVR_RELAY_VERSION.
 * The shape walk runs first: it is what keeps msgpack-c from allocating for
 * element counts the bytes cannot hold.
 */
static int unpack_map(const void *buf, size_t len, size_t max, msgpack_unpacked *u,
                      const char **reason)
{
    if (len == 0 || len > max)
        return fail(reason, "frame is empty or too large", -EMSGSIZE);
    if (!kvr_state_frame_shape_fits(buf, len, KVR_RELAY_MAX_OBJECTS))
        return fail(reason, "frame is truncated, not msgpack, or holds more objects than a table",
                    KVR_EPARSE);
    size_t off = 0;
    msgpack_unpack_return ret = msgpack_unpack_next(u, buf, len, &off);
    if (ret != MSGPACK_UNPACK_SUCCESS && ret != MSGPACK_UNPACK_EXTRA_BYTES)
        return fail(reason, "frame is not msgpack", KVR_EPARSE);
    if (off != len)
        return fail(reason, "frame has trailing bytes after its map", KVR_EPARSE);
    if (u->data.type != MSGPACK_OBJECT_MAP)
        return fail(reason, "frame is not a msgpack map", KVR_EPARSE);
    const msgpack_object *ver = map_get(&u->data, "relay");
    if (ver == NULL || ver->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return fail(reason, "frame has no relay version", KVR_EPARSE);
    if (ver->via.u64 != KVR_RELAY_VERSION)
        return fail(reason, "peer speaks another relay version", -EPROTONOSUPPORT);
    return 0;
}

static int decode_entry(const msgpack_object *entry, kvr__relay_entry_t *out, const char **reason)
{
    if (entry->type != MSGPACK_OBJECT_MAP)
        return fail(reason, "table entry is not a map", KVR_EPARSE);
    const msgpack_object *st = map_get(entry, "state");
    const msgpack_object *age = map_get(entry, "age_ns");
    const msgpack_object *healthy = map_get(entry, "healthy");
    const msgpack_object *sampled = map_get(entry, "sampled");
    if (st == NULL || age == NULL || age->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
        healthy == NULL || healthy->type != MSGPACK_OBJECT_BOOLEAN || sampled == NULL ||
        sampled->type != MSGPACK_OBJECT_BOOLEAN)
        return fail(reason, "table entry lacks state, age_ns, healthy or sampled", KVR_EPARSE);
    int rc = kvr_state_frame_from_object(st, &out->frame, reason);
    if (rc < 0)
        return rc;
    out->age_ns = age->via.u64;
    out->healthy = healthy->via.boolean;
    out->sampled = sampled->via.boolean;
    return 0;
}

/* A uint from an array of uints; false when it is another type. */
static bool array_u64(const msgpack_object *a, uint32_t i, uint64_t *out)
{
    const msgpack_object *o = &a->via.array.ptr[i];
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return false;
    *out = o->via.u64;
    return true;
}

/* [key, in_flight, pending_prefill_tokens, kv_tokens] */
static int decode_load(const msgpack_object *o, kvr_dsp_engine_t *out, const char **reason)
{
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 4 || !array_u64(o, 0, &out->key) ||
        !array_u64(o, 1, &out->load.in_flight) ||
        !array_u64(o, 2, &out->load.pending_prefill_tokens) ||
        !array_u64(o, 3, &out->load.kv_tokens) || out->key == 0)
        return fail(reason, "share load is not [key != 0, in_flight, pending, kv]", KVR_EPARSE);
    return 0;
}

/* [kind, first_block, engine_key, session_hash, age_ns, [block...]] */
static int decode_placement(const msgpack_object *o, kvr__relay_placement_t *out,
                            const char **reason)
{
    uint64_t kind = 0, first = 0;
    kvr_dsp_placement_t *p = &out->placement;
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 6 || !array_u64(o, 0, &kind) ||
        !array_u64(o, 1, &first) || !array_u64(o, 2, &p->engine_key) ||
        !array_u64(o, 3, &p->session_hash) || !array_u64(o, 4, &out->age_ns))
        return fail(reason,
                    "share placement is not [kind, first_block, engine, session, age_ns, blocks]",
                    KVR_EPARSE);
    const msgpack_object *blocks = &o->via.array.ptr[5];
    if (blocks->type != MSGPACK_OBJECT_ARRAY || blocks->via.array.size > KVR_DSP_ENTRY_BLOCKS)
        return fail(reason, "share placement's blocks are not an array of at most 8", KVR_EPARSE);
    for (uint32_t i = 0; i < blocks->via.array.size; i++)
        if (!array_u64(blocks, i, &p->blocks[i]))
            return fail(reason, "share placement's block is not a uint", KVR_EPARSE);
    p->block_count = (uint16_t)blocks->via.array.size;
    bool prefix = kind == KVR_DSP_PLACE_PREFIX && p->block_count > 0 && p->session_hash == 0;
    bool pin = kind == KVR_DSP_PLACE_SESSION && p->block_count == 0 && p->session_hash != 0;
    if ((!prefix && !pin) || p->engine_key == 0 || first > UINT32_MAX)
        return fail(reason, "share placement is neither a prefix nor a session pin", KVR_EPARSE);
    p->kind = (uint16_t)kind;
    p->first_block = (uint32_t)first;
    return 0;
}

/* {"loads": [load...], "placed": [placement...]}: what the sender's routers hold and placed. */
static int decode_share(const msgpack_object *o, kvr__relay_share_t *out, const char **reason)
{
    if (o->type != MSGPACK_OBJECT_MAP)
        return fail(reason, "share is not a map", KVR_EPARSE);
    const msgpack_object *loads = map_get(o, "loads");
    const msgpack_object *placed = map_get(o, "placed");
    if (loads == NULL || loads->type != MSGPACK_OBJECT_ARRAY || placed == NULL ||
        placed->type != MSGPACK_OBJECT_ARRAY)
        return fail(reason, "share lacks its loads or placed array", KVR_EPARSE);
    if (loads->via.array.size > KVR_RELAY_MAX_SHARE_LOADS)
        return fail(reason, "share lists more than 1024 engine loads", -EMSGSIZE);
    if (placed->via.array.size > KVR_RELAY_MAX_PLACEMENTS)
        return fail(reason, "share lists more than 2048 placements", -EMSGSIZE);
    out->present = true;
    if (loads->via.array.size > 0 &&
        (out->loads = calloc(loads->via.array.size, sizeof *out->loads)) == NULL)
        return fail(reason, "out of memory", -ENOMEM);
    if (placed->via.array.size > 0 &&
        (out->placements = calloc(placed->via.array.size, sizeof *out->placements)) == NULL)
        return fail(reason, "out of memory", -ENOMEM);
    for (uint32_t i = 0; i < loads->via.array.size; i++) {
        int rc = decode_load(&loads->via.array.ptr[i], &out->loads[i], reason);
        if (rc < 0)
            return rc;
        out->load_count++;
    }
    for (uint32_t i = 0; i < placed->via.array.size; i++) {
        int rc = decode_placement(&placed->via.array.ptr[i], &out->placements[i], reason);
        if (rc < 0)
            return rc;
        out->placement_count++;
    }
    return 0;
}

int kvr__relay_table_decode(const void *buf, size_t len, kvr__relay_table_t *out,
                            const char **reason)
{
    memset(out, 0, sizeof(*out));
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    int rc = unpack_map(buf, len, KVR_RELAY_FRAME_MAX, &u, reason);
    if (rc < 0)
        goto done;
    const msgpack_object *engines = map_get(&u.data, "engines");
    if (engines == NULL || engines->type != MSGPACK_OBJECT_ARRAY) {
        rc = fail(reason, "table has no engines array", KVR_EPARSE);
        goto done;
    }
    uint32_t n = engines->via.array.size;
    if (n > KVR_RELAY_MAX_TABLE_ENGINES) {
        rc = fail(reason, "table lists more than 4096 engines", -EMSGSIZE);
        goto done;
    }
    if (n > 0) {
        out->entries = calloc(n, sizeof(*out->entries));
        if (out->entries == NULL) {
            rc = fail(reason, "out of memory", -ENOMEM);
            goto done;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        rc = decode_entry(&engines->via.array.ptr[i], &out->entries[i], reason);
        if (rc < 0) {
            kvr__relay_table_free(out);
            goto done;
        }
    }
    out->count = n;
    const msgpack_object *share = map_get(&u.data, "share");
    rc = share != NULL ? decode_share(share, &out->share, reason) : 0;
    if (rc < 0)
        kvr__relay_table_free(out);
done:
    msgpack_unpacked_destroy(&u);
    return rc;
}

void kvr__relay_table_free(kvr__relay_table_t *table)
{
    free(table->entries);
    table->entries = NULL;
    table->count = 0;
    free(table->share.loads);
    free(table->share.placements);
    memset(&table->share, 0, sizeof table->share);
}

/* The bin value of key, exactly want bytes; -1 when absent, -2 when malformed. */
static int get_bin(const msgpack_object *map, const char *key, uint8_t *out, size_t want)
{
    const msgpack_object *v = map_get(map, key);
    if (v == NULL)
        return -1;
    if (v->type != MSGPACK_OBJECT_BIN || v->via.bin.size != want)
        return -2;
    memcpy(out, v->via.bin.ptr, want);
    return 0;
}

int kvr__relay_handshake_decode(const void *buf, size_t len, kvr__relay_handshake_t *out,
                                const char **reason)
{
    memset(out, 0, sizeof(*out));
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    int rc = unpack_map(buf, len, KVR_RELAY_HELLO_MAX, &u, reason);
    if (rc == 0) {
        int nonce = get_bin(&u.data, "nonce", out->nonce, KVR_RELAY_NONCE_LEN);
        int mac = get_bin(&u.data, "hmac", out->mac, KVR_RELAY_MAC_LEN);
        if (nonce == -2 || mac == -2)
            rc = fail(reason, "handshake has a nonce or hmac of the wrong size", KVR_EPARSE);
        out->has_nonce = nonce == 0;
        out->has_mac = mac == 0;
    }
    msgpack_unpacked_destroy(&u);
    if (rc < 0)
        memset(out, 0, sizeof(*out));
    return rc;
}

int kvr__relay_handshake_encode(const uint8_t *nonce, const uint8_t *mac, void *buf, size_t cap)
{
    if (cap < KVR_RELAY_HEADER)
        return -EMSGSIZE;
    kvr_msgpack_buf_t out = {.data = buf, .cap = cap, .len = KVR_RELAY_HEADER};
    msgpack_packer pk;
    msgpack_packer_init(&pk, &out, kvr_msgpack_buf_write);
    int bad = msgpack_pack_map(&pk, 1 + (nonce != NULL) + (mac != NULL));
    bad |= kvr_msgpack_pack_cstr(&pk, "relay");
    bad |= msgpack_pack_uint32(&pk, KVR_RELAY_VERSION);
    if (nonce != NULL) {
        bad |= kvr_msgpack_pack_cstr(&pk, "nonce");
        bad |= msgpack_pack_bin(&pk, KVR_RELAY_NONCE_LEN);
        bad |= msgpack_pack_bin_body(&pk, nonce, KVR_RELAY_NONCE_LEN);
    }
    if (mac != NULL) {
        bad |= kvr_msgpack_pack_cstr(&pk, "hmac");
        bad |= msgpack_pack_bin(&pk, KVR_RELAY_MAC_LEN);
        bad |= msgpack_pack_bin_body(&pk, mac, KVR_RELAY_MAC_LEN);
    }
    if (bad)
        return -EMSGSIZE;
    put_header(buf, (uint32_t)(out.len - KVR_RELAY_HEADER));
    return (int)out.len;
}

void kvr__relay_table_begin(msgpack_packer *pk, msgpack_sbuffer *sb, uint32_t count)
{
    kvr__relay_frame_begin(pk, sb, count, false);
}

void kvr__relay_frame_begin(msgpack_packer *pk, msgpack_sbuffer *sb, uint32_t count,
                            bool with_share)
{
    static const char zero[KVR_RELAY_HEADER];
    msgpack_packer_init(pk, sb, msgpack_sbuffer_write);
    msgpack_sbuffer_write(sb, zero, sizeof(zero));
    msgpack_pack_map(pk, with_share ? 3 : 2);
    kvr_msgpack_pack_cstr(pk, "relay");
    msgpack_pack_uint32(pk, KVR_RELAY_VERSION);
    kvr_msgpack_pack_cstr(pk, "engines");
    msgpack_pack_array(pk, count);
}

void kvr__relay_table_add(msgpack_packer *pk, const kvr_state_frame_t *f, uint64_t age_ns,
                          bool healthy, bool sampled)
{
    msgpack_pack_map(pk, 4);
    kvr_msgpack_pack_cstr(pk, "state");
    kvr_state_frame_pack(pk, f);
    kvr_msgpack_pack_cstr(pk, "age_ns");
    msgpack_pack_uint64(pk, age_ns);
    kvr_msgpack_pack_cstr(pk, "healthy");
    if (healthy)
        msgpack_pack_true(pk);
    else
        msgpack_pack_false(pk);
    kvr_msgpack_pack_cstr(pk, "sampled");
    if (sampled)
        msgpack_pack_true(pk);
    else
        msgpack_pack_false(pk);
}

int kvr__relay_table_end(msgpack_sbuffer *sb)
{
    if (sb->size < KVR_RELAY_HEADER || sb->size - KVR_RELAY_HEADER > KVR_RELAY_FRAME_MAX)
        return -EMSGSIZE;
    put_header((uint8_t *)sb->data, (uint32_t)(sb->size - KVR_RELAY_HEADER));
    return 0;
}

int kvr__relay_mac(const void *secret, size_t secret_len, kvr__relay_role_t role,
                   const uint8_t nonce[KVR_RELAY_NONCE_LEN], uint8_t mac[KVR_RELAY_MAC_LEN])
{
    if ((unsigned)role > KVR_RELAY_ROLE_EXPORTER || strlen(mac_labels[role]) != MAC_LABEL_LEN)
        return -EINVAL;
    uint8_t msg[MAC_LABEL_LEN + KVR_RELAY_NONCE_LEN];
    memcpy(msg, mac_labels[role], MAC_LABEL_LEN);
    memcpy(msg + MAC_LABEL_LEN, nonce, KVR_RELAY_NONCE_LEN);
    unsigned int out_len = 0;
    if (HMAC(EVP_sha256(), secret, (int)secret_len, msg, sizeof(msg), mac, &out_len) == NULL ||
        out_len != KVR_RELAY_MAC_LEN)
        return -EIO;
    return 0;
}

bool kvr__relay_mac_equal(const uint8_t a[KVR_RELAY_MAC_LEN], const uint8_t b[KVR_RELAY_MAC_LEN])
{
    return CRYPTO_memcmp(a, b, KVR_RELAY_MAC_LEN) == 0;
}

int kvr__relay_secret_read(const char *path, uint8_t *out, size_t cap, size_t *len_out,
                           const char **reason)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(reason, "cannot open the secret file", -errno);
    size_t len = 0;
    int rc = 0;
    for (;;) {
        if (len == cap) {
            uint8_t extra;
            ssize_t n = read(fd, &extra, 1);
            if (n != 0)
                rc = fail(reason, "secret file longer than 1024 bytes", -EMSGSIZE);
            break;
        }
        ssize_t n = read(fd, out + len, cap - len);
        if (n < 0) {
            rc = fail(reason, "cannot read the secret file", -errno);
            break;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    while (rc == 0 && len > 0 && (out[len - 1] == '\n' || out[len - 1] == '\r'))
        len--;
    if (rc == 0 && len == 0)
        rc = fail(reason, "secret file is empty", -EINVAL);
    if (rc < 0) {
        OPENSSL_cleanse(out, cap);
        return rc;
    }
    *len_out = len;
    return 0;
}

void kvr__relay_share_begin(msgpack_packer *pk, uint32_t load_count)
{
    kvr_msgpack_pack_cstr(pk, "share");
    msgpack_pack_map(pk, 2);
    kvr_msgpack_pack_cstr(pk, "loads");
    msgpack_pack_array(pk, load_count);
}

void kvr__relay_share_load(msgpack_packer *pk, const kvr_dsp_engine_t *e)
{
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint64(pk, e->key);
    msgpack_pack_uint64(pk, e->load.in_flight);
    msgpack_pack_uint64(pk, e->load.pending_prefill_tokens);
    msgpack_pack_uint64(pk, e->load.kv_tokens);
}

void kvr__relay_share_placed(msgpack_packer *pk, uint32_t placement_count)
{
    kvr_msgpack_pack_cstr(pk, "placed");
    msgpack_pack_array(pk, placement_count);
}

void kvr__relay_share_placement(msgpack_packer *pk, const kvr_dsp_placement_t *p, uint64_t age_ns)
{
    msgpack_pack_array(pk, 6);
    msgpack_pack_uint16(pk, p->kind);
    msgpack_pack_uint32(pk, p->first_block);
    msgpack_pack_uint64(pk, p->engine_key);
    msgpack_pack_uint64(pk, p->session_hash);
    msgpack_pack_uint64(pk, age_ns);
    uint32_t n = p->block_count <= KVR_DSP_ENTRY_BLOCKS ? p->block_count : KVR_DSP_ENTRY_BLOCKS;
    msgpack_pack_array(pk, n);
    for (uint32_t i = 0; i < n; i++)
        msgpack_pack_uint64(pk, p->blocks[i]);
}
