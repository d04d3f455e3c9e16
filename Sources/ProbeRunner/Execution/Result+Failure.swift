extension Result {
    /// The error of a failure; nil for a success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
