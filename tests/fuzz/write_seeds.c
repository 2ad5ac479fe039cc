/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes the seed corpora of fuzz_relay, fuzz_state_frame, fuzz_dispatch and fuzz_residency
 * with the real encoders, from the same fixtures the unit tests use:
 *   kvr-fuzz-write-seeds tests/fuzz/corpus
 * Run it again after a wire change and commit what it writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/state_frame.h"
#include "shm_layout/dispatch.h"
#include "shm_layout/residency.h"
#include "statefeed/relay_wire.h"

static int put(const char *dir, const char *target, const char *name, const void *data, size_t len)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s/%s", dir, target, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, len, f) != len) {
        fprintf(stderr, "write_seeds: cannot write %s\n", path);
        if (f)
            fclose(f);
        return -1;
    }
    return fclose(f);
}

static kvr_state_frame_t fixture(unsigned i, int full)
{
    kvr_state_frame_t f;
    memset(&f, 0, sizeof(f));
    f.version = KVR_STATE_FRAME_VERSION;
    snprintf(f.state.engine_id, sizeof(f.state.engine_id), "http://10.0.0.%u:8000", 7 + i);
    f.sample_unix_ns = 1764460000123456789ull + i;
    f.state.running = 38 + i;
    f.state.waiting = 116;
    if (full) {
        f.has_seq = true;
        f.seq = 4242;
        f.state.max_running = 256;
        f.state.dp_ranks = 2;
        f.state.kv_tokens_used = 1234567;
        f.state.kv_tokens_capacity = 2000000;
        f.state.kv_usage = 0.6172835;
        f.state.pending_prefill_tokens = 100000;
        f.state.max_prefill_remaining = 65536;
        f.state.utilization = 0.93;
        f.state.flags = KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_PENDING_PREFILL |
                        KVR_SLOT_HAS_UTILIZATION;
    }
    return f;
}

static void table(msgpack_sbuffer *sb, unsigned count)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    kvr__relay_table_begin(&pk, sb, count);
    for (unsigned i = 0; i < count; i++) {
        kvr_state_frame_t f = fixture(i, i % 2 == 0);
        kvr__relay_table_add(&pk, &f, 1000000u * i, i != 1, i != 2);
    }
    kvr__relay_table_end(sb);
}

/* A table from a statefeed with --share: two engines, a load, a prefix placement and a pin. */
static void table_shared(msgpack_sbuffer *sb)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    kvr__relay_frame_begin(&pk, sb, 2, true);
    for (unsigned i = 0; i < 2; i++) {
        kvr_state_frame_t f = fixture(i, i == 0);
        kvr__relay_table_add(&pk, &f, 1000000u * i, true, true);
    }
    kvr_dsp_engine_t load = {.key = kvr_dsp_engine_key("http://127.0.0.1:8001"),
                             .load = {3, 4096, 8192}};
    kvr__relay_share_begin(&pk, 1);
    kvr__relay_share_load(&pk, &load);
    kvr_dsp_placement_t prefix = {.kind = KVR_DSP_PLACE_PREFIX,
                                  .block_count = 8,
                                  .first_block = 8,
                                  .engine_key = load.key,
                                  .blocks = {1, 2, 3, 4, 5, 6, 7, 8}};
    kvr_dsp_placement_t pin = {.kind = KVR_DSP_PLACE_SESSION,
                               .engine_key = load.key,
                               .session_hash = kvr_dsp_session_hash("conv-a", 6)};
    kvr__relay_share_placed(&pk, 2);
    kvr__relay_share_placement(&pk, &prefix, 2000000);
    kvr__relay_share_placement(&pk, &pin, 1000000);
    kvr__relay_table_end(sb);
}

