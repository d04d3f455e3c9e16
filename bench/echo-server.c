/* A fast echo server for the round-trip benchmark (or, with the argument "discard", a sink
 * for bulk transfers): one thread per connection, blocking read/write. Listens on 127.0.0.1
 * (or the IPv4 address given, such as a network's {n.host}) at a free port, or at the port
 * given as a number (with SO_REUSEPORT, so several servers can share it); prints its port,
 * then serves until killed. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int discard = 0;

static void *serve(void *arg) {
    int fd = (int)(long)arg;
    static __thread char buffer[262144];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0) {
        if (discard) continue;
        ssize_t off = 0;
        while (off < n) {
            ssize_t w = write(fd, buffer + off, n - off);
            if (w <= 0) goto done;
            off += w;
        }
    }
done:
    close(fd);
    return NULL;
}

int main(int argc, char **argv) {
    int port = 0;
    in_addr_t host = htonl(INADDR_LOOPBACK);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "discard") == 0) discard = 1;
        else if (strchr(argv[i], '.')) host = inet_addr(argv[i]);
        else port = atoi(argv[i]);
    }
    int listener = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(listener, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = host};
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 65535)) { perror("listen"); return 1; }
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
