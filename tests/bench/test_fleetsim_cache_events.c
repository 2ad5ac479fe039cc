/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-fleetsim --kv-events (bench/fleetsim/cache_events.c) as a user
 * relies on it: the engines' events reach the routers' own --cache-state
 * code through a real residency table, so routers that split the traffic
 * find the prefixes the others placed; with --cache-state own the events
 * change nothing; the table is removed at exit; a run that cannot use it is
 * refused before it starts. Every outcome is in virtual time.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/proc.h"

static char scratch[160];

static void scratch_setup(void)
{
    char name[96];
    kvr_test_unique_name(name, sizeof name, "fleetsim-kv");
    snprintf(scratch, sizeof scratch, "/tmp/%s", name);
    cr_assert_eq(mkdir(scratch, 0700), 0);
}

static void scratch_teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    cr_assert_eq(system(cmd), 0);
}

static const char *path_of(const char *file)
{
    static char paths[8][256];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 256, "%s/%s", scratch, file);
    return p;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    cr_assert(fread(buf, 1, (size_t)len, f) == (size_t)len);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

static pid_t last_pid;

/* Runs kvroute-fleetsim with args (NULL-terminated), its output into log; the exit status. */
static int run_fleetsim(const char *log, const char *const *args)
{
    char *argv[64];
    int n = 0;
    argv[n++] = (char *)kvr_test_bin("KVR_BIN_KVROUTE_FLEETSIM");
    for (; *args && n < 63; args++)
        argv[n++] = (char *)*args;
    argv[n] = NULL;
    last_pid = kvr_test_spawn(argv, log);
    cr_assert(last_pid > 0);
    int status = kvr_test_stop(last_pid, 0, 100000);
    cr_assert(WIFEXITED(status), "kvroute-fleetsim did not exit normally");
    return WEXITSTATUS(status);
}

/*
 * Sessions of two turns on a tenant's shared prefix of 24 blocks (tenant =
 * session % 2), opened 400 ms apart. With 4 routers taking sessions in turn,
 * routers 0 and 2 both serve tenant 0, 1 and 3 tenant 1: each router's own
 * index never sees where the other placed its tenant.
 */
static void write_trace(const char *path, int sessions)
{
    FILE *f = fopen(path, "w");
    cr_assert(f);
    for (int s = 0; s < sessions; s++)
        for (int t = 0; t < 2; t++) {
            int blocks = 24 + 2 * (t + 1);
            fprintf(f,
                    "{\"timestamp\":%d,\"input_length\":%d,\"output_length\":16,\"session_id\":"
                    "\"s%03d\",\"turn\":%d,\"hash_ids\":[",
                    s * 400 + t * 200, blocks * 512, s, t);
            for (int b = 0; b < blocks; b++)
                fprintf(f, "%s%d", b ? "," : "",
                        b < 24 ? (s % 2) * 1000 + b : 100000 + s * 100 + b);
            fputs("]}\n", f);
        }
    fclose(f);
}

/* Cache hit over the fleet, from --stats: prefix hit tokens over prefix query tokens. */
static double fleet_hit(const char *stats_path, cJSON **kv_events)
{
    char *text = slurp(stats_path);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    cr_assert(doc);
    double q = 0, h = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(doc, "engines"))
    {
        q += cJSON_GetObjectItem(e, "prefix_query_tokens")->valuedouble;
        h += cJSON_GetObjectItem(e, "prefix_hit_tokens")->valuedouble;
    }
    if (kv_events) {
        cJSON *k = cJSON_GetObjectItem(doc, "kv_events");
        *kv_events = k ? cJSON_Duplicate(k, 1) : NULL;
    }
    cJSON_Delete(doc);
    cr_assert(q > 0);
    return h / q;
}

TestSuite(fleetsim_kv_events, .init = scratch_setup, .fini = scratch_teardown);

