/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_DISCOVERY_H
#define KVR_ROUTER_DISCOVERY_H

/*
 * --engine-dns for the gateway: one DNS watch (common/dns_watch.h) per
 * name, whose addresses become engines through the same path as POST
 * /engines and SIGHUP (kvr_router_add_engine / kvr_router_remove_engine):
 * a vanished engine leaves the candidate set at once and is dropped when its
 * in-flight requests finished. An engine given with --engine, or by another
 * name first, is never removed by a name.
 */

#include <stdbool.h>

#include "common/prom_writer.h"

struct kvr_router_s;

/** Starts resolving every --engine-dns name (nothing without one). 0 or -errno, logged. */
int kvr_router_discovery_start(struct kvr_router_s *r);
/** Stops resolving; done(r) runs once no discovery handle is left on the loop. */
void kvr_router_discovery_stop(struct kvr_router_s *r, void (*done)(struct kvr_router_s *r));
/** Frees the discovery state; after the loop ended. */
void kvr_router_discovery_close(struct kvr_router_s *r);
/** True when an --engine-dns name added the engine of this id (SIGHUP keeps it). */
bool kvr_router_discovery_owns(struct kvr_router_s *r, const char *id);
/** The kvroute_discovery_* families (none without --engine-dns). */
void kvr_router_discovery_metrics(struct kvr_router_s *r, kvr_prom_writer_t *w);

#endif
