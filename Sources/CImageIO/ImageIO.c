// PNG through libpng's simplified API (no setjmp needed); JPEG through libjpeg with an error
// manager that longjmps back here instead of calling exit().
#include "CImageIO.h"

// stdio.h first: jpeglib.h uses FILE without including it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>

#include <jpeglib.h>
#include <png.h>

static void set_error(char *error, size_t size, const char *message) {
  if (error == NULL || size == 0) return;
  snprintf(error, size, "%s", message);
}

int cimageio_kind(const unsigned char *data, size_t size) {
  static const unsigned char png[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  if (size >= 8 && memcmp(data, png, 8) == 0) return CIMAGEIO_PNG;
  if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) return CIMAGEIO_JPEG;
  return CIMAGEIO_UNKNOWN;
}

void cimageio_free(void *pointer) { free(pointer); }

// MARK: PNG

// Decodes into `into` (width x height bytes, the size a header-only call gave) when it is not NULL,
// else into a new buffer returned in `*pixels`; with `header_only`, only sets the size.
static int decode_png(const unsigned char *data, size_t size, size_t max_pixels, int header_only, unsigned char *into,
                      unsigned char **pixels, int *width, int *height, char *error, size_t error_size) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, data, size)) {
    set_error(error, error_size, image.message[0] ? image.message : "not a readable PNG image");
    png_image_free(&image);
    return 0;
  }
  if (image.width == 0 || image.height == 0 || (size_t)image.width * image.height > max_pixels) {
    char message[160];
    snprintf(message, sizeof message, "the PNG image is %ux%u pixels: at most %zu pixels are read", image.width,
             image.height, max_pixels);
    set_error(error, error_size, message);
    png_image_free(&image);
    return 0;
  }
  if (header_only || (into != NULL && ((int)image.width != *width || (int)image.height != *height))) {
    if (!header_only) set_error(error, error_size, "the PNG image changed size while it was read");
    *width = (int)image.width;
    *height = (int)image.height;
    png_image_free(&image);
    return header_only;
  }
  image.format = PNG_FORMAT_GRAY;
  unsigned char *buffer = into != NULL ? into : malloc((size_t)image.width * image.height);
  if (buffer == NULL) {
    set_error(error, error_size, "out of memory");
    png_image_free(&image);
    return 0;
  }
  png_color white = {255, 255, 255};
  if (!png_image_finish_read(&image, &white, buffer, (png_int_32)image.width, NULL)) {
    set_error(error, error_size, image.message[0] ? image.message : "the PNG image data is damaged");
    if (into == NULL) free(buffer);
    png_image_free(&image);
    return 0;
  }
  if (into == NULL) *pixels = buffer;
  *width = (int)image.width;
  *height = (int)image.height;
  png_image_free(&image);
  return 1;
}

static int encode_png(const unsigned char *pixels, int width, int height, unsigned char **out, size_t *out_size,
                      char *error, size_t error_size) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = (png_uint_32)width;
  image.height = (png_uint_32)height;
  image.format = PNG_FORMAT_GRAY;
  png_alloc_size_t size = 0;
  if (!png_image_write_get_memory_size(image, size, 0, pixels, width, NULL)) {
    set_error(error, error_size, image.message[0] ? image.message : "cannot encode the PNG image");
    png_image_free(&image);
    return 0;
  }
  unsigned char *buffer = malloc(size);
  if (buffer == NULL) {
    set_error(error, error_size, "out of memory");
    return 0;
  }
  if (!png_image_write_to_memory(&image, buffer, &size, 0, pixels, width, NULL)) {
    set_error(error, error_size, image.message[0] ? image.message : "cannot encode the PNG image");
    free(buffer);
    png_image_free(&image);
    return 0;
  }
  *out = buffer;
  *out_size = size;
  png_image_free(&image);
  return 1;
}

// MARK: JPEG

