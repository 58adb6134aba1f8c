// CCurl — see include/CCurl.h.
#include "CCurl.h"
#include "CLibraryLoader.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

// MARK: - libcurl, loaded once

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    char failure[256];          /* why loading failed ("" if it did not) */
} curl;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void load_curl(void) {
    static const char *const names[] = {
        "libcurl.so.4", "libcurl.so", "libcurl.4.dylib", "libcurl.dylib", NULL
    };
    char reason[512];
    void *lib = fh_dlopen_first(names, reason, sizeof reason);
    if (lib == NULL) {
        snprintf(curl.failure, sizeof curl.failure, "libcurl could not be loaded (%s)", reason[0] != 0 ? reason : "not found");
        return;
    }
    const fh_symbol symbols[] = {
        { "curl_global_init", (void **)&curl.global_init },
        { "curl_easy_init", (void **)&curl.easy_init },
        { "curl_easy_setopt", (void **)&curl.easy_setopt },
        { "curl_easy_perform", (void **)&curl.easy_perform },
        { "curl_easy_getinfo", (void **)&curl.easy_getinfo },
        { "curl_easy_cleanup", (void **)&curl.easy_cleanup },
        { "curl_easy_strerror", (void **)&curl.easy_strerror },
    };
    if (fh_load_symbols(lib, symbols, sizeof symbols / sizeof symbols[0], "libcurl", curl.failure, sizeof curl.failure) != 0) return;
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        snprintf(curl.failure, sizeof curl.failure, "libcurl could not be initialised");
}

// MARK: - One request

struct fh_http_get {
    pthread_mutex_t lock;
    int cancelled;
    curl_socket_t socket;       /* the connection's socket while open, else CURL_SOCKET_BAD */
    char *body;
    size_t length, capacity;
    int too_large;
};

/// The most a response body may hold.
#define FH_HTTP_MAX_BODY (64u * 1024u * 1024u)

fh_http_get *fh_http_get_new(void) {
    fh_http_get *get = calloc(1, sizeof *get);
    if (get == NULL) return NULL;
    pthread_mutex_init(&get->lock, NULL);
    get->socket = CURL_SOCKET_BAD;
    return get;
}

void fh_http_get_free(fh_http_get *get) {
    if (get == NULL) return;
    pthread_mutex_destroy(&get->lock);
    free(get->body);
    free(get);
}

void fh_http_body_free(char *body) { free(body); }

void fh_http_get_cancel(fh_http_get *get) {
    pthread_mutex_lock(&get->lock);
    get->cancelled = 1;
    if (get->socket != CURL_SOCKET_BAD) shutdown(get->socket, SHUT_RDWR);
    pthread_mutex_unlock(&get->lock);
}

static int is_cancelled(fh_http_get *get) {
    pthread_mutex_lock(&get->lock);
    int cancelled = get->cancelled;
    pthread_mutex_unlock(&get->lock);
    return cancelled;
}

/// libcurl opens the connection's socket here, so cancel can shut it down.
static curl_socket_t open_socket(void *data, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)purpose;
    fh_http_get *get = data;
    pthread_mutex_lock(&get->lock);
    curl_socket_t fd = CURL_SOCKET_BAD;
    if (!get->cancelled) {
        fd = socket(address->family, address->socktype, address->protocol);
        if (fd >= 0) get->socket = fd;
    }
    pthread_mutex_unlock(&get->lock);
    return fd;
}

static int close_socket(void *data, curl_socket_t fd) {
    fh_http_get *get = data;
    pthread_mutex_lock(&get->lock);
    if (get->socket == fd) get->socket = CURL_SOCKET_BAD;   /* never shut down a reused number */
    pthread_mutex_unlock(&get->lock);
    return close(fd);
}

static size_t write_body(char *bytes, size_t size, size_t count, void *data) {
    fh_http_get *get = data;
    size_t n = size * count;
    if (get->length + n > FH_HTTP_MAX_BODY) {
        get->too_large = 1;
        return 0;                                  /* libcurl stops with a write error */
    }
    if (get->length + n > get->capacity) {
        size_t capacity = get->capacity ? get->capacity : 4096;
        while (capacity < get->length + n) capacity *= 2;
        char *grown = realloc(get->body, capacity);
        if (grown == NULL) return 0;
        get->body = grown;
        get->capacity = capacity;
    }
    memcpy(get->body + get->length, bytes, n);
    get->length += n;
    return n;
}

/// Called often while waiting too: stops a cancelled transfer.
static int progress(void *data, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d) {
    (void)a; (void)b; (void)c; (void)d;
    return is_cancelled(data);
}

int fh_http_get_run(fh_http_get *get, const char *url, long timeout_ms,
                    long *status, char **body, size_t *length, char *error, size_t error_size) {
    *status = 0;
    *body = NULL;
    *length = 0;
    if (error_size > 0) error[0] = '\0';
    pthread_once(&curl_once, load_curl);
    if (curl.failure[0] != '\0') {
        snprintf(error, error_size, "%s", curl.failure);
        return FH_HTTP_FAILED;
    }
    if (is_cancelled(get)) return FH_HTTP_CANCELLED;
    CURL *handle = curl.easy_init();
    if (handle == NULL) {
        snprintf(error, error_size, "libcurl could not make a request");
        return FH_HTTP_FAILED;
    }
    char reason[CURL_ERROR_SIZE] = "";
    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, reason);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, write_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, get);
    curl.easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl.easy_setopt(handle, CURLOPT_OPENSOCKETDATA, get);
    curl.easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, close_socket);
    curl.easy_setopt(handle, CURLOPT_CLOSESOCKETDATA, get);
    curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, progress);
    curl.easy_setopt(handle, CURLOPT_XFERINFODATA, get);
    curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    CURLcode result = curl.easy_perform(handle);
    long code = 0;
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    curl.easy_cleanup(handle);
    if (is_cancelled(get)) return FH_HTTP_CANCELLED;
    if (result != CURLE_OK) {
        if (get->too_large)
            snprintf(error, error_size, "the response is larger than %u bytes", FH_HTTP_MAX_BODY);
        else
            snprintf(error, error_size, "%s", reason[0] != '\0' ? reason : curl.easy_strerror(result));
        return FH_HTTP_FAILED;
    }
    *status = code;
    *body = get->body;
    *length = get->length;
    get->body = NULL;
    get->length = get->capacity = 0;
    return FH_HTTP_OK;
}
