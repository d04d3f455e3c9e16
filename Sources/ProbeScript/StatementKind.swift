/// What a statement does. Each step maps to one executor in the runner; `title`, `tags` and
/// `include` only describe the file (the loader splices includes in before anything runs).
package indirect enum StatementKind: Sendable, Hashable {
    case title(Template)
    case tags([String])
    case set(Setting)
    case variable(Name, VariableValue)
    /// Only in a file as parsed; the loader splices the included statements in its place.
    case include(String)
    case spawn(SpawnStep)
    case kill(Name, signal: String?)
    case input(SubjectInput)
    case expectExit(ExitExpectation)
    case expectOutput(OutputExpectation)
    case connect(ConnectStep)
    case listen(Name, Argument<Address>, tls: TLSOptions?)
    /// `expectTLSFailure`: the client's handshake on the accepted connection must fail;
    /// `speaking`: WebSocket or HTTP/2, the probe as the server.
    case accept(Name, listener: Name, within: Argument<Duration>?, expectTLSFailure: Bool, speaking: AcceptedProtocol?)
    case use(Name)
    case send(SendStep)
    case expect(Expectation, within: Argument<Duration>?)
    /// `on …`: a background rule of the connection (`on line /^PING/ send line "PONG"`).
    case on(OnRule)
    case readSlowly(SlowRead)
    case pauseReading
    case resumeReading
    case sleep(Argument<Duration>)
    case close
    case shutdownWrite
    case abort
    /// `repeat N { … } [until closed]`: with `untilClosed`, the block ends, passing, once the
    /// peer of its connection closes, and fails if its turns run out first.
    case repeatBlock(Argument<Int>, body: [Statement], untilClosed: Bool)
    case parallel(Argument<Int>, body: [Statement])
    /// `non-strict { … }`: a step of the block that is not met ends the block with a note on the
    /// scenario instead of failing it (Autobahn's NON-STRICT: allowed, not ideal). With `skip`,
    /// `skip "REASON" unless { … }`: a step not met ends the scenario as skipped, for that
    /// reason (a precondition the subject does not meet, as h2spec skips a case).
    case nonStrict(body: [Statement], skip: Template? = nil)
    /// `skip "REASON" unless defined NAME`: the scenario ends as skipped when the variable has
    /// no value (a SETTINGS parameter the peer did not send).
    case skipUnlessDefined(reason: Template, name: String, at: SourceLocation)
    case assertWire(WireAssertion)
    /// `starttls`: upgrades the current connection in place, client role on a `connect`, server
    /// role on an `accept`.
    case startTLS(TLSOptions, expectFailure: Bool)
    case assertTLS(TLSAssertion)
    /// `assert copies …` or `assert latency …`, judged on the `parallel` block before it.
    case assertParallel(ParallelAssertion)
    /// `proxy NAME FRONT to BACK`: listens on FRONT and joins each client to a new connection to BACK.
    case proxy(Name, front: Argument<Address>, back: Argument<Address>)
    /// `NAME: delay|rate|slice|hold|release|cut|reset|clear …` on a proxy (or `delay`, `rate`,
    /// `clear` on a network).
    case proxyFault(ProxyFault)
    /// `network NAME [FAULT]...`: a namespace joined to the probe by a link it drives.
    case network(Name, faults: [NetworkFault])
    /// `NAME: loss|reorder|duplicate|partition|heal …` on a network.
    case networkFault(NetworkFault)
    /// `NAME: expect upstream|downstream …`: the traffic passing a proxy, watched.
    case expectProxied(ProxyDirection, Expectation, within: Argument<Duration>?)
}

/// `set NAME VALUE`.
package enum Setting: Sendable, Hashable {
    case timeout(Argument<Duration>)
    case deadline(Argument<Duration>)
    case terminator(Terminator)
    case maxLine(Argument<Int>)
    case capture(CaptureMode)
    case unread(UnreadPolicy)
    /// `set cut-off fail|skip`: what the sends after one the peer's close cut off do.
    case cutOff(CutOffPolicy)
    /// `set framing lines | length W … | varint …`: how `send message` and `expect message` frame.
    case framing(FramingSetting)
    /// `set max-message SIZE`: the longest message (or length header) accepted.
    case maxMessage(Argument<Int>)
    /// `set websocket auto-pong on|off`: whether the probe answers pings itself.
    case webSocketAutoPong(Bool)
    /// `set http2 handshake on|off`: whether `connect h2://` exchanges the preface and SETTINGS.
    case http2Handshake(Bool)
    /// `set http2 auto-ack on|off`: whether SETTINGS are acked and PINGs answered in the background.
    case http2AutoAck(Bool)
}

/// What a message is on the wire: a line, or a length header and its payload. The header is
/// boxed: every `parallel` copy holds the framing in its settings (BENCHMARKS.md 2a).
package enum MessageFraming: Sendable, Hashable {
    case lines
    indirect case length(LengthHeader)
}

/// `set framing` as written.
package enum FramingSetting: Sendable, Hashable {
    case lines
    case length(LengthSetting)

    /// The framing, when the file alone says it (no variable in a number).
    package var literal: MessageFraming? {
        switch self {
        case .lines: return .lines
        case .length(let setting): return setting.literal.map { .length($0) }
        }
    }
}

/// The right-hand side of `var NAME = ...`.
package enum VariableValue: Sendable, Hashable {
    case text(Template)
    case freePort
}