Test(fleetsim_kv_events, routers_that_split_the_traffic_find_what_the_others_placed, .timeout = 60.)
{
    write_trace(path_of("t.jsonl"), 16);
    const char *own[] = {"--trace",
                         path_of("t.jsonl"),
                         "--engines",
                         "4",
                         "--routers",
                         "4",
                         "--policy",
                         "cache_aware",
                         "--es",
                         "1",
                         "--kv-events",
                         "--stats",
                         path_of("own.json"),
                         "--quiet",
                         "--",
                         "--cache-state",
                         "own",
                         NULL};
    cr_assert_eq(run_fleetsim(path_of("own.log"), own), 0);
    const char *events[] = {"--trace",
                            path_of("t.jsonl"),
                            "--engines",
                            "4",
                            "--routers",
                            "4",
                            "--policy",
                            "cache_aware",
                            "--es",
                            "1",
                            "--kv-events",
                            "--kv-events-delay-ms",
                            "50",
                            "--stats",
                            path_of("ev.json"),
                            "--decision-log",
                            path_of("d.jsonl"),
                            "--quiet",
                            "--",
                            "--cache-state",
                            "events",
                            NULL};
    cr_assert_eq(run_fleetsim(path_of("ev.log"), events), 0);
    char shm[128];
    snprintf(shm, sizeof shm, "/dev/shm/kvr-fleetsim-%ld-0-residency", (long)last_pid);
    cr_assert_neq(access(shm, F_OK), 0, "%s is left behind", shm);

    cJSON *kv = NULL;
    double hit_own = fleet_hit(path_of("own.json"), NULL);
    double hit_events = fleet_hit(path_of("ev.json"), &kv);
    /* Every tenant's second router finds the first one's placement in the table. */
    cr_assert_gt(hit_events, hit_own + 0.05, "cache hit: events %.3f, own index %.3f", hit_events,
                 hit_own);
    cr_assert(kv, "--stats has no kv_events object");
    cr_assert_gt(cJSON_GetObjectItem(kv, "stored_events")->valuedouble, 0);
    cr_assert_eq(cJSON_GetObjectItem(kv, "refused")->valuedouble, 0);
    cr_assert_eq(cJSON_GetObjectItem(kv, "delay_ms")->valuedouble, 50);
    cJSON_Delete(kv);
    /* The receipt: a decision of router 2 names the table as its match's source. */
    char *log = slurp(path_of("d-r2.jsonl"));
    cr_assert(strstr(log, "\"source\":\"events\""), "no match from events in router 2's log");
    free(log);
}

Test(fleetsim_kv_events, with_the_own_index_the_events_change_nothing, .timeout = 60.)
{
    write_trace(path_of("t.jsonl"), 12);
    const char *off[] = {"--trace",
                         path_of("t.jsonl"),
                         "--engines",
                         "4",
                         "--routers",
                         "2",
                         "--policy",
                         "cache_aware",
                         "--es",
                         "1",
                         "--out",
                         path_of("off.jsonl"),
                         "--quiet",
                         "--",
                         "--cache-state",
                         "own",
                         NULL};
    cr_assert_eq(run_fleetsim(path_of("off.log"), off), 0);
    const char *on[] = {"--trace",
                        path_of("t.jsonl"),
                        "--engines",
                        "4",
                        "--routers",
                        "2",
                        "--policy",
                        "cache_aware",
                        "--es",
                        "1",
                        "--kv-events",
                        "--out",
                        path_of("on.jsonl"),
                        "--quiet",
                        "--",
                        "--cache-state",
                        "own",
                        NULL};
    cr_assert_eq(run_fleetsim(path_of("on.log"), on), 0);
    char *a = slurp(path_of("off.jsonl")), *b = slurp(path_of("on.jsonl"));
    cr_assert_str_eq(a, b);
    free(a);
    free(b);
}

Test(fleetsim_kv_events, without_a_feed_the_table_is_refused_before_the_run, .timeout = 60.)
{
    write_trace(path_of("t.jsonl"), 4);
    const char *args[] = {"--trace", path_of("t.jsonl"), "--engines", "2", "--es",
                          "0",       "--kv-events",      "--quiet",   NULL};
    cr_assert_eq(run_fleetsim(path_of("es0.log"), args), 2);
    char *log = slurp(path_of("es0.log"));
    cr_assert(strstr(log, "--kv-events") && strstr(log, "ES=1"), "no reason given: %s", log);
    free(log);
}
