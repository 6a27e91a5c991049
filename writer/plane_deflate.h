/* plane_deflate.h: a zlib stream (what HDF5's deflate filter inflates) for
 * shuffled data, written without a match search. Shuffled timestamps are
 * byte planes that are either runs of one byte or close to random: each
 * plane becomes a stored block or a block of runs (a literal, then
 * distance-1 matches) under deflate's fixed Huffman code, whichever is
 * smaller. Planes that a Huffman code of their own would shrink much more
 * (few distinct bytes, not in runs) are left to zlib: the encoder declines. */
#ifndef SCOPE_PLANE_DEFLATE_H
#define SCOPE_PLANE_DEFLATE_H

#include <stddef.h>

/* Encodes nplanes planes of plane_len bytes each, back to back in `planes`,
 * into out (cap bytes). Returns the stream's size, or 0 when it declines
 * (too small to gain, better left to a real Huffman code, or over cap). */
size_t plane_deflate(const unsigned char *planes, size_t nplanes, size_t plane_len,
                     unsigned char *out, size_t cap);

#endif
