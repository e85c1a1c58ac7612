import Foundation
import TallyFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Expands the `sources:` globs of a policy file: `*`, `?` and `[...]` within one file or folder
/// name (matched with the C library's `fnmatch`; they do not match a leading `.`), and `**` for
/// any number of folders. Hidden folders are not searched by `**`, nor are symbolic links to
/// folders (as git and ripgrep do), so a link loop cannot multiply the sources; a file reached
/// by two paths (a linked file) counts once, by its real path.
public enum SourceGlob {
    /// `**` descends at most this many folders.
    static let maxDepth = 24

    /// The regular files (and folders that are one source) matching `pattern`, sorted; paths are `directory`-relative unless the
    /// pattern is absolute, and prefixed with `directory` unless it is `.`.
    /// - Parameter folders: every folder the pattern's last name matches, not only those that are
    ///   one source (the caller says what a folder that is not one source is).
    public static func expand(_ pattern: String, in directory: String = ".", folders: Bool = false) -> [String] {
        let absolute = pattern.hasPrefix("/")
        let components = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            .filter { $0 != "." }
        guard !components.isEmpty else { return [] }
        let base = absolute ? "/" : directory
        var found = Set<String>()
        walk(base, components[...], depth: 0, folders: folders, into: &found)
        var seen = Set<String>()
        return found.sorted().filter { seen.insert(realPath($0)).inserted }
    }

    /// The file a path leads to, links resolved; the path itself when it cannot be resolved.
    public static func realPath(_ path: String) -> String { SourceLinks.realPath(path) ?? path }

    /// Whether `path` is a symbolic link (to a folder or anything else).
    static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// Whether a relative file path (`catalog/extra.yaml`, as `git ls-tree` lists it) matches
    /// `pattern` with the rules of `expand`, without looking at the file system: for the files of
    /// a git revision.
    public static func matches(_ pattern: String, path: String) -> Bool {
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        let names = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !parts.isEmpty, !names.isEmpty else { return false }
        return match(parts[...], names[...], depth: 0)
    }

    private static func match(_ parts: ArraySlice<String>, _ names: ArraySlice<String>, depth: Int) -> Bool {
        guard let part = parts.first else { return names.isEmpty }
        guard let name = names.first, depth <= maxDepth else { return false }
        if part == "**" {
            // Zero folders, or one more (not a hidden one) and still in the `**`.
            if match(parts.dropFirst(), names, depth: depth) { return true }
            return names.count > 1 && !name.hasPrefix(".") && match(parts, names.dropFirst(), depth: depth + 1)
        }
        let fits = hasGlob(part) ? fnmatch(part, name, FNM_PERIOD) == 0 : part == name
        return fits && match(parts.dropFirst(), names.dropFirst(), depth: depth + 1)
    }

    private static func walk(_ base: String, _ rest: ArraySlice<String>, depth: Int, folders: Bool, into found: inout Set<String>) {
        guard let component = rest.first, depth <= maxDepth else { return }
        let remaining = rest.dropFirst()
        let manager = FileManager.default
        if component == "**" {
            walk(base, remaining, depth: depth, folders: folders, into: &found)
            for name in entries(base) where !name.hasPrefix(".") && isDirectory(join(base, name)) && !isSymbolicLink(join(base, name)) {
                walk(join(base, name), rest, depth: depth + 1, folders: folders, into: &found)
            }
            return
        }
        let names = hasGlob(component)
            ? entries(base).filter { fnmatch(component, $0, FNM_PERIOD) == 0 }
            : (manager.fileExists(atPath: join(base, component)) ? [component] : [])
        for name in names {
            let path = join(base, name)
            if remaining.isEmpty {
                // A folder that is one source (Google Play pages, an App Store Connect export, an
                // .itmsp package) is named like a file.
                if isRegularFile(path) || (isDirectory(path) && (folders || SourceLoader.isDirectorySource(path))) { found.insert(path) }
            } else if isDirectory(path) {
                walk(path, remaining, depth: depth + 1, folders: folders, into: &found)
            }
        }
    }

    /// Whether a pattern holds `*`, `?`, `[` or a `\` escaping one of them.
    public static func hasGlob(_ text: String) -> Bool { text.contains { "*?[\\".contains($0) } }

    /// A file or folder name as a pattern that matches only it: `*`, `?`, `[`, `]` and `\`
    /// backslash-escaped (`br[1].storekit` → `br\[1\].storekit`), as `fnmatch` reads them.
    public static func escaped(_ literal: String) -> String {
        guard literal.contains(where: { "*?[]\\".contains($0) }) else { return literal }
        var out = ""
        for character in literal {
            if "*?[]\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

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

    static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && !flag.boolValue
    }
}
