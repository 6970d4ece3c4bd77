/* The system's libcrypto (OpenSSL 3), for Quick Share's cryptography: SHA-256, HMAC and
 * P-256 through the EVP interfaces that OpenSSL 3 does not deprecate. Linked into the
 * handoff daemon alone, never the CLI (start-up). */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

/* EVP_PKEY_PUBLIC_KEY is a macro of macros, which Swift cannot import. */
static const int CLibCryptoPublicKeySelection = EVP_PKEY_PUBLIC_KEY;
