import ArgumentParser
import Foundation
import TallyFormats
import TallyModel
import TallyRun

/// One side of a diff: a file in the working tree, or a file as it was at a git revision.
struct DiffInput: Hashable, Sendable {
    var path: String
    var revision: String?
    /// With `--since`, a file missing on this side is an empty side (every product added or
    /// removed) rather than an error.
    var mayBeAbsent = false
    /// How reports name the file when not by `path` (`--since` names files from the
    /// repository's top folder, as git does).
    var display: String?
    /// The tally-mapping/1 file that reads this file, when the policy names one for it.
    var mapping: String?

    /// How reports name this side: `configs/App.storekit` or `configs/App.storekit@HEAD~1`.
    var label: String {
        let name = display ?? path
        return revision.map { "\(name)@\($0)" } ?? name
    }

    init(path: String, revision: String? = nil, mayBeAbsent: Bool = false, display: String? = nil) {
        self.path = path
        self.revision = revision
        self.mayBeAbsent = mayBeAbsent
        self.display = display
    }

    /// `FILE` or `FILE@REV` (split at the first `@`, so `App.storekit@HEAD@{1}` works). An
    /// existing file whose name holds an `@` is read as that file.
    init(parsing argument: String) throws {
        guard !FileManager.default.fileExists(atPath: argument), let at = argument.firstIndex(of: "@") else {
            self.init(path: argument)
            return
        }
        let path = String(argument[..<at]), revision = String(argument[argument.index(after: at)...])
        guard !path.isEmpty, !revision.isEmpty else {
            throw ValidationError("'\(argument)' is neither a file nor FILE@REV; write e.g. configs/App.storekit@HEAD~1")
        }
        self.init(path: path, revision: revision)
    }
}

/// Reads the sides of a diff through `SourceLoader`, all at once on the available cores,
/// collecting every error so that all are shown together (as `SourceReading.readAll` does).
enum DiffReading {
    /// The catalogue of each input, or nil for an input that may be absent and is. Prints every
    /// error to standard error and exits 2 if any side could not be read.
    static func read(_ inputs: [DiffInput], options: SourceOptions) throws -> [Catalog?] {
        let format = options.inputFormat
        let readOptions = try options.readOptions(consequence: "nothing was compared")
        let results = Slots<Result<Catalog?, Failure>>(count: inputs.count)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            results[index] = Result { try load(inputs[index], format: format, options: readOptions) }
                .mapError { Failure(input: inputs[index], error: $0) }
        }
        var catalogs: [Catalog?] = []
        var failures: [String] = []
        for index in inputs.indices {
            switch results[index] {
            case .success(let catalog): catalogs.append(catalog)
            case .failure(let failure): failures.append(failure.description)
            case nil: failures.append("\(inputs[index].label): error: not read")
            }
        }
        guard failures.isEmpty else {
            var standardError = StandardError()
            for failure in failures { print(failure, to: &standardError) }
            let noun = failures.count == 1 ? "source" : "sources"
            print("tally: \(failures.count) \(noun) could not be read; nothing was compared", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
        DroppedValues.warn(about: catalogs.compactMap { $0 })
        return catalogs
    }

    private static func load(_ input: DiffInput, format: SourceFormat?, options: ReadOptions) throws -> Catalog? {
        var options = options
        if let mapping = input.mapping { options.mapping = try TallyMapping.load(path: mapping) }
        guard let revision = input.revision else {
            if let raw = RawArguments.bytes(for: input.path) {
                // A file name that is not UTF-8: opened with the bytes given, named escaped.
                let bytes = try RawNamedFile.contents(raw, name: input.path, maxBytes: options.maxBytes)
                return try SourceLoader.load(bytes: bytes, file: input.path, format: format, options: options)
            }
            if input.mayBeAbsent, !FileManager.default.fileExists(atPath: input.path) { return nil }
            let size = (try? FileManager.default.attributesOfItem(atPath: input.path))?[.size] as? NSNumber
            Diagnostics.progress(.reading(path: input.path, bytes: size?.intValue))
            guard input.display != nil else { return try SourceLoader.load(path: input.path, format: format, options: options) }
            // A folder's pages are named from the top folder too (`shop/asc/page.json`, not `../shop/asc/page.json`).
            func rename(_ file: String) -> String {
                file == input.path ? input.label : file.hasPrefix(input.path + "/") ? input.label + file.dropFirst(input.path.count) : file
            }
            do {
                var catalog = try SourceLoader.load(path: input.path, format: format, options: options)
                catalog.file = input.label
                catalog.parts = catalog.parts.map { part in
                    var part = part
                    part.file = rename(part.file)
                    return part
                }
                return catalog
            } catch let error as FormatError {
                var errors = error.all
                for index in errors.indices { errors[index].location.file = rename(errors[index].location.file) }
                throw FormatError.combining(errors, stoppedAtLimit: error.stoppedAtLimit)
            }
        }
        if let copy = try GitRevision.copyFolder(input.path, at: revision, maxBytes: options.maxBytes) {
            return try loadFolder(copy, as: input, at: revision, format: format, options: options)
        }
        guard let bytes = try GitRevision.read(input.path, at: revision, maxBytes: options.maxBytes) else {
            if input.mayBeAbsent { return nil }
            throw FormatError("the file does not exist at \(revision)", file: input.label, position: .unknown)
        }
        // Read under the plain path so its extension picks the reader; name it path@REV.
        do {
            var catalog = try SourceLoader.load(bytes: bytes, file: input.display ?? input.path, format: format, options: options)
            catalog.file = input.label
            return catalog
        } catch var error as FormatError {
            if error.location.file == (input.display ?? input.path) { error.location.file = input.label }
            throw error
        }
    }

    /// A folder source (a snapshot, saved store pages) as it was at `revision`, copied from git into
    /// `copy`: read as one source like the folder today, its pages named `folder/page.json@REV`.
    private static func loadFolder(_ copy: String, as input: DiffInput, at revision: String,
                                   format: SourceFormat?, options: ReadOptions) throws -> Catalog {
        defer { try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
        let shown = input.display ?? input.path
        func rename(_ file: String) -> String {
            guard file.hasPrefix(copy) else { return file }
            let rest = file.dropFirst(copy.count)
            return rest.isEmpty ? input.label : "\(shown)\(rest)@\(revision)"
        }
        do {
            var catalog = try SourceLoader.load(path: copy, format: format, options: options)
            catalog.file = input.label
            catalog.parts = catalog.parts.map { part in
                var part = part
                part.file = rename(part.file)
                return part
            }
            return catalog
        } catch let error as FormatError {
            var errors = error.all
            for index in errors.indices { errors[index].location.file = rename(errors[index].location.file) }
            throw FormatError.combining(errors, stoppedAtLimit: error.stoppedAtLimit)
        }
    }

    /// An error reading one input, printed the way `FormatError` prints.
    struct Failure: Error, CustomStringConvertible {
        var input: DiffInput
        var error: any Error

        var description: String {
            if let error = error as? FormatError { return Diagnostics.text(error) }
            return "\(input.label): error: \(error)"
        }
    }

    /// Fixed slots that concurrent workers fill, one each.
    private final class Slots<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Value?]

        init(count: Int) { values = Array(repeating: nil, count: count) }

        subscript(index: Int) -> Value? {
            get { lock.withLock { values[index] } }
            set { lock.withLock { values[index] = newValue } }
        }
    }
}
