import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A transport on Dispatch sources, in the GCDAsyncSocket model: a non-blocking socket with a
/// read source and a write source on one serial queue; a queue of reads (to length, to a
/// delimiter with a maximum, or whatever is available), each with a timeout; and writes that
/// report their progress as partial writes happen.
///
/// As a `TCPTransport` it keeps an `available` read queued and unframes what arrives.
/// Sendable: its sockets, sources and queues are touched on its serial `queue` only.
public final class DispatchSocketTransport: TCPTransport, @unchecked Sendable {
    public typealias ReadCompletion = @Sendable (Result<[UInt8], ReadFailure>) -> Void
    /// Bytes written so far of the current write, and its size.
    public typealias WriteProgress = @Sendable (_ written: Int, _ total: Int) -> Void

    private struct PendingRead {
        var request: ReadRequest
        var completion: ReadCompletion
        var timer: DispatchWorkItem?
        var searched = 0
    }

    private let core: TransportCore
    private let queue = DispatchQueue(label: "tcpprobe.dispatch.socket")
    private let target: (host: String, port: Int)?
    private let readsLines: Bool
    // Everything below is touched on `queue` only.
    private var fd: Int32 = -1
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var writeSourceActive = false
    /// Left by each source's cancel handler; the socket is closed after.
    private let sourcesCancelled = DispatchGroup()
    private var buffer: [UInt8] = []
    private var reads: [PendingRead] = []
    private var writes: [(bytes: [UInt8], offset: Int)] = []
    private var inputClosed = false
    private var outputClosing = false
    private var finished = false
    /// Called as each write makes progress.
    public var onWriteProgress: WriteProgress?

    public var state: TransportState { core.state }
    public var events: AsyncStream<TransportEvent> { core.events }

    /// A client connecting to `host:port` when started. With `readsLines`, lines go to `events`;
    /// without, the caller queues reads with `read(_:timeout:completion:)`.
    public init(connectingTo host: String, port: Int, unframer: any LineUnframer = LineFraming(), readsLines: Bool = true) {
        core = TransportCore(unframer: unframer)
        target = (host, port)
        self.readsLines = readsLines
    }

    init(accepted fd: Int32, unframer: any LineUnframer) {
        core = TransportCore(unframer: unframer)
        target = nil
        readsLines = true
        self.fd = fd
    }

