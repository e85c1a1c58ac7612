#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A shell-style glob over product IDs: `*` any run of characters (dots included), `?` one
/// character, `[abc]` one of a set, `\*` a literal star. Matched with the C library's `fnmatch`.
public struct ProductPattern: Sendable, Hashable, CustomStringConvertible {
    public let pattern: String

    public init(_ pattern: String) {
        self.pattern = pattern
    }

    /// Whether a product ID matches. A finding without a product matches only `*`.
    public func matches(_ productID: String?) -> Bool {
        guard let productID else { return pattern == "*" }
        return fnmatch(pattern, productID, 0) == 0
    }

    /// Whether the pattern has glob characters at all (a plain ID matches only itself).
    public var isGlob: Bool { pattern.contains { "*?[".contains($0) } }

    public var description: String { pattern }
}
