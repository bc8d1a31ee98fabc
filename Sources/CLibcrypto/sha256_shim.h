// OpenSSL's SHA-256 (libcrypto), whose assembly uses the SHA extensions or AVX2 where the processor
// has them. The SHA256_CTX functions are deprecated in OpenSSL 3 in favour of EVP, but they remain,
// run the same assembly, and keep the state in a plain struct: a copy of a hasher is a copy of its
// state, which Fingerprint's value semantics need. Their deprecation warnings are silenced here.
#ifndef CARDBAKE_SHA256_SHIM_H
#define CARDBAKE_SHA256_SHIM_H

#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>

#endif
