#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/bio.h>
#include <openssl/pem.h>

// BIO_get_mem_data is a macro: the bytes held by a memory BIO, and their count.
static inline long copenssl_bio_mem_data(BIO *bio, char **data) { return BIO_ctrl(bio, BIO_CTRL_INFO, 0, data); }
