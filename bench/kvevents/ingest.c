/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-kvevents: what statefeed's KV event path costs on one core,
 * and what a router's residency lookup costs, on msgpack batches built as the
 * engines build them (tests/statefeed/kv_frames.h), in both encodings.
 *
 * Ingest: --engines engines each publish batches of --events BlockStored
 * events of --blocks blocks (one request's chain: each event's parent is the
 * last block of the one before) and, from the --live-batches'th batch on,
 * BlockRemoved events for the blocks of the batch that many batches before,
 * so the table stays at a steady fill. Stages, each timed on its own over the
 * same bytes (thread CPU time and wall time; encoding is outside the timing):
 *   decode   kvr_kv_batch_decode alone;
 *   cache    + kvr_kv_cache_apply (kvroute's chain hash of the token ids and
 *            the engine-hash map), no table;
 *   table    + the residency writer on a real /dev/shm table of --mb MiB:
 *            the whole path statefeed runs per batch.
 * A block event is one block stored or removed.
 *
 * Lookup: a request of --lookup-blocks blocks against the table the ingest
 * left, at --engines engines, as the router's path runs it
 * (kvr_residency_reader_check, then kvr_residency_lookup): the request the
 * engines hold none of, and requests whose blocks k engines hold in full.
 *
 * Storm: stores of distinct blocks from every engine, no removals, into a
 * table of --storm-mb MiB until --storm-events: the object's size, the
 * entries it took, the stores it refused; and one engine rank's map of
 * engine hashes flooded past statefeed's --kv-max-blocks (its own bound).
 *
 * Prints figures, asserts nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/options.h"
#include "common/prefix_hash.h"
#include "common/rng.h"
#include "shm_layout/residency.h"
#include "statefeed/kv_cache.h"
#include "statefeed/kv_events.h"
#include "tests/statefeed/kv_frames.h"

#define BLOCK_TOKENS 16
#define CHUNK_BATCHES 256 /* batches encoded, then timed, at a time */

typedef struct {
    uint64_t engines, events, blocks, live_batches, batches, mb, lookup_blocks, lookups, storm_mb,
        storm_events, seed;
} bench_opts_t;

typedef enum { STAGE_DECODE, STAGE_CACHE, STAGE_TABLE, STAGES } stage_t;
static const char *const stage_names[] = {"decode", "cache", "table"};

/* One engine's history: the engine hashes of the batches still live, for their removal. */
typedef struct {
    uint64_t *ring; /* live_batches x events x blocks engine hashes */
    uint64_t stored_batches;
    kvr_kv_cache_t cache;
} engine_t;

typedef struct {
    const bench_opts_t *o;
    bool map;
    stage_t stage;
    engine_t *engines;
    kvr_residency_writer_t table;
    bool table_open;
    kvr_kv_decoder_t dec;
    uint64_t rng;
    uint32_t *tokens; /* events x blocks x BLOCK_TOKENS, reused per batch */
    msgpack_sbuffer *chunk;
    uint32_t chunk_engine[CHUNK_BATCHES];
    size_t chunk_n;
    uint64_t block_events, stored_blocks, removed_blocks, cpu_ns, wall_ns;
    uint64_t first_hashes[64]; /* engine e's first kvroute block hash of its latest batch */
} run_t;

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * KVR_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

static void table_name(char *out, size_t size, const char *what)
{
    snprintf(out, size, "/kvr-bench-kvevents-%s-%d", what, (int)getpid());
}

/* Fails the run, and removes the tables it made: they may be hundreds of MiB of tmpfs. */
static void die(const char *what, int rc)
{
    fprintf(stderr, "kvroute-bench-kvevents: %s: %s\n", what, kvr_strerror(rc));
    char name[96];
    table_name(name, sizeof name, "ingest");
    shm_unlink(name);
    table_name(name, sizeof name, "storm");
    shm_unlink(name);
    exit(1);
}

/* Encodes engine e's next batch into sb: its new chain, and the removal of its oldest live one. */
static void encode_batch(run_t *r, uint32_t e, msgpack_sbuffer *sb)
{
    const bench_opts_t *o = r->o;
    engine_t *en = &r->engines[e];
    size_t per_batch = o->events * o->blocks;
    uint64_t slot = en->stored_batches % o->live_batches;
    uint64_t *hashes = &en->ring[slot * per_batch];
    bool removing = en->stored_batches >= o->live_batches;
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    kv_batch_begin(&pk, r->map, o->events * (removing ? 2 : 1));
    if (removing)
        for (size_t ev = 0; ev < o->events; ev++)
            kv_pack_removed(&pk, r->map, &hashes[ev * o->blocks], o->blocks, NULL);
    for (size_t i = 0; i < per_batch; i++)
        hashes[i] = kvr_splitmix64(&r->rng);
    for (size_t i = 0; i < per_batch * BLOCK_TOKENS; i++)
        r->tokens[i] = (uint32_t)(kvr_splitmix64(&r->rng) % 150000u);
    for (size_t ev = 0; ev < o->events; ev++) {
        kv_stored_t st = {.hashes = &hashes[ev * o->blocks],
                          .n_hashes = o->blocks,
                          .has_parent = ev > 0,
                          .parent = ev > 0 ? hashes[ev * o->blocks - 1] : 0,
                          .tokens = &r->tokens[ev * o->blocks * BLOCK_TOKENS],
                          .n_tokens = o->blocks * BLOCK_TOKENS,
                          .block_size = BLOCK_TOKENS};
        kv_pack_stored(&pk, r->map, &st);
    }
    if (e < 64) {
        uint64_t h;
        kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, r->tokens, BLOCK_TOKENS, BLOCK_TOKENS, &h, 1);
        r->first_hashes[e] = h;
    }
    en->stored_batches++;
}

typedef struct {
    run_t *r;
    engine_t *en;
} apply_ctx_t;

static int on_event(void *arg, const kvr_kv_event_t *ev)
{
    apply_ctx_t *a = arg;
    if (ev->kind == KVR_KV_EVENT_STORED)
        a->r->stored_blocks += ev->n_hashes;
    else if (ev->kind == KVR_KV_EVENT_REMOVED)
        a->r->removed_blocks += ev->n_hashes;
    a->r->block_events += ev->n_hashes;
    if (a->r->stage != STAGE_DECODE)
        kvr_kv_cache_apply(&a->en->cache, ev);
    return 0;
}

/* Decodes (and applies) the chunk's batches: the timed part. */
static void take_chunk(run_t *r, bool timed)
{
    uint64_t c0 = thread_cpu_ns(), w0 = kvr_clock_now_ns();
    uint64_t events0 = r->block_events;
    for (size_t i = 0; i < r->chunk_n; i++) {
        apply_ctx_t a = {r, &r->engines[r->chunk_engine[i]]};
        kvr_kv_batch_t batch;
        const char *why = NULL;
        int rc = kvr_kv_batch_decode(&r->dec, r->chunk[i].data, r->chunk[i].size, on_event, &a,
                                     &batch, &why);
        if (rc < 0) {
            fprintf(stderr, "kvroute-bench-kvevents: batch refused: %s\n", why ? why : "?");
            exit(1);
        }
        msgpack_sbuffer_clear(&r->chunk[i]);
    }
    if (r->table_open)
        kvr_residency_writer_tick(&r->table, kvr_clock_now_ns(), 4096);
    if (timed) {
        r->cpu_ns += thread_cpu_ns() - c0;
        r->wall_ns += kvr_clock_now_ns() - w0;
    } else {
        r->block_events = events0; /* warm-up: not counted */
    }
}

