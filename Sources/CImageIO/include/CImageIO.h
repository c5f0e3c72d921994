// Reading and writing PNG and JPEG images as 8-bit grey pixels, over Debian's libpng 1.6
// (libpng-dev) and libjpeg-turbo (libjpeg-dev). Every function reports failure with a message
// instead of aborting: libjpeg's fatal errors are caught with setjmp inside this target.
#ifndef CIMAGEIO_H
#define CIMAGEIO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The kinds of image `cimageio_kind` recognises from a file's first bytes.
enum { CIMAGEIO_UNKNOWN = 0, CIMAGEIO_PNG = 1, CIMAGEIO_JPEG = 2 };

/// The kind of image in `data` (PNG or JPEG signature), CIMAGEIO_UNKNOWN otherwise.
int cimageio_kind(const unsigned char *data, size_t size);

/// Decodes a PNG or JPEG image held in memory into 8-bit grey pixels, row by row without padding
/// (colour is converted to luminance; transparency is laid over white). On success returns 1 and
/// sets `*pixels` (free it with `cimageio_free`), `*width` and `*height`; on failure returns 0
/// and writes a NUL-terminated reason into `error` (`error_size` bytes). Images of more than
/// `max_pixels` pixels are refused.
int cimageio_decode_grey(const unsigned char *data, size_t size, size_t max_pixels, unsigned char **pixels,
                         int *width, int *height, char *error, size_t error_size);

/// The size of the PNG or JPEG image in `data` (its header only, no pixel decoded): returns 1 and
/// sets `*width` and `*height`, or 0 with a reason in `error` (as `cimageio_decode_grey`: not an
/// image, damaged header, more than `max_pixels` pixels).
int cimageio_grey_size(const unsigned char *data, size_t size, size_t max_pixels, int *width, int *height, char *error,
                       size_t error_size);

/// Decodes the image in `data` as `cimageio_decode_grey` does, into the caller's `pixels` of
/// `width` x `height` bytes (the size `cimageio_grey_size` gave): no buffer of this library to
/// copy and free. Returns 1, or 0 with a reason in `error` (the pixels are then undefined).
int cimageio_decode_grey_into(const unsigned char *data, size_t size, unsigned char *pixels, int width, int height,
                              char *error, size_t error_size);

/// Encodes 8-bit grey pixels (`width` x `height`, rows of `width` bytes) as PNG (`jpeg_quality`
/// 0) or JPEG (`jpeg_quality` 1-100). On success returns 1 and sets `*out` (free it with
/// `cimageio_free`) and `*out_size`; on failure returns 0 with a reason in `error`.
int cimageio_encode_grey(const unsigned char *pixels, int width, int height, int jpeg_quality, unsigned char **out,
                         size_t *out_size, char *error, size_t error_size);

/// Frees memory returned by this library.
void cimageio_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