/* A table whose share lists n loads: past the 1,024 older tables were held to. */
static void table_many_loads(msgpack_sbuffer *sb, uint32_t n)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    kvr__relay_frame_begin(&pk, sb, 1, true);
    kvr_state_frame_t f = fixture(0, 1);
    kvr__relay_table_add(&pk, &f, 1000000u, true, true);
    kvr__relay_share_begin(&pk, n);
    for (uint32_t i = 0; i < n; i++)
        kvr__relay_share_load(
            &pk, &(kvr_dsp_engine_t){.key = i + 1, .load = {i % 7, 64u * i, 128u * i}});
    kvr__relay_share_placed(&pk, 0);
    kvr__relay_table_end(sb);
}

/* A dispatch segment with two routers' rows and ring entries, and its defects. */
static int dispatch_seeds(const char *dir)
{
    const kvr_dsp_geometry_t geo = {2, 4, 8};
    size_t len = kvr_dsp_size(&geo);
    unsigned char *seg = aligned_alloc(64, len), *copy = aligned_alloc(64, len);
    if (seg == NULL || copy == NULL)
        return -1;
    memset(seg, 0, len);
    int bad = kvr_dsp_format(seg, len, &geo) != 0;
    bad |= put(dir, "dispatch", "empty.bin", seg, len);
    /* fuzz_dispatch reads at 1000 s with a 2 s max age: these rows are live there. */
    const uint64_t now = 1000ull * 1000000000ull - 1000000ull;
    kvr_dsp_t a, b;
    bad |= kvr_dsp_attach(&a, seg, len) != 0 || kvr_dsp_attach(&b, seg, len) != 0;
    bad |= kvr_dsp_claim(&a, "127.0.0.1:8080", now, 2000000000ull) != 0;
    bad |= kvr_dsp_claim(&b, "127.0.0.1:8081", now, 2000000000ull) != 1;
    uint64_t keys[2] = {kvr_dsp_engine_key("http://127.0.0.1:8001"),
                        kvr_dsp_engine_key("http://127.0.0.1:8002")};
    kvr_dsp_load_t loads[2] = {{3, 4096, 8192}, {1, 0, 2048}};
    bad |= kvr_dsp_publish(&a, keys, loads, 2, now) != 0 ||
           kvr_dsp_publish(&b, keys, loads, 1, now) != 0;
    kvr_dsp_placement_t p = {.kind = KVR_DSP_PLACE_PREFIX,
                             .block_count = 8,
                             .engine_key = keys[0],
                             .time_ns = now,
                             .blocks = {1, 2, 3, 4, 5, 6, 7, 8}};
    bad |= kvr_dsp_append(&b, &p) != 0;
    p.first_block = 8;
    p.block_count = 1;
    bad |= kvr_dsp_append(&b, &p) != 0;
    kvr_dsp_placement_t pin = {.kind = KVR_DSP_PLACE_SESSION,
                               .engine_key = keys[1],
                               .time_ns = now,
                               .session_hash = kvr_dsp_session_hash("conversation-7", 14)};
    bad |= kvr_dsp_append(&a, &pin) != 0;
    bad |= put(dir, "dispatch", "two_rows_three_entries.bin", seg, len);
    const kvr_dsp_header_t *h = (const kvr_dsp_header_t *)seg;
    size_t row0 = h->header_size, ring = h->header_size + (size_t)h->row_capacity * h->row_size;
    /* Each defect on a copy: the row counter odd, an entry torn, one never completed,
     * the head far ahead, another major, and the object cut short. */
    struct {
        const char *name;
        size_t offset;
        uint64_t value;
        size_t keep;
    } defects[] = {
        {"row_seq_odd.bin", row0 + offsetof(kvr_dsp_row_t, seq), 7, len},
        {"entry_torn.bin", ring + 1 * sizeof(kvr_dsp_entry_t) + 64, 0xdeadbeef, len},
        {"entry_pending.bin", ring + 2 * sizeof(kvr_dsp_entry_t), 2 * 2 + 1, len},
        {"ring_head_ahead.bin", offsetof(kvr_dsp_header_t, ring_head), 1000, len},
        {"major_2.bin", offsetof(kvr_dsp_header_t, abi_major), 2, len},
        {"truncated.bin", 0, KVR_DSP_MAGIC, 300},
    };
    for (size_t i = 0; i < sizeof defects / sizeof defects[0]; i++) {
        memcpy(copy, seg, len);
        if (defects[i].offset == offsetof(kvr_dsp_header_t, abi_major)) {
            uint16_t major = (uint16_t)defects[i].value;
            memcpy(copy + defects[i].offset, &major, sizeof major);
        } else {
            memcpy(copy + defects[i].offset, &defects[i].value, sizeof defects[i].value);
        }
        bad |= put(dir, "dispatch", defects[i].name, copy, defects[i].keep);
    }
    free(a.payload);
    free(b.payload);
    free(seg);
    free(copy);
    return bad ? -1 : 0;
}

