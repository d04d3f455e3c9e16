/// A step's object that makes its own log entry's message, kept by the step log instead of a
/// closure: when the log lets the entry go, it hands the object back (`letGo`), and the next
/// step of its kind is made in it rather than in a new object (one allocation less a step, and
/// no object taken apart; bench/HISTORY.md 1).
protocol LoggedStep: AnyObject {
    /// The entry's message, built when the log is read.
    var logMessage: String { get }
    /// The log no longer keeps the entry: the object may be used again once no one else holds it.
    func letGo()
}