static void table_stored(void *ctx, uint32_t slot, uint64_t hash, kvr_kv_tier_t tier)
{
    (void)kvr_residency_stored(ctx, slot, hash, (uint32_t)tier);
}
static void table_removed(void *ctx, uint32_t slot, uint64_t hash, kvr_kv_tier_t tier)
{
    (void)kvr_residency_removed(ctx, slot, hash, (uint32_t)tier);
}
static void table_cleared(void *ctx, uint32_t slot)
{
    (void)kvr_residency_cleared(ctx, slot);
}
static void table_trust(void *ctx, uint32_t slot, bool trusted)
{
    (void)kvr_residency_trust(ctx, slot, trusted);
}

static void run_setup(run_t *r, const bench_opts_t *o, bool map, stage_t stage, uint32_t mb)
{
    memset(r, 0, sizeof *r);
    r->o = o;
    r->map = map;
    r->stage = stage;
    r->rng = o->seed;
    int rc = kvr_kv_decoder_init(&r->dec);
    if (rc < 0)
        die("decoder", rc);
    kvr_kv_sink_t sink = {0};
    if (stage == STAGE_TABLE) {
        char name[96];
        table_name(name, sizeof name, "ingest");
        rc = kvr_residency_writer_open(&r->table, name, mb, (uint32_t)o->engines);
        if (rc < 0)
            die("residency table", rc);
        r->table_open = true;
        sink = (kvr_kv_sink_t){.ctx = &r->table,
                               .stored = table_stored,
                               .removed = table_removed,
                               .cleared = table_cleared,
                               .trust = table_trust};
        for (uint32_t s = 0; s < o->engines; s++)
            kvr_residency_trust(&r->table, s, true);
    }
    size_t per_batch = o->events * o->blocks;
    r->engines = calloc(o->engines, sizeof *r->engines);
    r->tokens = malloc(per_batch * BLOCK_TOKENS * sizeof *r->tokens);
    r->chunk = calloc(CHUNK_BATCHES, sizeof *r->chunk);
    if (!r->engines || !r->tokens || !r->chunk)
        die("memory", -ENOMEM);
    for (size_t i = 0; i < CHUNK_BATCHES; i++)
        msgpack_sbuffer_init(&r->chunk[i]);
    for (uint32_t e = 0; e < o->engines; e++) {
        engine_t *en = &r->engines[e];
        en->ring = calloc(o->live_batches * per_batch, sizeof *en->ring);
        if (!en->ring)
            die("memory", -ENOMEM);
        rc = kvr_kv_cache_init(&en->cache, e, stage == STAGE_TABLE ? &sink : NULL, 1u << 30);
        if (rc < 0)
            die("engine cache", rc);
    }
}

static void run_free(run_t *r)
{
    for (uint32_t e = 0; e < r->o->engines; e++) {
        kvr_kv_cache_close(&r->engines[e].cache);
        free(r->engines[e].ring);
    }
    for (size_t i = 0; i < CHUNK_BATCHES; i++)
        msgpack_sbuffer_destroy(&r->chunk[i]);
    free(r->chunk);
    free(r->engines);
    free(r->tokens);
    kvr_kv_decoder_close(&r->dec);
    if (r->table_open)
        kvr_residency_writer_destroy(&r->table);
    r->table_open = false;
}

/* Batches round-robin over the engines: warm-up until every engine removes, then timed. */
static void run_batches(run_t *r)
{
    const bench_opts_t *o = r->o;
    uint64_t warm = o->engines * o->live_batches;
    uint64_t total = warm + o->batches;
    uint32_t e = 0;
    for (uint64_t b = 0; b < total;) {
        r->chunk_n = 0;
        bool timed = b >= warm;
        while (r->chunk_n < CHUNK_BATCHES && b < total && (b >= warm) == timed) {
            encode_batch(r, e, &r->chunk[r->chunk_n]);
            r->chunk_engine[r->chunk_n++] = e;
            e = (uint32_t)((e + 1) % o->engines);
            b++;
        }
        take_chunk(r, timed);
    }
}

