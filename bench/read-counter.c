/* A C peer for the split-gap benchmark: serves connections one after another on 127.0.0.1
 * (port printed first), reads each until a line's LF, prints the sizes of the reads that took
 * it ("5,1" when a split's pieces were read apart, "6" when together), answers "pong\r\n"
 * and closes once the client has. Plain blocking read(), as most C servers do. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
    int listener = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 128)) { perror("listen"); return 1; }
    getsockname(listener, (struct sockaddr *)&address, &length);
    printf("%d\n", ntohs(address.sin_port));
    fflush(stdout);
    for (;;) {
        int fd = accept(listener, NULL, NULL);
        if (fd < 0) return 1;
        char buffer[4096];
        int seen_lf = 0, reads = 0;
        while (!seen_lf && reads < 64) {
            ssize_t n = read(fd, buffer, sizeof buffer);
            if (n <= 0) break;
            printf("%s%zd", reads++ ? "," : "", n);
            seen_lf = memchr(buffer, '\n', n) != NULL;
        }
        printf("\n");
        fflush(stdout);
        if (seen_lf && write(fd, "pong\r\n", 6) == 6) {
            while (read(fd, buffer, sizeof buffer) > 0) {}
        }
        close(fd);
    }
}
