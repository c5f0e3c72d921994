#include <libwebsockets.h>

/* libev (Debian's libwebsockets-dev brings libev-dev and lws's libev plugin): the loops run lws
   on an epoll loop of libev's, so a wake-up costs what is ready, where lws's own poll() loop
   scans every socket of the context on each one. */
#define EV_COMPAT3 0
#include <ev.h>

static inline uint64_t travel_lws_option_libev(void) { return LWS_SERVER_OPTION_LIBEV; }
static inline void *travel_ev_loop_new(void) { return ev_loop_new(EVBACKEND_EPOLL); }
static inline int travel_ev_run_once(void *loop) { return ev_run((struct ev_loop *)loop, EVRUN_ONCE); }
static inline void travel_ev_loop_destroy(void *loop) { ev_loop_destroy((struct ev_loop *)loop); }

/* LWS_PRE is a function-like macro expression, which Swift does not import: the bytes lws_write
   needs free before the payload it sends. */
static inline size_t travel_lws_pre(void) { return LWS_PRE; }

/* The LWS_SERVER_OPTION_ bits Transport uses (64-bit shift macros Swift does not import). */
static inline uint64_t travel_lws_option_ssl_global_init(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }
static inline uint64_t travel_lws_option_validate_utf8(void) { return LWS_SERVER_OPTION_VALIDATE_UTF8; }
static inline uint64_t travel_lws_option_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }
