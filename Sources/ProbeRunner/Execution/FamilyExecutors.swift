/// The executors of the families of steps a run has used, each made by its first use. An
/// execution holds one pointer to them, made with the first family it uses: a copy of a
/// `parallel` block mostly uses none, and ten thousand copies then hold 8 bytes each where
/// eight optionals took 64.
final class FamilyExecutors {
    var subjects: SubjectSteps?
    var proxies: ProxySteps?
    var tls: TLSSteps?
    var webSocket: WebSocketSteps?
    var http2: HTTP2Steps?
    var rules: RuleSteps?
    var wireChecks: WireSteps?
    var networks: NetworkSteps?
}
