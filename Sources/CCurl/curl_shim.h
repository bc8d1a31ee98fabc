// libcurl's easy interface for Swift, which cannot call C's variadic functions: curl_easy_setopt
// and curl_easy_getinfo with one wrapper for each type of argument cardbake passes.
#ifndef CARDBAKE_CURL_SHIM_H
#define CARDBAKE_CURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode cardbake_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cardbake_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// A string, which libcurl copies.
static inline CURLcode cardbake_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// An slist, a buffer or a callback's user data.
static inline CURLcode cardbake_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cardbake_curl_setopt_data_callback(CURL *handle, CURLoption option,
                                                          size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode cardbake_curl_setopt_progress_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode cardbake_curl_setopt_seek_callback(CURL *handle, curl_seek_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
}

static inline CURLcode cardbake_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode cardbake_curl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