static void print_ingest(const run_t *r, uint64_t bytes_per_batch)
{
    double cpu_s = (double)r->cpu_ns / 1e9, wall_s = (double)r->wall_ns / 1e9;
    printf("ingest encoding=%-5s stage=%-6s block_events=%-9llu cpu_s=%.3f "
           "per_core_Mev_s=%.2f wall_Mev_s=%.2f ns_per_block_event=%.0f batch_bytes=%llu",
           r->map ? "map" : "array", stage_names[r->stage], (unsigned long long)r->block_events,
           cpu_s, (double)r->block_events / cpu_s / 1e6, (double)r->block_events / wall_s / 1e6,
           (double)r->cpu_ns / (double)r->block_events, (unsigned long long)bytes_per_batch);
    if (r->table_open)
        printf(" table_entries=%llu refused=%llu", (unsigned long long)r->table.stats.entries,
               (unsigned long long)r->table.stats.refused_total);
    printf("\n");
}

static uint64_t batch_bytes(const bench_opts_t *o, bool map)
{
    run_t r;
    bench_opts_t one = *o;
    one.engines = 1;
    run_setup(&r, &one, map, STAGE_DECODE, 1);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    for (uint64_t i = 0; i <= o->live_batches; i++) {
        msgpack_sbuffer_clear(&sb);
        encode_batch(&r, 0, &sb);
    }
    uint64_t n = sb.size;
    msgpack_sbuffer_destroy(&sb);
    run_free(&r);
    return n;
}

/* ---- lookup ---------------------------------------------------------------- */

static void lookup_case(kvr_residency_writer_t *w, kvr_residency_reader_t *rd, const char *label,
                        const uint64_t *req, size_t n, uint64_t lookups, uint32_t engines)
{
    /* a fresh heartbeat: the lookups of a case may outlast the router's staleness bound */
    kvr_residency_writer_tick(w, kvr_clock_now_ns(), 0);
    kvr_res_match_t *m = calloc(engines, sizeof *m);
    size_t found = 0;
    uint64_t c0 = thread_cpu_ns();
    for (uint64_t i = 0; i < lookups; i++) {
        int rc = kvr_residency_reader_check(rd, kvr_clock_now_ns(), 3600 * KVR_NS_PER_SEC);
        if (rc != 0)
            die("reader check", rc);
        found = kvr_residency_lookup(rd, req, n, m, engines);
    }
    uint64_t spent = thread_cpu_ns() - c0;
    uint32_t deepest = 0;
    for (size_t i = 0; i < found; i++)
        deepest = m[i].blocks[0] > deepest ? m[i].blocks[0] : deepest;
    printf("lookup case=%-14s engines=%u blocks=%zu lookups=%llu us_per_lookup=%.3f "
           "matched_engines=%zu deepest=%u\n",
           label, engines, n, (unsigned long long)lookups, (double)spent / (double)lookups / 1e3,
           found, deepest);
    free(m);
}

/*
 * The ingest's table holds each engine's recent chains; on top, k engines get
 * the whole request (a prefix k engines cached), as the router would look it up.
 */
