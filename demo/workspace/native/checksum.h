#ifndef CHECKSUM_H
#define CHECKSUM_H

#include <stddef.h>

struct digest {
  unsigned sum;
  size_t length;
};

/* Adds up the bytes of a buffer. */
struct digest checksum(const unsigned char *data, size_t length);

#endif
