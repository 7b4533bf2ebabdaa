#include "checksum.h"

struct digest checksum(const unsigned char *data, size_t length) {
  struct digest d = { 0, length };
  for (size_t i = 0; i < length; i++) d.sum += data[i];
  return d;
}

int main(void) {
  const unsigned char bytes[] = { 1, 2, 3 };
  struct digest d = checksum(bytes, sizeof bytes);
  /* A deliberate type error: a struct is not an int. */
  int total = d;
  return (int)d.sum - total;
}
