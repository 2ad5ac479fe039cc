/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_ENGINE_URL_H
#define KVR_ROUTER_ENGINE_URL_H

/*
 * An engine's base URL as the libuv router connects to it. The decision
 * core (router/decide.h) knows engines by id only; resolving the id to an
 * address is the network side's business.
 */

#include <stddef.h>
#include <sys/socket.h>

/**
 * Parses "http://host:port[/]" (port defaults to 80). Resolves host once, now.
 * Returns 0, or -EINVAL (not an http URL), -ENAMETOOLONG, -EHOSTUNREACH (does not resolve).
 */
int kvr_engine_parse_url(const char *url, char *host_header, size_t host_len,
                         struct sockaddr_storage *addr, socklen_t *addr_len);

#endif
