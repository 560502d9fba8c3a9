#ifndef C_OPENSSL_H
#define C_OPENSSL_H
// OpenSSL 3 (Debian's libssl-dev): TLS, and the EVP signatures of JWT verification; and functions for what Swift cannot call: OpenSSL's macros.
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/// Sets the context's minimum protocol version (a macro over SSL_CTX_ctrl).
int c_openssl_ctx_set_min_proto_version(SSL_CTX *context, int version);
/// Adds `mode` bits (SSL_MODE_*) to the context (a macro over SSL_CTX_ctrl).
long c_openssl_ctx_set_mode(SSL_CTX *context, long mode);
/// Lets OpenSSL read as many bytes as the socket holds, not one record header at a time (a macro).
long c_openssl_ctx_set_read_ahead(SSL_CTX *context, int enabled);
/// Makes an encrypted private key fail to load instead of prompting for a passphrase on the terminal.
void c_openssl_ctx_refuse_passphrases(SSL_CTX *context);
/// Sets the server name sent in the client hello (a macro over SSL_ctrl).
int c_openssl_set_tlsext_host_name(SSL *connection, const char *name);
/// Makes `*flag` say, after each read OpenSSL makes from the connection's socket, whether that
/// read returned fewer bytes than it asked for (the kernel held no more then): 1 if so, else 0.
/// For a connection attached with SSL_set_fd; `flag` must outlive the connection.
void c_openssl_track_short_reads(SSL *connection, int *flag);
/// Whether the last error on this thread's queue is OpenSSL 3's "unexpected EOF while reading":
/// the peer closed TCP without close_notify.
int c_openssl_error_is_unexpected_eof(unsigned long error);
/// Selects ALPN http/1.1 for a server connection whose client offered it, and no protocol
/// otherwise (clients that offer no ALPN are served HTTP/1.1 as usual).
int c_openssl_select_http11(SSL *connection, const unsigned char **out, unsigned char *outlen,
                            const unsigned char *in, unsigned int inlen, void *argument);
/// EVP_PKEY_PUBLIC_KEY (a macro of macros): what EVP_PKEY_fromdata selects to build a public key.
int c_openssl_public_key_selection(void);

#endif
