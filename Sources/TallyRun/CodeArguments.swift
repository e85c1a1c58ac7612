import Foundation
import TallyConfig
import TallyFormats
import TallyModel

/// The app's code named on the command line as a folder or a glob (`tally show App/`,
/// `tally show 'Sources/**/*.swift'`): the code files in it, read together as one code source,
/// exactly as `check` reads a policy's `code:` globs. A folder Tally reads as one source (an App
/// Store Connect export, a snapshot, an App Store package) stays one source; a file stays itself.
///
/// Vendored, generated, sample and test code is left out (`CodeExclusions`, judged from the
/// folder or the glob's fixed part, not from where that folder sits), and, like the policy's
/// globs, `**` does not follow linked folders, nor read a linked file that leads out of the folder.
enum CodeArguments {
    /// The arguments with each code folder and glob replaced by its code files (sorted); any
    /// other argument unchanged. A glob that matches nothing is a usage error naming it.
    static func expand(_ arguments: [String], root: String?) throws(RunFailure) -> [String] {
        let opened = SourceSet([], root: root)
        var expanded: [String] = []
        for argument in arguments {
            let location = opened.location(of: argument)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory) {
                guard isDirectory.boolValue, !SourceLoader.isDirectorySource(location) else { expanded.append(argument); continue }
                let files = codeFiles(under: argument, root: root)
                // A folder of no code: the reader says what a folder may be.
                expanded += files.isEmpty ? [argument] : files
                continue
            }
            // A wildcard makes a glob (a `\` alone is an escaped file name: `caf\xE9.storekit`).
            guard argument.contains(where: { "*?[".contains($0) }), DiffPlan.entry(parsing: argument, root: root)?.revision == nil else {
                expanded.append(argument)
                continue
            }
            let matches = SourceGlob.expand(argument, in: root ?? ".").map { strip(root, from: $0) }
            let base = fixedPart(of: argument)
            let files = matches.filter { path in
                guard CodeSourceReader.language(of: path) != nil else { return true }
                return !CodeExclusions.excludedByDefault(relative(path, to: base))
            }
            guard !files.isEmpty else {
                throw .usage("\(argument) matches no file\(matches.isEmpty ? "" : " that is the app's own code (vendored, generated, sample and test folders are left out)")"
                             + "; quote a glob so that Tally, not the shell, expands it")
            }
            expanded += files
        }
        return expanded
    }

    /// The code files under `folder`, relative names as the user spelled the folder.
    static func codeFiles(under folder: String, root: String?) -> [String] {
        let trimmed = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let pattern = trimmed == "." ? "**/*" : SourceGlob.escaped(trimmed) + "/**/*"
        let boundary = RepositoryBoundary(around: SourceSet([], root: root).location(of: trimmed))
        return SourceGlob.expand(pattern, in: root ?? ".").map { strip(root, from: $0) }.filter { path in
            guard CodeSourceReader.language(of: path) != nil else { return false }
            guard boundary.escape(SourceSet([], root: root).location(of: path)) == nil else { return false }
            return !CodeExclusions.excludedByDefault(relative(path, to: trimmed))
        }
    }

    /// The folders of a glob before its first wildcard (`App/Sources` of `App/Sources/**/*.swift`).
    static func fixedPart(of pattern: String) -> String {
        var folders: [Substring] = []
        for part in pattern.split(separator: "/", omittingEmptySubsequences: false).dropLast() {
            if SourceGlob.hasGlob(String(part)) { break }
            folders.append(part)
        }
        return folders.joined(separator: "/")
    }

    /// `path` relative to `folder` when it lies in it.
    static func relative(_ path: String, to folder: String) -> String {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        var folder = folder
        while folder.hasPrefix("./") { folder.removeFirst(2) }
        guard !folder.isEmpty, folder != "." else { return path }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    private static func strip(_ root: String?, from path: String) -> String {
        guard let root, root != "." else { return path }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
