// One C function over zxing-cpp 1.4 (Debian libzxing-dev), which has only a C++ API: read the
// barcodes of a grey image.
#ifndef CZXINGREADER_H
#define CZXINGREADER_H

#ifdef __cplusplus
extern "C" {
#endif

/// Symbologies, as bits of `czxing_read`'s `formats`.
enum {
  CZXING_AZTEC = 1,
  CZXING_PDF417 = 2,
  CZXING_QR_CODE = 4,
  CZXING_DATA_MATRIX = 8,
};

/// One barcode found: its symbology (one of the bits above), its text (the bytes it encodes, NUL
/// terminated, cut at 4095 bytes with `truncated` set) and its corners in pixels (top-left,
/// top-right, bottom-right, bottom-left, as x then y).
typedef struct czxing_barcode {
  int format;
  int length;
  int truncated;
  int corners[8];
  char text[4096];
} czxing_barcode;

/// Reads up to `capacity` barcodes of the symbologies in `formats` from `pixels`, 8-bit grey,
/// `width` x `height`, rows `row_stride` bytes apart. `try_harder` also looks at rotated and
/// scaled copies (slower; for photos). Returns how many were found (0 when none), or -1 when the
/// library failed, with a reason in `error` (`error_size` bytes).
int czxing_read(const unsigned char *pixels, int width, int height, int row_stride, int formats, int try_harder,
                czxing_barcode *results, int capacity, char *error, int error_size);

#ifdef __cplusplus
}
#endif

#endif