static void run_lookup(const bench_opts_t *o)
{
    run_t r;
    run_setup(&r, o, true, STAGE_TABLE, (uint32_t)o->mb);
    bench_opts_t fill = *o;
    fill.batches = 0;
    r.o = &fill;
    run_batches(&r);
    size_t n = o->lookup_blocks;
    uint64_t *req = malloc(n * sizeof *req);
    uint32_t *tokens = malloc(n * BLOCK_TOKENS * sizeof *tokens);
    for (size_t i = 0; i < n * BLOCK_TOKENS; i++)
        tokens[i] = (uint32_t)(kvr_splitmix64(&r.rng) % 150000u);
    kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, tokens, n * BLOCK_TOKENS, BLOCK_TOKENS, req, n);
    char name[96];
    table_name(name, sizeof name, "ingest");
    kvr_residency_reader_t rd;
    int rc = kvr_residency_reader_open(&rd, name, geteuid());
    if (rc < 0)
        die("reader", rc);
    uint32_t engines = (uint32_t)o->engines;
    lookup_case(&r.table, &rd, "none_hold", req, n, o->lookups, engines);
    /* a request whose first block one engine's latest chain starts with: one engine, one block */
    lookup_case(&r.table, &rd, "one_block", &r.first_hashes[0], 1, o->lookups, engines);
    const uint32_t holders[] = {1, 8, 64};
    uint32_t done = 0;
    for (size_t h = 0; h < sizeof holders / sizeof holders[0]; h++) {
        uint32_t k = holders[h] < engines ? holders[h] : engines;
        for (; done < k; done++)
            for (size_t i = 0; i < n; i++)
                (void)kvr_residency_stored(&r.table, done, req[i], KVR_RES_TIER_GPU);
        char label[32];
        snprintf(label, sizeof label, "%u_hold_all", k);
        lookup_case(&r.table, &rd, label, req, n, o->lookups, engines);
        if (k == engines)
            break;
    }
    kvr_residency_reader_close(&rd);
    free(req);
    free(tokens);
    run_free(&r);
}

/* ---- storm ----------------------------------------------------------------- */

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

static void run_storm(const bench_opts_t *o)
{
    char name[96];
    table_name(name, sizeof name, "storm");
    kvr_residency_writer_t w;
    uint32_t engines = (uint32_t)o->engines;
    int rc = kvr_residency_writer_open(&w, name, (uint32_t)o->storm_mb, engines);
    if (rc < 0)
        die("storm table", rc);
    long rss0 = rss_kib();
    uint64_t rng = o->seed ^ 0x5757, refused = 0, stored = 0, first_refusal = 0;
    uint64_t c0 = thread_cpu_ns();
    for (uint64_t i = 0; i < o->storm_events; i++) {
        rc = kvr_residency_stored(&w, (uint32_t)(i % engines), kvr_splitmix64(&rng) | 1,
                                  KVR_RES_TIER_GPU);
        if (rc == -ENOSPC) {
            if (refused++ == 0)
                first_refusal = i;
        } else if (rc == 0) {
            stored++;
        }
    }
    uint64_t spent = thread_cpu_ns() - c0;
    struct stat st;
    int fd = shm_open(name, O_RDONLY, 0);
    long object = fd >= 0 && fstat(fd, &st) == 0 ? (long)st.st_size : -1;
    if (fd >= 0)
        close(fd);
    kvr_res_stats_t s;
    kvr_residency_writer_stats(&w, &s);
    printf("storm mb=%llu limit_bytes=%llu object_bytes=%ld stores=%llu stored=%llu "
           "refused=%llu first_refusal_at=%llu entries=%llu capacity_entries=%llu "
           "ns_per_store=%.0f writer_rss_growth_kib=%ld\n",
           (unsigned long long)o->storm_mb, (unsigned long long)(o->storm_mb << 20), object,
           (unsigned long long)o->storm_events, (unsigned long long)stored,
           (unsigned long long)refused, (unsigned long long)first_refusal,
           (unsigned long long)s.entries, (unsigned long long)s.capacity_entries,
           (double)spent / (double)o->storm_events, rss_kib() - rss0);
    kvr_residency_writer_destroy(&w);
}

/*
 * The other memory an event storm can take: one engine rank's map of engine
 * hashes (kv_cache.c), bounded by statefeed's --kv-max-blocks, not by the table.
 */
