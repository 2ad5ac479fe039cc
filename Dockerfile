# SPDX-License-Identifier: Apache-2.0
# kvroute, kvroute-statefeed and kvroute-shm on Debian 12.
#
#   docker build -t kvroute .
#   docker run --rm -p 8080:8080 kvroute --listen 0.0.0.0:8080 --engine http://10.0.0.11:8000 --es 0
#
# The builder runs the README's "Building by hand" commands for the three
# programs, nothing else (tests/deploy/test_dockerfile.py checks that they
# stay the same lines): the build libraries only, no test or bench tool.
# bench/image/run.sh builds this file offline with buildah from a
# debootstrapped Debian 12 and routes a request through the result.
# The runtime stage holds the three programs and the shared libraries they
# link, and runs them as the unprivileged user kvroute (uid 10001).

FROM debian:bookworm AS builder
WORKDIR /src
COPY . .
RUN scripts/install-deps.sh --build-only
RUN cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DKVR_TESTS=OFF -DKVR_BENCH=OFF && cmake --build build/release -j"$(nproc)" --target kvroute kvroute-statefeed kvroute-shm

FROM debian:bookworm-slim
# Shared libraries of the three programs (ldd): libuv, liburing (statefeed's
# event loop), msgpack-c (push frames, relay), xxHash, cJSON, OpenSSL's
# libcrypto (relay HMAC), PCRE2 and utf8proc (the router's tokenizer), libzmq (statefeed's KV event subscriptions) with
# the libraries it links (libsodium, OpenPGM, NORM, Kerberos GSSAPI, libbsd,
# libstdc++).
# No curl: only the bench's replayer links it.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
       libuv1 liburing2 libmsgpackc2 libxxhash0 libcjson1 libssl3 \
       libzmq5 libsodium23 libpgm-5.3-0 libnorm1 libgssapi-krb5-2 libkrb5-3 libk5crypto3 \
       libkrb5support0 libcom-err2 libkeyutils1 libbsd0 libmd0 libstdc++6 libpcre2-8-0 libutf8proc2 \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 kvroute \
    && useradd --system --uid 10001 --gid kvroute --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin kvroute
COPY --from=builder /src/build/release/router/kvroute /src/build/release/statefeed/kvroute-statefeed \
     /src/build/release/shm_layout/kvroute-shm /usr/local/bin/
COPY deploy/examples/ /usr/share/doc/kvroute/examples/
USER 10001:10001
# Router clients and /metrics; statefeed's /metrics (when it listens there).
EXPOSE 8080 9464
ENTRYPOINT ["/usr/local/bin/kvroute"]
CMD ["--help"]
