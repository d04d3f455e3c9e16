/// `directory/name`, without doubling a slash that `directory` already ends with; a relative
/// directory stays relative, so messages show the path as the user gave it.
package func joinPath(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
}