static void run_storm_map(const bench_opts_t *o)
{
    const size_t max_blocks = 1048576; /* statefeed's --kv-max-blocks default */
    kvr_kv_cache_t kc;
    int rc = kvr_kv_cache_init(&kc, 0, NULL, max_blocks);
    if (rc < 0)
        die("engine cache", rc);
    uint64_t rng = o->seed ^ 0x3131, hashes[16];
    uint32_t tokens[16 * BLOCK_TOKENS];
    uint64_t events = (max_blocks + max_blocks / 4) / 16;
    for (uint64_t i = 0; i < events; i++) {
        for (int k = 0; k < 16; k++)
            hashes[k] = kvr_splitmix64(&rng);
        for (int k = 0; k < 16 * BLOCK_TOKENS; k++)
            tokens[k] = (uint32_t)kvr_splitmix64(&rng);
        kvr_kv_event_t ev = {.kind = KVR_KV_EVENT_STORED,
                             .engine_hashes = hashes,
                             .n_hashes = 16,
                             .token_ids = tokens,
                             .n_tokens = 16 * BLOCK_TOKENS,
                             .block_size = BLOCK_TOKENS,
                             .tier = KVR_KV_TIER_GPU,
                             .group_idx = -1,
                             .extra_keys_from = 16};
        kvr_kv_cache_apply(&kc, &ev);
    }
    printf("storm_map max_blocks=%zu stored_blocks=%llu held=%llu overflows=%llu trusted=%d "
           "map_bytes=%zu\n",
           max_blocks, (unsigned long long)(events * 16),
           (unsigned long long)kvr_kv_cache_blocks(&kc), (unsigned long long)kc.overflows,
           kc.trusted ? 1 : 0, kc.cap * sizeof *kc.table);
    kvr_kv_cache_close(&kc);
}

#define T bench_opts_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_U64(T, engines, "engines", "N", "64", 1, 4096, "engines publishing events"),
    KVR_OPT_ROW_U64(T, events, "events", "N", "8", 1, 1024, "BlockStored events per batch"),
    KVR_OPT_ROW_U64(T, blocks, "blocks", "N", "16", 1, KVR_KV_MAX_BLOCKS,
                    "blocks per event (of 16 tokens)"),
    KVR_OPT_ROW_U64(T, live_batches, "live-batches", "N", "64", 1, 65536,
                    "batches each engine holds before its oldest is removed"),
    KVR_OPT_ROW_U64(T, batches, "batches", "N", "20000", 1, 100000000,
                    "timed batches per stage and encoding"),
    KVR_OPT_ROW_U64(T, mb, "mb", "MB", "256", KVR_RES_MIN_MB, 65536,
                    "residency table of the ingest and lookup (MiB)"),
    KVR_OPT_ROW_U64(T, lookup_blocks, "lookup-blocks", "N", "512", 1, KVR_KV_MAX_BLOCKS,
                    "blocks of the looked-up request (512: an 8k-token prompt)"),
    KVR_OPT_ROW_U64(T, lookups, "lookups", "N", "2000", 1, 100000000, "lookups per case"),
    KVR_OPT_ROW_U64(T, storm_mb, "storm-mb", "MB", "8", KVR_RES_MIN_MB, 65536,
                    "residency table of the storm (MiB)"),
    KVR_OPT_ROW_U64(T, storm_events, "storm-events", "N", "2000000", 1, 1000000000,
                    "distinct blocks stored in the storm"),
    KVR_OPT_ROW_U64(T, seed, "seed", "N", "1", 0, UINT64_MAX, "seed of hashes and token ids"),
    KVR_OPT_ROW_HELP,
};
#undef T

int main(int argc, char **argv)
{
    bench_opts_t o;
    kvr_opt_set_t set = {.opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &o};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {
        .name = "kvroute-bench-kvevents",
        .head = "usage: kvroute-bench-kvevents [options]\n"
                "KV event ingest per core (decode, chain hash, residency table), the router's\n"
                "residency lookup, and the table's bound under a storm of stores.\n"};
    int rc = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (rc != 0)
        return rc > 0 ? 0 : 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int map = 1; map >= 0; map--) {
        uint64_t bytes = batch_bytes(&o, map);
        for (stage_t s = 0; s < STAGES; s++) {
            run_t r;
            run_setup(&r, &o, map, s, (uint32_t)o.mb);
            run_batches(&r);
            print_ingest(&r, bytes);
            run_free(&r);
        }
    }
    run_lookup(&o);
    run_storm(&o);
    run_storm_map(&o);
    return 0;
}