/* A residency table of 4 engines and 16 buckets with two chains, then each defect on a copy. */
static int residency_seeds(const char *dir)
{
    enum { LEN = KVR_RES_HEADER_SIZE + 64 + 16 * KVR_RES_BUCKET_SIZE };
    static _Alignas(64) unsigned char table[LEN], copy[LEN];
    kvr_residency_writer_t w;
    if (kvr_residency_writer_init_buffer(&w, table, LEN, 4, 0x5eed) != 0)
        return -1;
    for (uint32_t i = 0; i < 12; i++) {
        uint64_t h = 0x1000u + i;
        kvr_residency_stored(&w, 0, h, KVR_RES_TIER_GPU);
        kvr_residency_stored(&w, 1, h, i < 6 ? KVR_RES_TIER_GPU : KVR_RES_TIER_HOST);
        if (i < 4)
            kvr_residency_stored(&w, 3, h, KVR_RES_TIER_DISK);
    }
    kvr_residency_trust(&w, 0, true);
    kvr_residency_trust(&w, 1, true);
    kvr_residency_trust(&w, 3, true);
    kvr_residency_cleared(&w, 3);
    kvr_residency_trust(&w, 2, true);
    /* Fixed liveness, so the seeds are the same bytes every run (the fuzz target's clock). */
    atomic_store(&w.header->writer_pid, 1);
    atomic_store(&w.header->heartbeat_ns, 1000ull * 1000000000ull);
    int bad = put(dir, "residency", "two_chains.bin", table, w.map_len);
    size_t buckets = KVR_RES_HEADER_SIZE + 64;
    struct {
        const char *name;
        size_t offset;
        uint64_t value;
        size_t keep;
    } defects[] = {
        {"bucket_seq_odd.bin", buckets, 7, LEN},
        {"holder_slot_out_of_range.bin", buckets + 16, KVR_RES_HOLDER(9, 0, 1), LEN},
        {"engines_past_end.bin", offsetof(kvr_res_header_t, engines), 1u << 20, LEN},
        {"buckets_past_end.bin", offsetof(kvr_res_header_t, bucket_count), 1u << 20, LEN},
        {"major_2.bin", offsetof(kvr_res_header_t, abi_major), 2, LEN},
        {"truncated.bin", 0, KVR_RES_MAGIC, 300},
    };
    for (size_t i = 0; i < sizeof defects / sizeof defects[0]; i++) {
        memcpy(copy, table, LEN);
        size_t width = defects[i].offset == offsetof(kvr_res_header_t, abi_major) ? 2
                       : defects[i].offset == offsetof(kvr_res_header_t, engines) ? 4
                                                                                  : 8;
        memcpy(copy + defects[i].offset, &defects[i].value, width);
        bad |= put(dir, "residency", defects[i].name, copy, defects[i].keep);
    }
    kvr_residency_writer_close(&w);
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kvr-fuzz-write-seeds CORPUS_DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    int bad = 0;
    char buf[KVR_STATE_FRAME_MAX];
    size_t len = 0;
    kvr_state_frame_t f = fixture(0, 1);
    bad |= kvr_state_frame_encode(&f, buf, sizeof(buf), &len) ||
           put(dir, "state_frame", "full.bin", buf, len);
    f = fixture(1, 0);
    bad |= kvr_state_frame_encode(&f, buf, sizeof(buf), &len) ||
           put(dir, "state_frame", "minimal.bin", buf, len);
    static const unsigned char wrong_version[] = {
        0x85, 0xa1, 'v',  0x02, 0xa6, 'e', 'n',  'g',  'i', 'n', 'e', 0xa1, 'x',
        0xa5, 't',  's',  '_',  'n',  's', 0x01, 0xa7, 'r', 'u', 'n', 'n',  'i',
        'n',  'g',  0x00, 0xa7, 'w',  'a', 'i',  't',  'i', 'n', 'g', 0x00};
    bad |= put(dir, "state_frame", "wrong_version.bin", wrong_version, sizeof(wrong_version));
    static const unsigned char huge_map[] = {0xdf, 0xff, 0xff, 0xff, 0xff};
    bad |= put(dir, "state_frame", "map32_header.bin", huge_map, sizeof(huge_map));

    msgpack_sbuffer sb;
    table(&sb, 3);
    /* Bodies for the decoder, and the framed stream the importer reads. */
    bad |= put(dir, "relay", "table3_body.bin", sb.data + KVR_RELAY_HEADER,
               sb.size - KVR_RELAY_HEADER);
    uint8_t nonce[KVR_RELAY_NONCE_LEN] = {0}, mac[KVR_RELAY_MAC_LEN];
    uint8_t hello[KVR_RELAY_HEADER + KVR_RELAY_HELLO_MAX];
    int n = kvr__relay_handshake_encode(nonce, NULL, hello, sizeof(hello));
    bad |= n < 0 || put(dir, "relay", "challenge_body.bin", hello + KVR_RELAY_HEADER,
                        (size_t)n - KVR_RELAY_HEADER);
    char stream[8192];
    size_t slen = 0;
    if (n > 0 && (size_t)n + sb.size <= sizeof(stream)) {
        memcpy(stream, hello, (size_t)n);
        memcpy(stream + n, sb.data, sb.size);
        slen = (size_t)n + sb.size;
    }
    bad |= put(dir, "relay", "stream_challenge_table.bin", stream, slen);
    msgpack_sbuffer_destroy(&sb);
    bad |= kvr__relay_mac("secret", 6, KVR_RELAY_ROLE_IMPORTER, nonce, mac) != 0;
    n = kvr__relay_handshake_encode(nonce, mac, hello, sizeof(hello));
    bad |= n < 0 || put(dir, "relay", "hello_body.bin", hello + KVR_RELAY_HEADER,
                        (size_t)n - KVR_RELAY_HEADER);
    table(&sb, 0);
    bad |= put(dir, "relay", "table0_body.bin", sb.data + KVR_RELAY_HEADER,
               sb.size - KVR_RELAY_HEADER);
    msgpack_sbuffer_destroy(&sb);
    table_shared(&sb);
    bad |= put(dir, "relay", "table_share_body.bin", sb.data + KVR_RELAY_HEADER,
               sb.size - KVR_RELAY_HEADER);
    msgpack_sbuffer_destroy(&sb);
    table_many_loads(&sb, 1100);
    bad |= put(dir, "relay", "table_share_1100_loads_body.bin", sb.data + KVR_RELAY_HEADER,
               sb.size - KVR_RELAY_HEADER);
    msgpack_sbuffer_destroy(&sb);
    static const unsigned char engines_array32[] = {0x82, 0xa5, 'r',  'e',  'l',  'a',  'y',
                                                    0x02, 0xa7, 'e',  'n',  'g',  'i',  'n',
                                                    'e',  's',  0xdd, 0xff, 0xff, 0xff, 0xff};
    bad |= put(dir, "relay", "engines_array32_header.bin", engines_array32,
               sizeof(engines_array32));
    bad |= dispatch_seeds(dir) != 0;
    bad |= residency_seeds(dir) != 0;
    return bad ? 1 : 0;
}
