/* The limit for TLS round trips on this machine: a blocking OpenSSL client that verifies the
 * server against CA, then sends "ping N\r\n" and reads the echoed line, COUNT times.
 * Usage: tls-pingpong PORT COUNT CA */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 4) return 2;
    int port = atoi(argv[1]), count = atoi(argv[2]), one = 1;
    SSL_CTX *context = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
    if (SSL_CTX_load_verify_locations(context, argv[3], NULL) != 1) { ERR_print_errors_fp(stderr); return 1; }
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&address, sizeof address)) { perror("connect"); return 1; }
    SSL *ssl = SSL_new(context);
    SSL_set_fd(ssl, fd);
    if (SSL_connect(ssl) != 1) { ERR_print_errors_fp(stderr); return 1; }
    char line[64], buffer[256];
    for (int i = 0; i < count; i++) {
        int length = snprintf(line, sizeof line, "ping %d\r\n", i);
        if (SSL_write(ssl, line, length) != length) return 1;
        int got = 0;
        while (got < length) {
            int n = SSL_read(ssl, buffer + got, sizeof buffer - got);
            if (n <= 0) return 1;
            got += n;
        }
        if (memcmp(buffer, line, length) != 0) { fprintf(stderr, "mismatch at %d\n", i); return 1; }
    }
    SSL_shutdown(ssl);
    SSL_free(ssl);
    close(fd);
    return 0;
}
