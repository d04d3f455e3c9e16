/// What a statement reads and sets, for the parse-time check of variable names.
extension StatementKind {
    /// Every template the statement interpolates, so each `{name}` in it can be checked.
    package var templates: [Template] {
        switch self {
        case .title(let template): return [template]
        case .variable(_, .text(let template)): return [template]
        case .spawn(let spawn):
            var templates = [spawn.command] + spawn.environment.map(\.value) + spawn.readinessWithin.templates + (spawn.workingDirectory.map { [$0] } ?? [])
            switch spawn.readiness {
            case .listening(let addresses)?: templates += addresses.flatMap(\.templates)
            case .output(_, let regex)?: templates.append(regex.template)
            case nil: break
            }
            return templates
        case .expectExit(let exit): return exit.code.templates + exit.within.templates
        case .expectOutput(let output):
            guard let match = output.awaitedLine else { return output.within.templates }
            return match.templates + output.within.templates
        case .input(let input):
            switch input.data {
            case .bytes(let template), .line(let template): return [template]
            case .eof: return []
            }
        case .connect(let connect):
            return connect.address.templates + connect.source.templates + connect.timeout.templates + connect.receiveBuffer.templates + connect.sendBuffer.templates
                + (connect.tls?.templates ?? []) + (connect.webSocket?.templates ?? [])
                + (connect.http2.map { [$0.path] } ?? [])
        case .listen(_, let address, let tls): return address.templates + (tls?.templates ?? [])
        case .accept(_, _, let within, _, let speaking): return within.templates + (speaking?.templates ?? [])
        case .startTLS(let options, _): return options.templates
        case .assertTLS(let assertion): return assertion.templates
        case .assertParallel(let assertion): return assertion.templates
        case .send(let send):
            var templates: [Template]
            switch send.data {
            case .bytes(let template), .line(let template), .file(let template): templates = [template]
            case .message(let template, let head): templates = [template] + (head.map { [$0] } ?? [])
            case .webSocket(let frame): templates = frame.templates
            case .http2(let send): templates = send.templates
            case .random(let size): templates = size.templates
            }
            return templates + send.chunkSize.templates + send.framesOf.templates + send.splitOffsets.flatMap(\.templates)
                + send.interval.templates + send.rate.templates
        case .expect(let expectation, let within), .expectProxied(_, let expectation, let within):
            return expectation.templates + within.templates
        case .proxy(_, let front, let back): return front.templates + back.templates
        case .proxyFault(let fault): return fault.templates
        case .network(_, let faults): return faults.flatMap(\.templates)
        case .networkFault(let fault): return fault.templates
        case .readSlowly(let read):
            var templates = read.bytesPerRead.templates + read.interval.templates
            switch read.stop {
            case .after(let duration): templates += duration.templates
            case .total(let size): templates += size.templates
            case .eof: break
            }
            return templates
        case .sleep(let duration): return duration.templates
        case .set(.timeout(let duration)), .set(.deadline(let duration)): return duration.templates
        case .set(.maxLine(let size)), .set(.maxMessage(let size)): return size.templates
        case .set(.framing(.length(let setting))): return setting.templates
        case .repeatBlock(let count, _, _), .parallel(let count, _): return count.templates
        case .assertWire(let assertion):
            switch assertion.property {
            case .lineInOneSegment(let match), .messageInOneSegment(let match): return match.templates
            case .records(_, let count), .segments(_, let count), .retransmissions(_, let count), .maxSegment(_, let count), .bytes(_, let count): return count.templates
            default: return []
            }
        case .on(.reading(let expectation, let answer)): return expectation.templates + (answer.map { StatementKind.send($0).templates } ?? [])
        case .on(.every(let interval, let send)): return interval.templates + StatementKind.send(send).templates
        case .nonStrict(_, let skip): return skip.map { [$0] } ?? []
        case .skipUnlessDefined(let reason, let name, let location): return [reason, Template(parts: [.variable(name, location)])]
        case .tags, .set, .variable(_, .freePort), .include, .kill, .use, .pauseReading, .resumeReading, .on(.off),
             .close, .shutdownWrite, .abort:
            return []
        }
    }

    /// The variables the statement's own templates may use besides those known before it: a
    /// background rule's answer uses the named groups of its regex.
    package var ownVariables: [String] {
        if case .on(.reading) = self { return definedVariables }
        return []
    }

    /// The variables the statement sets: a `var`, the named groups of its regex, a listener's
    /// port, an HTTP/2 peer's SETTINGS, the stream of a frame taken on any stream.
    package var definedVariables: [String] {
        switch self {
        case .variable(let name, _): return [name.text]
        case .listen(let name, _, let tls): return ["\(name.text).port"] + (tls == nil ? [] : ["\(name.text).cert"])
        case .proxy(let name, _, _): return ["\(name.text).port"]
        // An HTTP/2 handshake sets the peer's SETTINGS; the URL may come from a variable.
        case .connect, .accept(_, _, _, _, .http2): return HTTP2Names.settings.map { "http2." + $0.name }
        case .expect(.http2(.frame(let match)), _) where match.stream == nil: return ["http2.stream"]
        case .network(let name, _): return ["host", "gateway", "host6", "gateway6"].map { "\(name.text).\($0)" }
        case .expectProxied(_, let expectation, let within): return StatementKind.expect(expectation, within: within).definedVariables
        case .on(.reading(let expectation, _)): return StatementKind.expect(expectation, within: nil).definedVariables
        case .expect(.line(.regex(let regex)), _), .expect(.message(.regex(let regex), _), _), .expect(.eventually(.regex(let regex), _, _), _),
             .expect(.webSocket(.text(.regex(let regex))), _),
             .expect(.untilMatch(let regex, _), _):
            return regex.groupNames
        case .expectOutput(let output):
            if case .regex(let regex)? = output.awaitedLine { return regex.groupNames }
            return []
        case .spawn(let spawn):
            if case .output(_, let regex)? = spawn.readiness { return regex.groupNames }
            return []
        default: return []
        }
    }
}

extension Expectation {
    var templates: [Template] {
        switch self {
        case .line(let match): return match.templates
        case .message(let match, let head): return match.templates + (head.map { [$0] } ?? [])
        case .messageOfLength(let count, let head): return count.templates + (head.map { [$0] } ?? [])
        case .linesUnordered(let lines): return lines
        case .exactBytes(let template): return [template]
        case .byteCount(let count, let equals): return count.templates + (equals.map { [$0] } ?? [])
        case .until(let delimiter, let max): return [delimiter] + max.templates
        case .untilMatch(let regex, let max): return [regex.template] + max.templates
        case .eventually(let match, let max, let unless): return match.templates + max.templates + (unless.map { [$0.template] } ?? [])
        case .nothing(let duration): return duration.templates
        case .webSocket(let expectation): return expectation.templates
        case .http2(let expectation): return expectation.templates
        case .any, .eof, .reset, .close: return []
        }
    }
}

extension LineMatch {
    var templates: [Template] {
        switch self {
        case .exact(let template), .contains(let template): return [template]
        case .regex(let regex): return [regex.template]
        case .any: return []
        }
    }
}

/// Something that may hold `{name}` interpolations.
protocol Interpolating {
    var templates: [Template] { get }
}

extension Argument: Interpolating {
    var templates: [Template] {
        if case .interpolated(let template) = form { return [template] }
        return []
    }
}

extension Optional: Interpolating where Wrapped: Interpolating {
    var templates: [Template] { self?.templates ?? [] }
}
