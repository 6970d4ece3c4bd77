/* The system's libcrypto (OpenSSL 3), for Quick Share's cryptography: SHA-256 and HMAC
 * through the EVP interfaces that OpenSSL 3 does not deprecate. Linked into the handoff
 * daemon alone, never the CLI (start-up). */
#include <openssl/evp.h>
#include <openssl/err.h>
