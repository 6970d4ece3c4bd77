/* SHA-256 of what the agent reads, as it comes in (libcrypto): the daemon offers each
 * target by it, without hashing it again after the whole was read. */
#include "agent.h"

#include <openssl/evp.h>

#include <stdio.h>

digest *digest_new(void) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context && EVP_DigestInit_ex(context, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(context);
        context = NULL;
    }
    return (digest *)context;
}

void digest_update(digest *sum, const void *bytes, size_t count) {
    if (sum && count > 0) EVP_DigestUpdate((EVP_MD_CTX *)sum, bytes, count);
}

void digest_finish(digest *sum, char hex[65]) {
    unsigned char value[32];
    unsigned int length = 0;
    hex[0] = 0;
    if (!sum) return;
    if (EVP_DigestFinal_ex((EVP_MD_CTX *)sum, value, &length) == 1 && length == sizeof value) {
        for (size_t i = 0; i < sizeof value; i++) snprintf(hex + 2 * i, 3, "%02x", value[i]);
    }
    EVP_MD_CTX_free((EVP_MD_CTX *)sum);
}

void digest_free(digest *sum) { EVP_MD_CTX_free((EVP_MD_CTX *)sum); }
