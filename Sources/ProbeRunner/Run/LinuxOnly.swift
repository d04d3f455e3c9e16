// tcpprobe runs on Linux only: say so at build time rather than with a wall of missing symbols.
#if !os(Linux)
#error("tcpprobe builds on Linux only: it reads /proc and netlink sock_diag, and spawns and reaps subjects through Glibc")
#endif