struct jpeg_failure {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

static void jpeg_fail(j_common_ptr info) {
  struct jpeg_failure *failure = (struct jpeg_failure *)info->err;
  (*info->err->format_message)(info, failure->message);
  longjmp(failure->jump, 1);
}

static void jpeg_quiet(j_common_ptr info, int level) {
  (void)info;
  (void)level;  // Warnings (corrupt data recovered) are not printed to stderr.
}

// As decode_png.
static int decode_jpeg(const unsigned char *data, size_t size, size_t max_pixels, int header_only, unsigned char *into,
                       unsigned char **pixels, int *width, int *height, char *error, size_t error_size) {
  struct jpeg_decompress_struct info;
  struct jpeg_failure failure;
  unsigned char *volatile buffer = NULL;
  memset(&failure, 0, sizeof failure);
  info.err = jpeg_std_error(&failure.manager);
  failure.manager.error_exit = jpeg_fail;
  failure.manager.emit_message = jpeg_quiet;
  if (setjmp(failure.jump)) {
    char message[JMSG_LENGTH_MAX + 32];
    snprintf(message, sizeof message, "the JPEG image cannot be read: %s", failure.message);
    set_error(error, error_size, message);
    jpeg_destroy_decompress(&info);
    if (into == NULL) free(buffer);
    return 0;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, data, (unsigned long)size);
  jpeg_read_header(&info, TRUE);
  info.out_color_space = JCS_GRAYSCALE;
  if (info.image_width == 0 || info.image_height == 0 || (size_t)info.image_width * info.image_height > max_pixels) {
    char message[160];
    snprintf(message, sizeof message, "the JPEG image is %ux%u pixels: at most %zu pixels are read",
             info.image_width, info.image_height, max_pixels);
    set_error(error, error_size, message);
    jpeg_destroy_decompress(&info);
    return 0;
  }
  jpeg_calc_output_dimensions(&info);
  if (header_only || (into != NULL && ((int)info.output_width != *width || (int)info.output_height != *height))) {
    if (!header_only) set_error(error, error_size, "the JPEG image changed size while it was read");
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    jpeg_destroy_decompress(&info);
    return header_only;
  }
  jpeg_start_decompress(&info);
  size_t stride = info.output_width * (size_t)info.output_components;
  buffer = into != NULL ? into : malloc(stride * info.output_height);
  if (buffer == NULL) {
    set_error(error, error_size, "out of memory");
    jpeg_destroy_decompress(&info);
    return 0;
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = buffer + (size_t)info.output_scanline * stride;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  if (into == NULL) *pixels = buffer;
  *width = (int)info.output_width;
  *height = (int)info.output_height;
  jpeg_destroy_decompress(&info);
  return 1;
}

static int encode_jpeg(const unsigned char *pixels, int width, int height, int quality, unsigned char **out,
                       size_t *out_size, char *error, size_t error_size) {
  struct jpeg_compress_struct info;
  struct jpeg_failure failure;
  unsigned char *volatile buffer = NULL;
  unsigned long size = 0;
  memset(&failure, 0, sizeof failure);
  info.err = jpeg_std_error(&failure.manager);
  failure.manager.error_exit = jpeg_fail;
  failure.manager.emit_message = jpeg_quiet;
  if (setjmp(failure.jump)) {
    set_error(error, error_size, failure.message);
    jpeg_destroy_compress(&info);
    free(buffer);
    return 0;
  }
  jpeg_create_compress(&info);
  unsigned char *destination = NULL;
  jpeg_mem_dest(&info, &destination, &size);
  info.image_width = (JDIMENSION)width;
  info.image_height = (JDIMENSION)height;
  info.input_components = 1;
  info.in_color_space = JCS_GRAYSCALE;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  jpeg_start_compress(&info, TRUE);
  while (info.next_scanline < info.image_height) {
    JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * (size_t)width);
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  buffer = destination;
  jpeg_destroy_compress(&info);
  // jpeg_mem_dest's buffer comes from malloc: hand it on.
  *out = buffer;
  *out_size = size;
  return 1;
}

// MARK: Entry points

int cimageio_decode_grey(const unsigned char *data, size_t size, size_t max_pixels, unsigned char **pixels,
                         int *width, int *height, char *error, size_t error_size) {
  switch (cimageio_kind(data, size)) {
  case CIMAGEIO_PNG: return decode_png(data, size, max_pixels, 0, NULL, pixels, width, height, error, error_size);
  case CIMAGEIO_JPEG: return decode_jpeg(data, size, max_pixels, 0, NULL, pixels, width, height, error, error_size);
  default: set_error(error, error_size, "not a PNG or JPEG image"); return 0;
  }
}

int cimageio_grey_size(const unsigned char *data, size_t size, size_t max_pixels, int *width, int *height, char *error,
                       size_t error_size) {
  switch (cimageio_kind(data, size)) {
  case CIMAGEIO_PNG: return decode_png(data, size, max_pixels, 1, NULL, NULL, width, height, error, error_size);
  case CIMAGEIO_JPEG: return decode_jpeg(data, size, max_pixels, 1, NULL, NULL, width, height, error, error_size);
  default: set_error(error, error_size, "not a PNG or JPEG image"); return 0;
  }
}

int cimageio_decode_grey_into(const unsigned char *data, size_t size, unsigned char *pixels, int width, int height,
                              char *error, size_t error_size) {
  if (pixels == NULL || width <= 0 || height <= 0) {
    set_error(error, error_size, "no buffer to decode into");
    return 0;
  }
  size_t limit = (size_t)width * (size_t)height;
  switch (cimageio_kind(data, size)) {
  case CIMAGEIO_PNG: return decode_png(data, size, limit, 0, pixels, NULL, &width, &height, error, error_size);
  case CIMAGEIO_JPEG: return decode_jpeg(data, size, limit, 0, pixels, NULL, &width, &height, error, error_size);
  default: set_error(error, error_size, "not a PNG or JPEG image"); return 0;
  }
}

int cimageio_encode_grey(const unsigned char *pixels, int width, int height, int jpeg_quality, unsigned char **out,
                         size_t *out_size, char *error, size_t error_size) {
  if (width <= 0 || height <= 0 || pixels == NULL) {
    set_error(error, error_size, "an image needs at least one pixel");
    return 0;
  }
  if (jpeg_quality <= 0) return encode_png(pixels, width, height, out, out_size, error, error_size);
  if (jpeg_quality > 100) jpeg_quality = 100;
  return encode_jpeg(pixels, width, height, jpeg_quality, out, out_size, error, error_size);
}
