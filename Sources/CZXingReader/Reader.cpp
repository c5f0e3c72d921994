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
                           int try_harder, czxing_barcode *results, int capacity, char *error, int error_size) {
  if (error && error_size > 0) error[0] = 0;
  try {
    if (pixels == nullptr || width <= 0 || height <= 0 || row_stride < width || capacity <= 0) {
      if (error && error_size > 0) std::snprintf(error, error_size, "no image to read");
      return -1;
    }
    DecodeHints hints;
    hints.setFormats(formatsOf(formats));
    hints.setTryHarder(try_harder != 0);
    hints.setTryRotate(try_harder != 0);
    hints.setTryDownscale(true);
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
