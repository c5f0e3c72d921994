// The C face of zxing-cpp 1.4's ReadBarcodes: an ImageView over the caller's grey pixels, the
// symbologies asked for, and the results copied into plain C structs. No C++ exception leaves.
#define ZX_USE_UTF8 1
#include "CZXingReader.h"

#include <ZXing/ReadBarcode.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>

using namespace ZXing;

static BarcodeFormats formatsOf(int bits) {
  BarcodeFormats formats;
  if (bits & CZXING_AZTEC) formats |= BarcodeFormat::Aztec;
  if (bits & CZXING_PDF417) formats |= BarcodeFormat::PDF417;
  if (bits & CZXING_QR_CODE) formats |= BarcodeFormat::QRCode;
  if (bits & CZXING_DATA_MATRIX) formats |= BarcodeFormat::DataMatrix;
  return formats;
}

static int bitOf(BarcodeFormat format) {
  switch (format) {
  case BarcodeFormat::Aztec: return CZXING_AZTEC;
  case BarcodeFormat::PDF417: return CZXING_PDF417;
  case BarcodeFormat::QRCode: return CZXING_QR_CODE;
  case BarcodeFormat::DataMatrix: return CZXING_DATA_MATRIX;
  default: return 0;
  }
}

extern "C" int czxing_read(const unsigned char *pixels, int width, int height, int row_stride, int formats,
                           int effort, czxing_barcode *results, int capacity, char *error, int error_size) {
  if (error && error_size > 0) error[0] = 0;
  try {
    if (pixels == nullptr || width <= 0 || height <= 0 || row_stride < width || capacity <= 0) {
      if (error && error_size > 0) std::snprintf(error, error_size, "no image to read");
      return -1;
    }
    DecodeHints hints;
    hints.setFormats(formatsOf(formats));
    // Measured on a 1000 x 1000 page with one code (Scripts/bench --only boarding): the
    // local-average binarizer and the downscaled copies are most of the time of an upright read;
    // a fixed threshold at the image's own scale reads a clean image 3-5 times faster.
    bool clean = effort <= CZXING_EFFORT_CLEAN;
    bool hard = effort >= CZXING_EFFORT_HARD;
    hints.setBinarizer(clean ? Binarizer::FixedThreshold : Binarizer::LocalAverage);
    hints.setTryHarder(hard);
    hints.setTryRotate(hard);
    hints.setTryDownscale(!clean);
    hints.setMaxNumberOfSymbols(static_cast<uint8_t>(std::min(capacity, 255)));
    ImageView view(pixels, width, height, ImageFormat::Lum, row_stride);
    Results found = ReadBarcodes(view, hints);
    int count = 0;
    for (const Result &result : found) {
      if (!result.isValid() || count >= capacity) continue;
      czxing_barcode &out = results[count];
      std::memset(&out, 0, sizeof out);
      out.format = bitOf(result.format());
      const ByteArray &bytes = result.bytes();
      size_t length = std::min(bytes.size(), sizeof(out.text) - 1);
      std::memcpy(out.text, bytes.data(), length);
      out.text[length] = 0;
      out.length = static_cast<int>(length);
      out.truncated = bytes.size() > length ? 1 : 0;
      const Position &position = result.position();
      for (int corner = 0; corner < 4; corner++) {
        out.corners[2 * corner] = position[corner].x;
        out.corners[2 * corner + 1] = position[corner].y;
      }
      count++;
    }
    return count;
  } catch (const std::exception &exception) {
    if (error && error_size > 0) std::snprintf(error, error_size, "zxing-cpp failed: %s", exception.what());
    return -1;
  } catch (...) {
    if (error && error_size > 0) std::snprintf(error, error_size, "zxing-cpp failed");
    return -1;
  }
}
