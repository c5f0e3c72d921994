#include <libwebsockets.h>

/* LWS_PRE is a function-like macro expression, which Swift does not import: the bytes lws_write
   needs free before the payload it sends. */
static inline size_t travel_lws_pre(void) { return LWS_PRE; }

/* The LWS_SERVER_OPTION_ bits Transport uses (64-bit shift macros Swift does not import). */
static inline uint64_t travel_lws_option_ssl_global_init(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }
static inline uint64_t travel_lws_option_validate_utf8(void) { return LWS_SERVER_OPTION_VALIDATE_UTF8; }
static inline uint64_t travel_lws_option_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }
