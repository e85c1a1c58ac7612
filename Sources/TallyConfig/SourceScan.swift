import Foundation
import TallyCode
import TallyFormats
import TallyModel

/// Finds the sources in a repository for `tally init`: `.storekit` configurations, files whose
/// first bytes show a catalogue format Tally reads, and folders Tally reads as one source (a
/// `tally fetch` snapshot, saved store pages, gradle-play-publisher's `play/products/`). Hidden
/// folders, build output and symbolic links to folders are skipped; a file reached by two paths is
/// proposed once.
public enum SourceScan {
    static let skipped: Set<String> = [".build", "build", "DerivedData", "Pods", "Carthage", "node_modules", "vendor"]
    /// Deep enough for an Android module's code (`app/src/main/java/com/company/app/billing/X.kt`).
    static let maxDepth = 12
    static let maxFiles = 20_000

    /// What a scan found, as paths relative to the directory scanned, sorted.
    public struct Found: Sendable, Hashable {
        public var configurations: [String] = []
        /// Catalogue files, and folders read as one source (those are in `folders` too).
        public var catalogs: [String] = []
        /// Each folder read as one source, with what it is (`App Store Connect snapshot`).
        public var folders: [String: FolderSource] = [:]
        /// Files beside a source that a reader takes by their ending but that are not product
        /// sources (a `deploy.yaml` beside `iap.yaml`, an empty `.storekit`): left out, and said so.
        public var notSources: [String] = []
        /// Sources found that do not read (the first line of their first error): left out, so
        /// that the `tally check` after `init` reads everything it names. Filled by `read()`.
        public var unreadable: [Unreadable] = []
        /// Sources under test folders (`Tests/`, `AppTests/`, `Fixtures/`), left out when the
        /// repository has sources outside them too: fixtures are not what the app sells.
        public var inTestFolders: [String] = []
        /// Whether the walk stopped at `maxFiles` entries before it had seen the whole folder.
        public var stoppedScanning = false
        /// The schemes that name a StoreKit configuration, and which.
        public var schemes: [SchemeStoreKitReference] = []
        /// Each source that was read, by path. Filled by `read()`.
        public var loaded: [String: Catalog] = [:]
        /// The directory scanned: the paths above are relative to it.
        public var directory = "."
        /// Code files (outside test folders and build output) that name a purchase API, read
        /// together by `read()` into `code`.
        public var codeCandidates: [String] = []
        /// The app's code as a source, when it asks for product IDs Tally can read. Filled by `read()`.
        public var code: CodeFound?

        public init() {}

        /// Reads every source found with its reader; what does not read moves to `unreadable`.
        public mutating func read() {
            for path in configurations + catalogs {
                do {
                    loaded[path] = try SourceLoader.load(path: directory == "." ? path : "\(directory)/\(path)")
                } catch {
                    // The whole first error, with its place: the one thing to fix first.
                    let text = (error as? FormatError).map { SourceScan.placed($0) } ?? "\(error)"
                    unreadable.append(Unreadable(path: path, error: text))
                }
            }
            readCode()
            let failed = Set(unreadable.map(\.path))
            configurations.removeAll { failed.contains($0) }
            catalogs.removeAll { failed.contains($0) }
            for path in failed { folders[path] = nil }
        }
    }

    /// What `init` proposes for the app's code: one glob per language folder that holds the
    /// files whose calls (or constants) ask for products.
    public struct CodeFound: Sendable, Hashable {
        /// `code:` globs (`EarthLord/**/*.swift`).
        public var globs: [String]
        /// The files that ask (a call or the literal it reads).
        public var files: [String]
        /// How many distinct product IDs the code asks for.
        public var ids: Int
        /// Calls whose IDs Tally cannot follow.
        public var unresolved: Int
        /// Where those calls stand (`file:line`), for the summary.
        public var unresolvedAt: [String] = []
        /// The stores the code asks (a cross-platform call asks both).
        public var stores: Set<Store> = []
        /// The Android app's package name, when its Gradle file says it (`applicationId`).
        public var androidPackage: String?
    }

    /// The most code files `init` reads (each at most `maxCodeBytes`).
    static let maxCodeFiles = 5_000
    static let maxCodeBytes = 2 * 1024 * 1024
}

extension SourceScan.Found {
    /// Reads the code candidates together (a constant in one file resolves a call in another)
    /// and proposes a glob per language and folder of the files that ask.
    mutating func readCode() {
        guard !codeCandidates.isEmpty else { return }
        var files: [CodeFile] = []
        for path in codeCandidates.prefix(SourceScan.maxCodeFiles) {
            let full = directory == "." ? path : "\(directory)/\(path)"
            guard let language = CodeSourceReader.language(of: path),
                  let bytes = try? SourceLoader.readBytes(path: full, maxBytes: SourceScan.maxCodeBytes),
                  let text = String(validating: bytes, as: UTF8.self) else { continue }
            files.append(CodeFile(path: path, text: text, language: language))
        }
        let scan = CodeScanner.scan(files)
        // Calls whose IDs Tally cannot follow are proposed too (named, with the `ids:` remedy):
        // the app's code asks for products, and the gate must say what it could not read.
        let unfollowed = scan.notes.filter { $0.message.contains(" asks for ") }
        guard !scan.requests.isEmpty || !unfollowed.isEmpty else { return }
        let asking = Set(scan.requests.flatMap { [$0.call.file, $0.literal.file] } + unfollowed.map(\.location.file))
        var globs: [String] = []
        for language in CodeLanguage.allCases {
            let inLanguage = asking.filter { CodeSourceReader.language(of: $0) == language }.sorted()
            guard !inLanguage.isEmpty else { continue }
            // The top folder the files share (an app target, `app/` of an Android project): a
            // constant the call reads may stand in any file of the module.
            let common = CodeSourceReader.commonFolder(inLanguage.count == 1 ? [inLanguage[0], inLanguage[0]] : inLanguage)
            let folder = common.split(separator: "/").first.map(String.init) ?? "."
            let ext = (inLanguage[0] as NSString).pathExtension
            let glob = folder == "." || folder.isEmpty ? "**/*.\(SourceGlob.escaped(ext))" : "\(SourceGlob.escaped(folder))/**/*.\(SourceGlob.escaped(ext))"
            globs.append(glob)
        }
        var found = SourceScan.CodeFound(globs: globs, files: asking.sorted(), ids: Set(scan.requests.map(\.id)).count, unresolved: unfollowed.count)
        found.unresolvedAt = unfollowed.map { "\($0.location.file):\($0.location.position.line)" }
        found.stores = Set(scan.requests.flatMap { $0.store.map { [$0] } ?? Store.askedByCallsOfNoStore })
        if found.stores.contains(.googlePlay) {
            let base = directory
            found.androidPackage = globs.lazy.compactMap { glob -> String? in
                let folder = glob.split(separator: "/").first.map(String.init) ?? "."
                return SourceScan.applicationID(in: base == "." ? folder : "\(base)/\(folder)")
            }.first
        }
        code = found
    }
}

extension SourceScan {
    /// The `applicationId` (else `namespace`) an Android module's Gradle file names.
    static func applicationID(in folder: String) -> String? {
        for name in ["build.gradle.kts", "build.gradle"] {
            guard let bytes = try? SourceLoader.readBytes(path: "\(folder)/\(name)", maxBytes: 1 << 20) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            for key in ["applicationId", "namespace"] {
                guard let pattern = try? Regex("\(key)\\s*=?\\s*[\"']([A-Za-z][A-Za-z0-9_.]*)[\"']"),
                      let match = text.firstMatch(of: pattern), match.output.count > 1, let id = match.output[1].substring else { continue }
                return String(id)
            }
        }
        return nil
    }

