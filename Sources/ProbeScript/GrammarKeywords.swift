/// The keyword lists of the grammar, one enum each: what may follow `set`, a connect's address,
/// `send`, `expect`, and the others. Their raw values are the spellings.
extension Grammar {
    enum SettingWord: String, Keyword {
        case timeout, deadline, terminator, maxLine = "max-line", capture, unread, cutOff = "cut-off", framing, maxMessage = "max-message", websocket, http2
    }

    /// What follows `set framing`, and the options of a length field.
    enum FramingForm: String, Keyword {
        case lines, length, varint
    }

    enum LengthOption: String, Keyword {
        case big, little, after, adjust
    }

    /// What follows `on`.
    enum OnForm: String, Keyword {
        case line, message, every, off
    }

    enum ConnectOption: String, Keyword {
        case from, tls, `protocol`, header, timeout, rcvbuf, sndbuf, expect
    }

    enum SendForm: String, Keyword {
        case line, message, file, random, text, binary, ping, pong, close, frame, preface
    }

    enum SendModifier: String, Keyword {
        case `in`, split, every, at, until
    }

    enum ExpectForm: String, Keyword {
        case line, message, text, binary, ping, pong, lines, bytes, until, eventually, any, eof, reset, close, nothing, exit, stdout, stderr, upstream, downstream
        case frame, connection, stream
    }

    /// What `expect line` takes besides a "string" or a /regex/.
    enum LineForm: String, Keyword {
        case contains, any
    }

    /// What `expect stdout|stderr NAME` awaits.
    enum OutputForm: String, Keyword {
        case line, eventually, eof
    }

    enum SlowReadStop: String, Keyword {
        case `for`, until, total
    }

    enum SpawnOption: String, Keyword {
        case ready, with, cwd, env, `in`, unless
    }

    enum AcceptOption: String, Keyword {
        case within, expect, websocket, http2
    }

    enum ProxyFaultWord: String, Keyword {
        case delay, rate, slice, hold, release, cut, reset, clear
    }

    /// The faults of a `network`'s link.
    enum NetworkFaultWord: String, Keyword {
        case loss, delay, reorder, duplicate, rate, partition, heal, clear
    }

    enum WireProperty: String, Keyword {
        case terminator, lines, line, messages, message, frames, frame, masked, unmasked, records, segments, retransmissions, maxSegment = "max-segment", bytes, fin, rst, no, zeroWindow = "zero-window"
    }

    enum TLSOption: String, Keyword {
        case insecure, ca, sni, alpn, version, ciphers, cert, key, clientCA = "client-ca"
    }

    /// What `assert tls` checks.
    enum TLSProperty: String, Keyword {
        case version, alpn, cipher, peer
    }
}
