/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_STATEFEED_RELAY_WIRE_H
#define KVR_STATEFEED_RELAY_WIRE_H

/*
 * The relay protocol, version 2 (statefeed/README.md, "Wire format, version 2").
 * A TCP stream of frames, each a 4-byte big-endian length then that many
 * bytes holding one msgpack map with "relay": 2:
 *   exporter -> importer, on accept (challenge): {"relay": 2, "nonce": bin}
 *   importer -> exporter, in answer (hello):     {"relay": 2, "nonce": bin, "hmac": bin}
 *   exporter -> importer, accepted (welcome):    {"relay": 2, "hmac": bin}
 *   exporter -> importer, every tick:            {"relay": 2, "engines": [entry...]}
 * "hmac" is present when the sender has a secret: the importer's proves it
 * to the exporter over the exporter's nonce, the exporter's to the importer
 * over the importer's nonce, each under its own label.
 *   entry: {"state": <state frame map>, "age_ns": uint, "healthy": bool, "sampled": bool}
 * A table from a statefeed with --share carries a third key (older importers ignore it):
 *   "share": {"loads":  [[engine_key, in_flight, pending_prefill_tokens, kv_tokens]...],
 *             "placed": [[kind, first_block, engine_key, session_hash, age_ns, [block...]]...]}
 * the summed load of the sender's routers and the placements they made since the last table.
 * The length is checked against KVR_RELAY_FRAME_MAX before anything is
 * buffered, and every msgpack container's declared size against the bytes
 * of its frame, and their total count, before msgpack-c allocates
 * (kvr_state_frame_shape_fits).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "common/state_frame.h"
#include "shm_layout/dispatch.h"

#define KVR_RELAY_VERSION 2
#define KVR_RELAY_HEADER 4
/**
 * Largest frame body: a table of KVR_RELAY_MAX_TABLE_ENGINES entries, each
 * of the longest state frame, with a full share fits (about 18.5 MiB;
 * checked in relay_wire.c). A table of typical entries is far smaller.
 */
#define KVR_RELAY_FRAME_MAX (20u << 20)
/** Most entries one table may list: as many engines as a router and a dispatch row hold. */
#define KVR_RELAY_MAX_TABLE_ENGINES KVR_DSP_MAX_ENGINES
/**
 * Most msgpack objects (keys, values, elements) one frame may hold: a table
 * entry takes about 40 and a share load 5, so a full table fits, and
 * msgpack-c's allocation for a frame stays near 24 bytes times this
 * (24 MiB) whatever the bytes claim.
 */
#define KVR_RELAY_MAX_OBJECTS (KVR_RELAY_MAX_TABLE_ENGINES * 64u)
/** Largest nonce or hello frame body. */
#define KVR_RELAY_HELLO_MAX 256
#define KVR_RELAY_NONCE_LEN 32
#define KVR_RELAY_MAC_LEN 32 /* HMAC-SHA256 */
/** Longest shared secret read from --relay-secret-file. */
#define KVR_RELAY_SECRET_MAX 1024

typedef struct kvr__relay_entry_s {
    kvr_state_frame_t frame;
    uint64_t age_ns;
    bool healthy;
    bool sampled; /* false: no sample yet on the exporter, age_ns meaningless */
} kvr__relay_entry_t;

/** Most engine loads and placements one table's "share" may list. */
#define KVR_RELAY_MAX_SHARE_LOADS KVR_DSP_MAX_ENGINES /* a row's every engine */
#define KVR_RELAY_MAX_PLACEMENTS 2048

typedef struct kvr__relay_placement_s {
    kvr_dsp_placement_t placement; /* kind, blocks, keys; sequence, origin, time and check unset */
    uint64_t age_ns;               /* now - placement time on the sender */
} kvr__relay_placement_t;

/** A table's "share": what the sending host's routers hold and placed. */
typedef struct kvr__relay_share_s {
    bool present;
    kvr_dsp_engine_t *loads;
    uint32_t load_count;
    kvr__relay_placement_t *placements;
    uint32_t placement_count;
} kvr__relay_share_t;

typedef struct kvr__relay_table_s {
    kvr__relay_entry_t *entries;
    uint32_t count;
    kvr__relay_share_t share;
} kvr__relay_table_t;

/** A challenge, hello or welcome: which fields a side requires is its own rule. */
typedef struct kvr__relay_handshake_s {
    bool has_nonce, has_mac;
    uint8_t nonce[KVR_RELAY_NONCE_LEN];
    uint8_t mac[KVR_RELAY_MAC_LEN];
} kvr__relay_handshake_t;

