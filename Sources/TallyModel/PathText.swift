import Foundation

/// Path arithmetic that is safe on every name a user or a file can give.
public enum PathText {
    /// The folder part of `path`, as `NSString.deletingLastPathComponent` gives it (`a/b` → `a`,
    /// `/r` → `/`, `r` → ``). Foundation on Linux traps on a one-character name (`r`, `r/`):
    /// `--report json:r` crashed with SIGILL (issue 47), so every caller goes through here.
    public static func parent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed.contains("/") else { return "" }
        return (String(trimmed) as NSString).deletingLastPathComponent
    }
}