    /// A format error's message with its line and column (or key path), without the file's name.
    static func placed(_ error: FormatError) -> String {
        let location = error.location
        if let line = location.line { return "line \(line)\(location.column.map { ", column \($0)" } ?? ""): \(error.message)" }
        if let path = location.path { return "at \(path): \(error.message)" }
        return error.message
    }

    /// A source found that does not read, with its first error.
    public struct Unreadable: Sendable, Hashable {
        public var path: String
        public var error: String
    }

    /// Whether a path lies in a folder of tests or fixtures: a component `Tests`, `test`,
    /// `Fixtures`, `testdata`, `__tests__`, `spec`, or Xcode's `AppTests` / `AppUITests`.
    public static func isUnderTestFolder(_ path: String) -> Bool {
        let components = path.split(separator: "/").dropLast()
        return components.contains { name in
            ["test", "tests", "fixtures", "testdata", "__tests__", "spec", "specs"].contains(name.lowercased()) || name.hasSuffix("Tests")
        }
    }

    public static func find(in directory: String = ".") -> Found {
        var found = Found()
        found.directory = directory
        var candidates: [String] = []
        // The app's code files, and the languages in which some file names a purchase API: every
        // file of such a language is read (the IDs often stand in a constants file, issue 49).
        var codeFiles: [String] = []
        var asking: Set<CodeLanguage> = [.swift]
        var budget = maxFiles
        var seen = Set<String>()
        walk(directory, relative: "", depth: 0, budget: &budget, folder: { relative, full in
            // A StoreKit configuration package (`Products.storekit/`): one configuration, by the package's name.
            if StoreKitReader.claims(directory: full) {
                found.configurations.append(relative)
                return true
            }
            // A snapshot, or saved pages (two files or more: one file is proposed as itself);
            // an App Store package is proposed by its metadata.xml, as before.
            guard let source = FolderSource.at(full), !source.format.isProposedByAFileInside, source.snapshot || source.files > 1 else { return false }
            found.catalogs.append(relative)
            found.folders[relative] = source
            return true
        }, file: { relative, full in
            guard seen.insert(SourceGlob.realPath(full)).inserted else { return }
            // Code is read together after the walk (a constant in one file, the call in another).
            if let language = CodeSourceReader.language(of: relative) {
                guard !CodeExclusions.excludedByDefault(relative), codeFiles.count < maxCodeFiles * 4 else { return }
                codeFiles.append(relative)
                if language != .swift, let head = try? SourceLoader.readBytes(path: full, maxBytes: maxCodeBytes),
                   CodeScanner.mayAskForProducts(String(decoding: head, as: UTF8.self), language: language) {
                    asking.insert(language.family)
                }
                return
            }
            let readers = SourceLoader.readers(claiming: relative)
            guard !readers.isEmpty else { return }
            if SourceLoader.isProductSource(path: full, name: relative) {
                if readers.allSatisfy({ $0.format.role == .configuration }) {
                    found.configurations.append(relative)
                } else {
                    found.catalogs.append(relative)
                }
            } else {
                candidates.append(relative)
            }
        })
        // Past the budget the scan stopped: say so, never "no product source found" in silence (issue 47).
        found.stoppedScanning = budget < 0
        found.codeCandidates = codeFiles.filter { path in
            CodeSourceReader.language(of: path).map { asking.contains($0.family) } ?? false
        }
        found.configurations.sort()
        found.catalogs.sort()
        // Test fixtures are left out where the repository has real sources of that kind too.
        for keyPath in [\Found.configurations, \Found.catalogs] {
            let (tests, others) = (found[keyPath: keyPath].filter(isUnderTestFolder), found[keyPath: keyPath].filter { !isUnderTestFolder($0) })
            guard !tests.isEmpty, !others.isEmpty else { continue }
            found[keyPath: keyPath] = others
            found.inTestFolders += tests
            for path in tests { found.folders[path] = nil }
        }
        found.inTestFolders.sort()
        // The StoreKit file each scheme runs the app against comes first (issue 50).
        found.schemes = XcodeSchemes.references(in: directory)
        let used = Set(found.schemes.filter(\.exists).compactMap(\.resolved))
        found.configurations = found.configurations.filter { used.contains($0) } + found.configurations.filter { !used.contains($0) }
        // A file named like a source beside it (a deploy.yaml beside iap.yaml) is named as left
        // out; a file of another kind (an Info.plist, a pubspec.yaml beside a .storekit) is not a
        // near miss, and is passed over without a word.
        // A file only configuration readers claim (an empty .storekit) looked like a source
        // wherever it is: it is always named.
        let sourceKinds = Set((found.configurations + found.catalogs).map { "\(folder(of: $0))|\(kind(of: $0))" })
        found.notSources = candidates.filter { candidate in
            sourceKinds.contains("\(folder(of: candidate))|\(kind(of: candidate))") || isConfigurationOnly(candidate)
        }.sorted()
        return found
    }

