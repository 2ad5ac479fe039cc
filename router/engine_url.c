/* SPDX-License-Identifier: Apache-2.0 */
#include "router/engine_url.h"

#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>

int kvr_engine_parse_url(const char *url, char *host_header, size_t host_len,
                         struct sockaddr_storage *addr, socklen_t *addr_len)
{
    static const char scheme[] = "http://";
    if (strncmp(url, scheme, sizeof scheme - 1) != 0)
        return -EINVAL;
    const char *p = url + sizeof scheme - 1;
    const char *end = p + strcspn(p, "/?#");
    if (end == p || end[0] == '?' || end[0] == '#' || (end[0] == '/' && end[1] != '\0'))
        return -EINVAL; /* only a bare base URL: engines are addressed at their root */
    size_t hp_len = (size_t)(end - p);
    if (hp_len >= host_len || hp_len >= 256)
        return -ENAMETOOLONG;
    char hostport[256];
    memcpy(hostport, p, hp_len);
    hostport[hp_len] = '\0';

    char host[256];
    const char *port = "80";
    if (hostport[0] == '[') {
        char *close = strchr(hostport, ']');
        if (!close)
            return -EINVAL;
        size_t n = (size_t)(close - hostport - 1);
        memcpy(host, hostport + 1, n);
        host[n] = '\0';
        if (close[1] == ':')
            port = close + 2;
        else if (close[1] != '\0')
            return -EINVAL;
    } else {
        char *colon = strrchr(hostport, ':');
        size_t n = colon ? (size_t)(colon - hostport) : hp_len;
        memcpy(host, hostport, n);
        host[n] = '\0';
        if (colon)
            port = colon + 1;
    }
    char *endp;
    long portnum = strtol(port, &endp, 10);
    if (host[0] == '\0' || *endp != '\0' || portnum <= 0 || portnum > 65535)
        return -EINVAL;

    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    if (getaddrinfo(host, port, &hints, &res) != 0 || !res)
        return -EHOSTUNREACH;
    memcpy(addr, res->ai_addr, res->ai_addrlen);
    *addr_len = res->ai_addrlen;
    freeaddrinfo(res);
    memcpy(host_header, hostport, hp_len + 1);
    return 0;
}