    public func start() {
        guard core.beginStarting() else { return }
        queue.async { [self] in
            if let target {
                do { fd = try PosixSocket.connect(host: target.host, port: target.port) } catch {
                    core.stopped(error)
                    return
                }
            }
            PosixSocket.setNonBlocking(fd)
            PosixSocket.setNoDelay(fd)
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [self] in readAvailable() }
            readSource = source
            let writer = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            writer.setEventHandler { [self] in flushWrites() }
            writeSource = writer
            for each in [source, writer] as [any DispatchSourceProtocol] {
                sourcesCancelled.enter()
                each.setCancelHandler { [sourcesCancelled] in sourcesCancelled.leave() }
            }
            source.resume()
            core.started()
            if readsLines { queueLineRead() }
        }
    }

    private func queueLineRead() {
        enqueue(.available, timeout: nil) { [weak self] result in
            guard let self, case .success(let bytes) = result else { return }
            core.received(bytes)
            queue.async { self.queueLineRead() }
        }
    }

    /// Queues a read; `completion` runs on the transport's queue when it completes, fails or times out.
    public func read(_ request: ReadRequest, timeout: DispatchTimeInterval? = nil, completion: @escaping ReadCompletion) {
        queue.async { [self] in enqueue(request, timeout: timeout, completion: completion) }
    }

    private func enqueue(_ request: ReadRequest, timeout: DispatchTimeInterval?, completion: @escaping ReadCompletion) {
        var pending = PendingRead(request: request, completion: completion)
        if let timeout {
            let timer = DispatchWorkItem { [self] in expire(request) }
            pending.timer = timer
            queue.asyncAfter(deadline: .now() + timeout, execute: timer)
        }
        reads.append(pending)
        satisfyReads()
    }

    private func expire(_ request: ReadRequest) {
        guard let first = reads.first, first.request == request, first.timer?.isCancelled == false else { return }
        reads.removeFirst()
        first.completion(.failure(.timedOut))
        satisfyReads()
    }

    private func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count > 0 {
                buffer += chunk[0..<count]
                continue
            }
            if count == 0 {
                inputClosed = true
                readSource?.cancel()
                readSource = nil
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                satisfyReads()
                finish(PosixSocket.Failure(operation: "read", code: errno))
                return
            }
            break
        }
        satisfyReads()
        if inputClosed {
            failRemainingReads()
            core.peerClosed()
            if outputClosing { finish(nil) }
        }
    }

    /// Completes queued reads, in order, from the buffer.
    private func satisfyReads() {
        while var first = reads.first {
            let taken: Int?
            switch first.request {
            case .available:
                taken = buffer.isEmpty ? nil : buffer.count
            case .toLength(let length):
                taken = buffer.count >= length ? length : nil
            case .toDelimiter(let delimiter, let maxLength):
                taken = find(delimiter, from: first.searched).map { $0 + delimiter.count }
                if taken == nil {
                    first.searched = max(0, buffer.count - delimiter.count + 1)
                    reads[0] = first
                    if buffer.count >= maxLength {
                        reads.removeFirst()
                        first.timer?.cancel()
                        first.completion(.failure(.maxLengthExceeded(maxLength)))
                        continue
                    }
                }
            }
            guard let count = taken else { return }
            reads.removeFirst()
            first.timer?.cancel()
            let bytes = Array(buffer[0..<count])
            buffer.removeFirst(count)
            first.completion(.success(bytes))
        }
    }

    private func find(_ delimiter: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= delimiter.count else { return nil }
        var index = start
        while index + delimiter.count <= buffer.count {
            if buffer[index] == delimiter[0], buffer[index..<(index + delimiter.count)].elementsEqual(delimiter) { return index }
            index += 1
        }
        return nil
    }

    private func failRemainingReads() {
        let remaining = reads
        reads = []
        for read in remaining {
            read.timer?.cancel()
            read.completion(.failure(.closed))
        }
    }

    public func send(bytes: [UInt8]) {
        queue.async { [self] in
            guard !outputClosing, !finished, fd >= 0 else { return }
            writes.append((bytes, 0))
            flushWrites()
        }
    }

    private func flushWrites() {
        while let first = writes.first {
            let written = first.bytes[first.offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                writes[0].offset += written
                onWriteProgress?(writes[0].offset, first.bytes.count)
                if writes[0].offset == first.bytes.count { writes.removeFirst() }
                continue
            }
            if written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                if !writeSourceActive { writeSource?.resume(); writeSourceActive = true }
                return
            }
            finish(PosixSocket.Failure(operation: "write", code: errno))
            return
        }
        if writeSourceActive { writeSource?.suspend(); writeSourceActive = false }
        if outputClosing, fd >= 0 {
            shutdown(fd, Int32(SHUT_WR))
            if inputClosed { finish(nil) }
        }
    }

    public func stop() {
        queue.async { [self] in
            guard !outputClosing, !finished else { return }
            outputClosing = true
            flushWrites()
            // A peer that never closes must not hold the socket forever.
            queue.asyncAfter(deadline: .now() + 5) { [self] in finish(nil) }
        }
    }

    public func abort() {
        queue.async { [self] in
            guard fd >= 0, !finished else { return }
            PosixSocket.setResetOnClose(fd)
            finish(nil)
        }
    }

    /// Tears down the sources and the socket, once. The socket closes only once every source on
    /// it is cancelled: libdispatch on Linux unregisters a source asynchronously, and a socket
    /// closed before that leaves its epoll note to the next socket given the same number, whose
    /// sources then never fire (swift-corelibs-libdispatch#833).
    private func finish(_ error: (any Error)?) {
        guard !finished else { return }
        finished = true
        failRemainingReads()
        if let writeSource, !writeSourceActive { writeSource.resume() }
        readSource?.cancel()
        writeSource?.cancel()
        readSource = nil
        writeSource = nil
        if fd >= 0 {
            let socket = fd
            sourcesCancelled.notify(queue: queue) { close(socket) }
        }
        fd = -1
        core.stopped(error)
    }
}

/// Accepts connections with a Dispatch read source on the listening socket.
public final class DispatchSocketListener: TransportListener, Sendable {
    public let port: Int
    public let connections: AsyncStream<any TCPTransport>
    /// Dispatch's read source, which is not marked Sendable: set up here, then only cancelled.
    private let source: Mutex<any DispatchSourceRead>

    public init(host: String, port: Int, makeUnframer: @escaping @Sendable () -> any LineUnframer) throws {
        let (fd, bound) = try PosixSocket.listen(host: host, port: port)
        self.port = bound
        let (stream, continuation) = AsyncStream.makeStream(of: (any TCPTransport).self)
        connections = stream
        PosixSocket.setNonBlocking(fd)
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "tcpprobe.dispatch.accept"))
        source.setEventHandler {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { break }
                continuation.yield(DispatchSocketTransport(accepted: client, unframer: makeUnframer()))
            }
        }
        source.setCancelHandler {
            Glibc.close(fd)
            continuation.finish()
        }
        source.resume()
        self.source = Mutex(source)
    }

    public func close() {
        source.withLock { $0.cancel() }
    }
}
