# syntax=docker/dockerfile:1
#
# Container image for the `gateway` executable.
#
#   docker build -t swift-bff-gateway .
#   docker run --rm -p 8080:8080 swift-bff-gateway            # real upstreams
#   docker run --rm -p 8080:8080 swift-bff-gateway --demo     # self-contained demo
#
# scripts/check-container lints this file, checks that every COPY source survives .dockerignore
# (Docker's own matching rules) and runs the same build and runtime package set without a Docker
# engine (static release build + debootstrap rootfs); keep the two in step.

# ---------------------------------------------------------------------------------------------
# Build stage: the official Swift toolchain image, Debian bookworm variant, pinned.
# ---------------------------------------------------------------------------------------------
FROM swift:6.3-bookworm AS build

WORKDIR /build

# The manifest alone first, so dependency resolution is cached while only sources change.
COPY Package.swift ./
RUN swift package resolve

# libssl-dev: OpenSSL 3's headers and libraries, for TLS in NetworkRuntime (the COpenSSL target).
# zlib1g-dev: zlib's, for inflating compressed upstream answers (the CZlib target).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libssl-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*

COPY Sources ./Sources
COPY scripts/build-release ./scripts/
COPY scripts/release ./scripts/release

# --static-swift-stdlib links the Swift runtime and Foundation into the binary; what is left
# dynamic (libc, libstdc++, libgcc_s, libssl, libcrypto and libz) comes from the runtime stage. The
# gateway does not link FoundationNetworking (URLSession), so it needs no libcurl. scripts/build-release
# holds the release flags of every build of the gateway: cross-module optimisation, lld with the
# function order of scripts/release/hot-functions.order and, since bookworm's glibc is 2.36, packed
# relative relocations (DT_RELR). Tests are not built here: CI runs them (.ci/run).
RUN install -D -m 0755 "$(scripts/build-release --static gateway)" /staging/gateway

# ---------------------------------------------------------------------------------------------
# Runtime stage: only what the binary needs.
# ---------------------------------------------------------------------------------------------
FROM debian:bookworm-slim

# libssl3: OpenSSL 3, TLS for https upstreams and TLS_CERT_FILE (the binary links libssl and libcrypto).
# zlib1g: libz, inflating compressed upstream answers. Listed although today's base image has it
# (dpkg needs it): its archive priority is optional, so nothing promises it stays there.
# libstdc++6 / libgcc-s1 / libc6: C++ runtime of the statically linked Swift runtime.
# ca-certificates: the system trust store that https upstreams are verified against. tzdata: Foundation's TimeZone for log stamps.
# Versions are not pinned (DL3008): bookworm only receives security fixes, and an exact pin
# breaks the build as soon as the mirror drops the superseded version; the base tag is pinned.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        ca-certificates \
        libssl3 \
        libstdc++6 \
        tzdata \
        zlib1g \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 gateway \
    && useradd --no-log-init --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin gateway

COPY --from=build --chown=root:root /staging/gateway /usr/local/bin/gateway

# Configuration, all optional (`gateway --help` lists them with their defaults); a bad value
# stops start-up with one line naming the variable:
#   PORT=8080                 listening port
#   HOST=0.0.0.0              listening address
#   LOG_LEVEL=info            debug, info, warning, error or off
#   REQUEST_DEADLINE_MS       overall deadline of one combined request
#   SHUTDOWN_DELAY_MS=5000    after SIGTERM, how long /readyz fails while requests are still served
#   DRAIN_TIMEOUT_MS          then, how long in-flight requests may finish
#   MAX_CONNECTIONS           client connections served at once
#   GATEWAY_ENDPOINTS_FILE    your own upstreams, endpoints and proxy routes (docs/ENDPOINTS-FILE.md);
#                             mount it, e.g. -v "$PWD/endpoints.json:/etc/gateway/endpoints.json:ro"
#   GATEWAY_REFERENCE_ENDPOINTS=on   off: serve the file's routes alone
#   TLS_CERT_FILE, TLS_KEY_FILE      serve HTTPS (then replace the HEALTHCHECK: it speaks plain HTTP)
#   UPSTREAM_{DECK,SWAPI,MENU}_URL                 base URL (defaults: the public APIs)
#   UPSTREAM_{DECK,SWAPI,MENU}_TIMEOUT_MS          timeout of one upstream call
#   UPSTREAM_{DECK,SWAPI,MENU}_MAX_CONNECTIONS     connection pool size
#   UPSTREAM_{DECK,SWAPI,MENU}_MAX_RESPONSE_BYTES  largest accepted response body
#   UPSTREAM_{DECK,SWAPI,MENU}_BEARER_TOKEN        secret: pass at run time, never bake it in
#   UPSTREAM_{DECK,SWAPI,MENU}_HEADERS             extra headers, "Name: value; Name: value"
ENV PORT=8080 \
    HOST=0.0.0.0

# Numeric, so Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
USER 10001:10001
EXPOSE 8080

# Liveness, not readiness: /healthz answers 200 while the process serves, draining included, so
# Docker does not mark a container unhealthy (and an orchestrator restart it) while it shuts down;
# /readyz, which fails while starting and draining, is for load balancers (Kubernetes' readinessProbe).
# No curl in the image: bash's /dev/tcp sends the probe, so the check needs no extra package.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/\"${PORT:-8080}\" && printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && read -r -t 2 _ status _ <&3 && [ \"$status\" = 200 ]"]

# On SIGTERM the gateway fails readiness, serves on for SHUTDOWN_DELAY_MS, then drains and exits.
STOPSIGNAL SIGTERM

ENTRYPOINT ["/usr/local/bin/gateway"]
