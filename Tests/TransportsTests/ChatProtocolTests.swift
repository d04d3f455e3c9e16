import Transports
import Testing

/// The chat protocol's state machine on its own: a line in, the actions out.
@Suite struct ChatProtocolTests {
    @Test func joiningNamesTheClientForItsMessages() {
        var chat = ChatProtocol()
        #expect(chat.handle("msg:too soon") == [.reply("ERR say iam:NAME first")])
        #expect(chat.handle("iam:") == [.reply("ERR empty name")])
        #expect(chat.name == nil)
        #expect(chat.handle("iam:Luke") == [.broadcast("Luke has joined")])
        #expect(chat.handle("msg:hello there") == [.broadcast("Luke: hello there")])
        #expect(chat.handle("msg:") == [.broadcast("Luke: ")])
        #expect(chat.handle("iam:Ben") == [.broadcast("Ben has joined")], "a client may take a new name")
        #expect(chat.handle("msg:x") == [.broadcast("Ben: x")])
    }

    @Test func commandsAndUnknownLines() {
        var chat = ChatProtocol()
        #expect(chat.handle("ping") == [.reply("pong")])
        #expect(chat.handle("quit") == [.replyAndClose("bye")])
        #expect(chat.handle("pong") == [], "the answer to the server's heartbeat is answered by nothing")
        #expect(chat.handle("PING") == [.reply("ERR unknown command")], "commands are case-sensitive")
        #expect(chat.handle("msg") == [.reply("ERR unknown command")])
        #expect(chat.handle("") == [.reply("ERR unknown command")])
    }
}