    /// The `sources:` entries for what a scan found: a folder source as `folder/`; one glob per
    /// folder and extension (`configs/*.storekit`) where it matches exactly the files found
    /// there, in `directory`; else each file by name. What `init` writes is what it read.
    public static func globs(for paths: [String], in directory: String = ".", folders: Set<String> = []) -> [String] {
        var seen = Set<String>()
        var entries: [String] = []
        let found = Set(paths)
        for path in paths {
            // Names are written as patterns matching only themselves (`br[1].storekit`).
            if folders.contains(path) {
                let entry = SourceGlob.escaped(path) + "/"
                if seen.insert(entry).inserted { entries.append(entry) }
                continue
            }
            let parent = SourceGlob.escaped(folder(of: path))
            let ext = (path as NSString).pathExtension
            let glob = parent.isEmpty ? "*.\(SourceGlob.escaped(ext))" : "\(parent)/*.\(SourceGlob.escaped(ext))"
            let base = directory == "." ? "" : (directory.hasSuffix("/") ? directory : directory + "/")
            let matched = SourceGlob.expand(glob, in: directory).map { $0.hasPrefix(base) ? String($0.dropFirst(base.count)) : $0 }
            let entry = !ext.isEmpty && !matched.isEmpty && matched.allSatisfy(found.contains) ? glob : SourceGlob.escaped(path)
            if seen.insert(entry).inserted { entries.append(entry) }
        }
        return entries
    }

    private static func folder(of path: String) -> String { PathText.parent(path) }

    /// Whether only configuration readers claim the file and none decides by content (`.storekit`).
    private static func isConfigurationOnly(_ path: String) -> Bool {
        let readers = SourceLoader.readers(claiming: path)
        return !readers.isEmpty && readers.allSatisfy { $0.format.role == .configuration && !$0.decidedByContent }
    }

    /// A file's kind for that purpose: its extension, `.yml` and `.yaml` alike.
    private static func kind(of path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        return ext == "yml" ? "yaml" : ext
    }

    /// Visits every folder (`folder` returns true when it is a source, not to be entered) and file.
    private static func walk(_ full: String, relative: String, depth: Int, budget: inout Int,
                             folder: (String, String) -> Bool, file: (String, String) -> Void) {
        guard depth <= maxDepth, let names = try? FileManager.default.contentsOfDirectory(atPath: full) else { return }
        for name in names.sorted() where !name.hasPrefix(".") && !skipped.contains(name) {
            guard budget > 0 else { budget = -1; return }  // -1: stopped with entries left
            budget -= 1
            let path = full == "." ? name : "\(full)/\(name)"
            let rel = relative.isEmpty ? name : "\(relative)/\(name)"
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                guard !SourceGlob.isSymbolicLink(path) else { continue }
                if !folder(rel, path) { walk(path, relative: rel, depth: depth + 1, budget: &budget, folder: folder, file: file) }
            } else {
                file(rel, path)
            }
        }
    }
}
