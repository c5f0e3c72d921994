// libzint 2.11 (Debian libzint-dev): barcode encoding. No pkg-config file; the library is in /usr/lib.
#include <zint.h>

// Whether the module at (row, column) of an encoded symbol is dark: `encoded_data` holds 8 modules
// per byte, least significant bit first (zint's own `module_is_set`). Swift would see the
// 200 x 144 array as nested tuples, hence this accessor.
static inline int czint_module_is_set(const struct zint_symbol *symbol, int row, int column) {
  if (row < 0 || row >= 200 || column < 0 || column >= 144 * 8) return 0;
  return (symbol->encoded_data[row][column >> 3] >> (column & 7)) & 1;
}

// The height of row `row` in X-dimensions (0 when zint spreads `height` evenly over the rows).
static inline float czint_row_height(const struct zint_symbol *symbol, int row) {
  if (row < 0 || row >= 200) return 0;
  return symbol->row_height[row];
}

// The NUL-terminated error text of the last call.
static inline const char *czint_error_text(const struct zint_symbol *symbol) { return symbol->errtxt; }

// Sets the output file name (NUL-terminated, at most 255 bytes); returns 0 when it is too long.
static inline int czint_set_outfile(struct zint_symbol *symbol, const char *path) {
  unsigned long length = 0;
  while (path[length] != 0) length++;
  if (length >= sizeof(symbol->outfile)) return 0;
  for (unsigned long i = 0; i <= length; i++) symbol->outfile[i] = path[i];
  return 1;
}
