// CCurl — HTTP GET through the system's libcurl, loaded on first use.
//
// libcurl (and the TLS and compression libraries it pulls in) is opened with
// dlopen the first time a request is made, never at start-up: a script that
// makes no HTTP request pays nothing for it. Only what must be C is here —
// loading, the transfer, and cancelling it from another thread.
#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>

/// One GET that another thread may cancel.
typedef struct fh_http_get fh_http_get;

/// What fh_http_get_run ended with.
#define FH_HTTP_OK 0          /* a response arrived (any status) */
#define FH_HTTP_FAILED (-1)   /* no response: the reason is in `error` */
#define FH_HTTP_CANCELLED 1   /* fh_http_get_cancel stopped it */

/// A new request (NULL if out of memory). Free it with fh_http_get_free.
fh_http_get *fh_http_get_new(void);
void fh_http_get_free(fh_http_get *get);

/// GETs `url` (http:// or https://), waiting at most `timeout_ms` (0: no
/// limit). On FH_HTTP_OK, `*status` is the HTTP status and `*body` a malloc'd
/// buffer of `*length` bytes (free it with fh_http_body_free). On
/// FH_HTTP_FAILED, `error` holds the reason, NUL-terminated. Call it once
/// per fh_http_get.
int fh_http_get_run(fh_http_get *get, const char *url, long timeout_ms,
                    long *status, char **body, size_t *length, char *error, size_t error_size);

/// Stops the request, from any thread, at once: its socket is shut down, so
/// a wait for the server returns; a request not yet started never starts.
void fh_http_get_cancel(fh_http_get *get);

void fh_http_body_free(char *body);

#endif
