#ifndef C_ZLIB_H
#define C_ZLIB_H
// zlib (Debian's zlib1g-dev), and functions for what Swift cannot call: zlib's macros. They are
// static inline, so Swift compiles them into its own module and no C unit of this target reaches
// the binary: a second unit with clang's DWARF 5 makes valgrind 3.19 (Debian 12's) give up on the
// binary, and with it scripts/instructions-per-request.
#include <zlib.h>

/// Starts inflating into `stream` (a macro over inflateInit2_, which takes the library's version
/// and the size of z_stream so the library can refuse a header it was not built with).
/// `window_bits` as zlib documents: 8..15 for a zlib stream, -8..-15 for raw deflate, +32 to
/// detect gzip or zlib from the header.
static inline int c_zlib_inflate_init(z_stream *stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

/// Starts deflating into `stream` (a macro over deflateInit2_, for the same reason). `window_bits`
/// 9..15 for a zlib stream, +16 for a gzip one; `mem_level` 1..9 sizes the match finder's state.
static inline int c_zlib_deflate_init(z_stream *stream, int level, int window_bits, int mem_level) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, mem_level, Z_DEFAULT_STRATEGY);
}

#endif
