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

/// How hard `czxing_read` looks, from the fastest to the slowest.
enum {
  /// Black is below a fixed mid-grey threshold (127), the image at its own scale only, upright:
  /// for clean images (files written by a program, screenshots). About 2–3 ms for 1000 x 1000.
  CZXING_EFFORT_CLEAN = 0,
  /// A local-average threshold (uneven light), also at downscaled copies, upright.
  CZXING_EFFORT_UPRIGHT = 1,
  /// As `CZXING_EFFORT_UPRIGHT`, plus quarter turns and harder searches (slowest; for photos).
  CZXING_EFFORT_HARD = 2,
};

/// Reads up to `capacity` barcodes of the symbologies in `formats` from `pixels`, 8-bit grey,
/// `width` x `height`, rows `row_stride` bytes apart, looking as hard as `effort` says (one of the
/// `CZXING_EFFORT_` values). Returns how many were found (0 when none), or -1 when the library
/// failed, with a reason in `error` (`error_size` bytes).
int czxing_read(const unsigned char *pixels, int width, int height, int row_stride, int formats, int effort,
                czxing_barcode *results, int capacity, char *error, int error_size);

#ifdef __cplusplus
}
#endif

#endif
