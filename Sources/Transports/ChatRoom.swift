/// Everyone connected to the server, for broadcasts.
actor ChatRoom {
    private var members: [ObjectIdentifier: ChatSession] = [:]

    func join(_ session: ChatSession) { members[ObjectIdentifier(session)] = session }

    func leave(_ session: ChatSession) { members[ObjectIdentifier(session)] = nil }

    func broadcast(_ line: String) async {
        for member in members.values { await member.reply(line) }
    }
}
