#include "COpenSSL.h"
#include <string.h>

int c_openssl_ctx_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

long c_openssl_ctx_set_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_mode(context, mode);
}

long c_openssl_ctx_set_read_ahead(SSL_CTX *context, int enabled) {
    return SSL_CTX_set_read_ahead(context, enabled);
}

static int refuse_passphrase(char *buffer, int size, int writing, void *argument) {
    (void)buffer;
    (void)size;
    (void)writing;
    (void)argument;
    return 0;
}

void c_openssl_ctx_refuse_passphrases(SSL_CTX *context) {
    SSL_CTX_set_default_passwd_cb(context, refuse_passphrase);
}

int c_openssl_set_tlsext_host_name(SSL *connection, const char *name) {
    return (int)SSL_set_tlsext_host_name(connection, name);
}

static long track_short_read(BIO *bio, int operation, const char *argument, size_t length, int argi, long argl,
                             int result, size_t *processed) {
    (void)argument;
    (void)argi;
    (void)argl;
    if (operation == (BIO_CB_READ | BIO_CB_RETURN)) {
        int *flag = (int *)BIO_get_callback_arg(bio);
        *flag = result <= 0 || processed == NULL || *processed < length;
    }
    return result;
}

void c_openssl_track_short_reads(SSL *connection, int *flag) {
    BIO *socket = SSL_get_rbio(connection);
    BIO_set_callback_arg(socket, (char *)flag);
    BIO_set_callback_ex(socket, track_short_read);
}

int c_openssl_error_is_unexpected_eof(unsigned long error) {
    return ERR_GET_LIB(error) == ERR_LIB_SSL && ERR_GET_REASON(error) == SSL_R_UNEXPECTED_EOF_WHILE_READING;
}

int c_openssl_select_http11(SSL *connection, const unsigned char **out, unsigned char *outlen,
                            const unsigned char *in, unsigned int inlen, void *argument) {
    (void)connection;
    (void)argument;
    static const unsigned char http11[] = "\x08http/1.1";
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, outlen, http11, sizeof(http11) - 1, in, inlen) != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_NOACK;
    }
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

int c_openssl_public_key_selection(void) {
    return EVP_PKEY_PUBLIC_KEY;
}
