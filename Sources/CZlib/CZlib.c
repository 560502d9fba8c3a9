#include "CZlib.h"

int c_zlib_inflate_init(z_stream *stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}
