/* The limit for round trips on this machine: a blocking C client that sends "ping N\r\n"
 * and reads until the echoed line ends in "\n", COUNT times. Usage: pingpong PORT COUNT */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int port = atoi(argv[1]), count = atoi(argv[2]), one = 1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&address, sizeof address)) { perror("connect"); return 1; }
    char line[64], buffer[256];
    for (int i = 0; i < count; i++) {
        int length = snprintf(line, sizeof line, "ping %d\r\n", i);
        if (write(fd, line, length) != length) return 1;
        int got = 0;
        while (got < length) {
            ssize_t n = read(fd, buffer + got, sizeof buffer - got);
            if (n <= 0) return 1;
            got += n;
        }
        if (memcmp(buffer, line, length) != 0) { fprintf(stderr, "mismatch at %d\n", i); return 1; }
    }
    close(fd);
    return 0;
}
