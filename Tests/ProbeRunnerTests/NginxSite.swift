import Foundation

/// An nginx for tests: a configuration in a folder of the test's, serving `hello.txt` ("hello
/// from nginx\n") on 127.0.0.1:port, over TLS when given a certificate and key; and the
/// `spawn` statement that starts it in the foreground, ready on its port.
enum NginxSite {
    static func write(in directory: String, port: Int, tls: (certificate: String, key: String)? = nil) throws {
        try FileManager.default.createDirectory(atPath: directory + "/www", withIntermediateDirectories: true)
        try "hello from nginx\n".write(toFile: directory + "/www/hello.txt", atomically: true, encoding: .utf8)
        let temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map { "\($0)_temp_path \(directory)/\($0);" }.joined(separator: " ")
        let listen = tls.map { "listen 127.0.0.1:\(port) ssl; ssl_certificate \($0.certificate); ssl_certificate_key \($0.key);" }
            ?? "listen 127.0.0.1:\(port);"
        try """
            daemon off; master_process off; worker_processes 1; pid \(directory)/nginx.pid; error_log \(directory)/error.log;
            events { worker_connections 16; }
            http { access_log off; \(temporary)
                   server { \(listen) root \(directory)/www; } }
            """.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
    }

    /// `spawn web "nginx …" ready on 127.0.0.1:{port}`, with the folder as `{dir}`.
    static func spawn(_ nginx: String) -> String {
        "spawn web \"\(nginx) -p {dir} -c {dir}/nginx.conf -e {dir}/error.log\" ready on 127.0.0.1:{port} within 10s"
    }
}
