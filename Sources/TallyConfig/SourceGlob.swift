import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Expands the `sources:` globs of a policy file: `*`, `?` and `[...]` within one file or folder
/// name (matched with the C library's `fnmatch`; they do not match a leading `.`), and `**` for
/// any number of folders. Hidden folders are not searched by `**`.
public enum SourceGlob {
    /// `**` descends at most this many folders (symbolic-link loops end here).
    static let maxDepth = 24

    /// The regular files matching `pattern`, sorted; paths are `directory`-relative unless the
    /// pattern is absolute, and prefixed with `directory` unless it is `.`.
    public static func expand(_ pattern: String, in directory: String = ".") -> [String] {
        let absolute = pattern.hasPrefix("/")
        let components = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            .filter { $0 != "." }
        guard !components.isEmpty else { return [] }
        let base = absolute ? "/" : directory
        var found = Set<String>()
        walk(base, components[...], depth: 0, into: &found)
        return found.sorted()
    }

    private static func walk(_ base: String, _ rest: ArraySlice<String>, depth: Int, into found: inout Set<String>) {
        guard let component = rest.first, depth <= maxDepth else { return }
        let remaining = rest.dropFirst()
        let manager = FileManager.default
        if component == "**" {
            walk(base, remaining, depth: depth, into: &found)
            for name in entries(base) where !name.hasPrefix(".") && isDirectory(join(base, name)) {
                walk(join(base, name), rest, depth: depth + 1, into: &found)
            }
            return
        }
        let names = hasGlob(component)
            ? entries(base).filter { fnmatch(component, $0, FNM_PERIOD) == 0 }
            : (manager.fileExists(atPath: join(base, component)) ? [component] : [])
        for name in names {
            let path = join(base, name)
            if remaining.isEmpty {
                if isRegularFile(path) { found.insert(path) }
            } else if isDirectory(path) {
                walk(path, remaining, depth: depth + 1, into: &found)
            }
        }
    }

    static func hasGlob(_ text: String) -> Bool { text.contains { "*?[".contains($0) } }

    private static func join(_ base: String, _ name: String) -> String {
        switch base {
        case ".": return name
        case "/": return "/" + name
        default: return base.hasSuffix("/") ? base + name : "\(base)/\(name)"
        }
    }

    private static func entries(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && !flag.boolValue
    }
}
