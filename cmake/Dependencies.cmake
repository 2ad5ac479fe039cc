# SPDX-License-Identifier: Apache-2.0
# Every third-party piece comes from a Debian package. A missing one stops the
# configure step with one line naming the package to install.
find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: apt-get install pkg-config")
endif()

# kvr_require(<target> <pkg-config module> <debian package>)
function(kvr_require target module debpkg)
  pkg_check_modules(${target} QUIET IMPORTED_TARGET GLOBAL ${module})
  if(NOT ${target}_FOUND)
    message(FATAL_ERROR "missing dependency ${module}: apt-get install ${debpkg}")
  endif()
  add_library(kvr::${target} ALIAS PkgConfig::${target})
endfunction()

kvr_require(uv libuv libuv1-dev)
kvr_require(uring liburing liburing-dev)
kvr_require(msgpack msgpack libmsgpack-dev)
kvr_require(xxhash libxxhash libxxhash-dev)
# HMAC-SHA256 and constant-time comparison for the relay's shared secret.
kvr_require(crypto libcrypto libssl-dev)
# TLS towards clients and engines (common/tls.c).
kvr_require(ssl libssl libssl-dev)
# cJSON is the project's one JSON library. The router's routing-key extraction parses
# every request body on the event loop, and cJSON does that 5-10x faster than jansson
# (bench/proxy: kvroute-bench-keys).
kvr_require(cjson libcjson libcjson-dev)
# The tokenizer: pre-tokenizer regexes with Unicode properties, and NFC/NFKC normalizers.
kvr_require(pcre2 libpcre2-8 libpcre2-dev)
kvr_require(utf8proc libutf8proc libutf8proc-dev)
# The engines' KV events (vLLM --kv-events-config, SGLang): ZMQ PUB and ROUTER sockets.
kvr_require(zmq libzmq libzmq3-dev)
if(KVR_TESTS)
  kvr_require(criterion criterion libcriterion-dev)
endif()

find_package(Threads REQUIRED)

# llhttp: Debian's node-llhttp ships the generated C sources; they are built
# here into a static library with warnings off, since the generated parser
# trips -Wextra and is not the project's code.
set(KVR_LLHTTP_SRC_DIR /usr/share/llhttp CACHE PATH "llhttp C sources (node-llhttp)")
set(KVR_LLHTTP_INC_DIR /usr/share/include/llhttp CACHE PATH "llhttp header (node-llhttp)")
foreach(f llhttp.c api.c http.c)
  if(NOT EXISTS ${KVR_LLHTTP_SRC_DIR}/${f})
    message(FATAL_ERROR "missing dependency llhttp (${KVR_LLHTTP_SRC_DIR}/${f}): apt-get install node-llhttp")
  endif()
endforeach()
if(NOT EXISTS ${KVR_LLHTTP_INC_DIR}/llhttp.h)
  message(FATAL_ERROR "missing dependency llhttp (${KVR_LLHTTP_INC_DIR}/llhttp.h): apt-get install node-llhttp")
endif()
add_library(kvr_llhttp STATIC
  ${KVR_LLHTTP_SRC_DIR}/llhttp.c ${KVR_LLHTTP_SRC_DIR}/api.c ${KVR_LLHTTP_SRC_DIR}/http.c)
target_include_directories(kvr_llhttp SYSTEM PUBLIC ${KVR_LLHTTP_INC_DIR})
target_compile_options(kvr_llhttp PRIVATE -w)
# Strict parsing (the sources carry both modes): loose mode skips the two
# bytes after a chunk's data unchecked, takes CR without LF and a blank
# before a header's colon, each a way for two readers to frame one message
# differently. Every peer is untrusted: clients and engines alike.
target_compile_definitions(kvr_llhttp PRIVATE LLHTTP_STRICT_MODE=1)
if(KVR_FUZZ)
  # The parser's states are what fuzzing of the HTTP server has to explore:
  # give libFuzzer their coverage (the project's own flags come later).
  target_compile_options(kvr_llhttp PRIVATE -fsanitize=fuzzer-no-link,address,undefined)
endif()
set_target_properties(kvr_llhttp PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_library(kvr::llhttp ALIAS kvr_llhttp)