/** Who computes a MAC: each direction has its own label, so one cannot be replayed as the other. */
typedef enum { KVR_RELAY_ROLE_IMPORTER, KVR_RELAY_ROLE_EXPORTER } kvr__relay_role_t;

/**
 * The body length a frame header announces; -EMSGSIZE when it is 0 or above
 * max (the stream is then not a relay v2 stream, or hostile).
 */
int kvr__relay_frame_length(const uint8_t header[KVR_RELAY_HEADER], uint32_t max,
                            uint32_t *len_out);

/**
 * Decodes one table frame body (without its header). Never reads past len
 * and allocates at most a small multiple of len. Returns 0 with out owning
 * its entries (kvr__relay_table_free), or with *reason set (static text):
 *   -EMSGSIZE         len is 0 or above KVR_RELAY_FRAME_MAX, or the table
 *                     lists more than KVR_RELAY_MAX_TABLE_ENGINES engines
 *   KVR_EPARSE        not one msgpack map, a missing or mistyped key, a
 *                     state frame that does not decode
 *   -EPROTONOSUPPORT  "relay" is not KVR_RELAY_VERSION
 * A "share" that is not as described above (more than
 * KVR_RELAY_MAX_SHARE_LOADS loads or KVR_RELAY_MAX_PLACEMENTS placements:
 * -EMSGSIZE; a key 0, an unknown kind, more than 8 blocks: KVR_EPARSE)
 * fails the table likewise.
 * On failure out is empty.
 */
int kvr__relay_table_decode(const void *buf, size_t len, kvr__relay_table_t *out,
                            const char **reason);
void kvr__relay_table_free(kvr__relay_table_t *table);

/** Decodes a handshake frame body; 0 or negative with *reason (a nonce or hmac of the wrong size fails). */
int kvr__relay_handshake_decode(const void *buf, size_t len, kvr__relay_handshake_t *out,
                                const char **reason);
/** Writes a handshake frame, header included; nonce and mac may each be NULL. Its length, or -EMSGSIZE. */
int kvr__relay_handshake_encode(const uint8_t *nonce, const uint8_t *mac, void *buf, size_t cap);

/** Starts a table frame in sb: header placeholder, map, "engines" array of count. */
void kvr__relay_table_begin(msgpack_packer *pk, msgpack_sbuffer *sb, uint32_t count);
/** As kvr__relay_table_begin(); with_share: the map has room for a "share" after the engines. */
void kvr__relay_frame_begin(msgpack_packer *pk, msgpack_sbuffer *sb, uint32_t count,
                            bool with_share);
/** After the engines: "share" and its "loads" array of load_count, then one kvr__relay_share_load() each. */
void kvr__relay_share_begin(msgpack_packer *pk, uint32_t load_count);
void kvr__relay_share_load(msgpack_packer *pk, const kvr_dsp_engine_t *e);
/** Then "placed" of placement_count, one kvr__relay_share_placement() each. */
void kvr__relay_share_placed(msgpack_packer *pk, uint32_t placement_count);
void kvr__relay_share_placement(msgpack_packer *pk, const kvr_dsp_placement_t *p, uint64_t age_ns);
/** Appends one entry to the table being built. */
void kvr__relay_table_add(msgpack_packer *pk, const kvr_state_frame_t *f, uint64_t age_ns,
                          bool healthy, bool sampled);
/** Fills the header; -EMSGSIZE when the body exceeds KVR_RELAY_FRAME_MAX. */
int kvr__relay_table_end(msgpack_sbuffer *sb);

/** HMAC-SHA256 under secret of the role's label and the other side's nonce. 0 or -EIO. */
int kvr__relay_mac(const void *secret, size_t secret_len, kvr__relay_role_t role,
                   const uint8_t nonce[KVR_RELAY_NONCE_LEN], uint8_t mac[KVR_RELAY_MAC_LEN]);
/** Constant-time comparison of two MACs. */
bool kvr__relay_mac_equal(const uint8_t a[KVR_RELAY_MAC_LEN], const uint8_t b[KVR_RELAY_MAC_LEN]);

/**
 * Reads a shared secret: the file's bytes without trailing newlines, 1 to
 * KVR_RELAY_SECRET_MAX of them. 0 with *len_out, or negative with *reason.
 */
int kvr__relay_secret_read(const char *path, uint8_t *out, size_t cap, size_t *len_out,
                           const char **reason);

#endif
