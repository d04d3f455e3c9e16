/* A fast TLS echo server for the TLS benchmarks: OpenSSL, one thread per connection, blocking
 * SSL_read/SSL_write, TLS 1.3 by default. Usage: tls-echo-server CERT KEY. Prints its port,
 * then serves until killed. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static SSL_CTX *context;

static void *serve(void *arg) {
    int fd = (int)(long)arg;
    SSL *ssl = SSL_new(context);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) == 1) {
        char buffer[16384];
        int n;
        while ((n = SSL_read(ssl, buffer, sizeof buffer)) > 0) {
            if (SSL_write(ssl, buffer, n) != n) break;
        }
        SSL_shutdown(ssl);
    }
    SSL_free(ssl);
    close(fd);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    signal(SIGPIPE, SIG_IGN); /* a client gone before our close_notify must not end the server */
    context = SSL_CTX_new(TLS_server_method());
    if (SSL_CTX_use_certificate_chain_file(context, argv[1]) != 1 || SSL_CTX_use_PrivateKey_file(context, argv[2], SSL_FILETYPE_PEM) != 1) {
        ERR_print_errors_fp(stderr);
        return 1;
    }
    int listener = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 1024)) { perror("listen"); return 1; }
    getsockname(listener, (struct sockaddr *)&address, &length);
    printf("%d\n", ntohs(address.sin_port));
    fflush(stdout);
    for (;;) {
        int client = accept(listener, NULL, NULL);
        if (client < 0) continue;
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        pthread_t thread;
        pthread_create(&thread, NULL, serve, (void *)(long)client);
        pthread_detach(thread);
    }
}
