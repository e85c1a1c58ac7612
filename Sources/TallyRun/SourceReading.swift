import Foundation
import TallyFormats
import TallyModel

/// Something a run reports while it works (the CLI shows it as progress).
public enum RunEvent: Sendable {
    /// A file is about to be read; `bytes` is its size when known.
    case reading(path: String, bytes: Int?)
}

public typealias RunEvents = @Sendable (RunEvent) -> Void

extension SourceSet {
    /// Reads every source, in parallel, keeping the order of the set. Every file that cannot be
    /// read is reported, each with all its located errors (not the first file only). Each mapping
    /// file is read once; one that cannot be read fails the run before any source is read.
    /// An entry that names a revision is read from `revisions` (its catalogue named `path@REV`).
    /// - Parameter together: whether the files a module reader takes (the app's code) are one
    ///   source (check, lint, show); `diff` reads each file as itself, one catalogue per entry.
    public func read(format: SourceFormat? = nil, options: ReadOptions = ReadOptions(),
                     events: RunEvents? = nil, revisions: (any RevisionStore)? = nil, together: Bool = true) throws(RunFailure) -> [Catalog] {
        var mappings: [String: TallyMapping] = [:]
        for file in Set(entries.compactMap(\.mapping)).sorted() {
            do {
                mappings[file] = try TallyMapping.load(path: location(of: file))
            } catch {
                var failure = relabel(Self.formatError(error, file: file), opened: location(of: file), as: file)
                failure.message = "the mapping file: " + failure.message
                throw .policy(failure)
            }
        }
        let loaded = mappings
        // The files a module reader takes (the app's code) are one source, read together (a Swift
        // constant in one file resolves a call in another); it stands where the first of them stood.
        var modules: [Entry: Result<Catalog, RunFailure>] = [:]
        var inModules = Set<Entry>()
        if together {
            for reader in SourceLoader.moduleReaders where format == nil || format == reader.format {
                let taken = entries.filter { !inModules.contains($0) && takes($0, reader) }
                guard let first = taken.first else { continue }
                inModules.formUnion(taken)
                modules[first] = Result { () throws(RunFailure) in try readModule(taken, reader: reader, options: options, events: events) }
            }
        }
        let others = entries.filter { !inModules.contains($0) || modules[$0] != nil }
        let readModules = modules
        let outcomes = Parallel.map(others) { entry -> Result<Catalog, FormatError> in
            if let module = readModules[entry] {
                switch module {
                case .success(let catalog): return .success(catalog)
                case .failure(.unreadable(let errors)): return .failure(FormatError.combining(errors, stoppedAtLimit: false))
                case .failure(let other): return .failure(FormatError("\(other)", file: entry.path, position: .unknown))
                }
            }
            let opened = location(of: entry.path)
            if let revision = entry.revision {
                var entryOptions = options
                entryOptions.mapping = entry.mapping.flatMap { loaded[$0] } ?? options.mapping
                return Result { () throws(FormatError) in
                    try read(entry, at: revision, opened: opened, from: revisions ?? GitRevisionStore(), format: format, options: entryOptions)
                }
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: opened))?[.size] as? NSNumber
            events?(.reading(path: entry.path, bytes: size?.intValue))
            var entryOptions = options
            entryOptions.mapping = entry.mapping.flatMap { loaded[$0] } ?? options.mapping
            do {
                if let raw = entry.rawName {
                    let bytes = try RawNamedFile.contents(raw, name: entry.path, maxBytes: entryOptions.maxBytes)
                    return .success(try SourceLoader.load(bytes: bytes, file: entry.path, format: format, options: entryOptions))
                }
                var catalog = try SourceLoader.load(path: opened, format: format, options: entryOptions)
                if opened != entry.path { relabel(&catalog, opened: opened, as: entry.path) }
                return .success(catalog)
            } catch {
                return .failure(relabel(Self.formatError(error, file: entry.path), opened: opened, as: entry.path))
            }
        }
        var catalogs: [Catalog] = []
        var failures: [FormatError] = []
        for outcome in outcomes {
            switch outcome {
            case .success(let catalog): catalogs.append(catalog)
            case .failure(let error): failures.append(error)
            }
        }
        guard failures.isEmpty else { throw .unreadable(failures) }
        return catalogs
    }

    /// Whether a module reader takes an entry into its module: a file of the working tree, read
    /// as itself (no mapping, no raw name), that the reader claims by name.
    private func takes(_ entry: Entry, _ reader: any ModuleSourceReader.Type) -> Bool {
        entry.revision == nil && entry.mapping == nil && entry.rawName == nil && reader.takes(entry.path)
    }

    /// The files a module reader takes, as one source named by the reader (`moduleName`).
    private func readModule(_ module: [Entry], reader: any ModuleSourceReader.Type, options: ReadOptions, events: RunEvents?) throws(RunFailure) -> Catalog {
        var files: [(path: String, bytes: [UInt8])] = []
        var failures: [FormatError] = []
        for entry in module {
            let opened = location(of: entry.path)
            do {
                let bytes = try SourceLoader.readBytes(path: opened, maxBytes: options.maxBytes)
                events?(.reading(path: entry.path, bytes: bytes.count))
                files.append((entry.path, bytes))
            } catch {
                failures.append(relabel(Self.formatError(error, file: entry.path), opened: opened, as: entry.path))
            }
        }
        guard failures.isEmpty else { throw .unreadable(failures) }
        do {
            return try reader.read(files: files, name: reader.moduleName(files.map(\.path)), options: options)
        } catch {
            throw .unreadable([Self.formatError(error, file: module[0].path)])
        }
    }

    /// One file (or folder source) as it was at `revision`: read under its plain path so that its
    /// extension picks the reader, named `path@REV` (a folder's pages `folder/page.json@REV`).
    private func read(_ entry: Entry, at revision: String, opened: String, from store: any RevisionStore,
                      format: SourceFormat?, options: ReadOptions) throws(FormatError) -> Catalog {
        let label = entry.label
        do {
            if let copy = try store.copyFolder(opened, at: revision, maxBytes: options.maxBytes) {
                defer { try? FileManager.default.removeItem(atPath: PathText.parent(copy)) }
                func rename(_ file: String) -> String {
                    guard file.hasPrefix(copy) else { return file }
                    let rest = file.dropFirst(copy.count)
                    return rest.isEmpty ? label : "\(entry.path)\(rest)@\(revision)"
                }
                do {
                    var catalog = try SourceLoader.load(path: copy, format: format, options: options)
                    catalog.file = label
                    catalog.parts = catalog.parts.map { part in
                        var part = part
                        part.file = rename(part.file)
                        return part
                    }
                    return catalog
                } catch {
                    var errors = Self.formatError(error, file: label).all
                    for index in errors.indices { errors[index].location.file = rename(errors[index].location.file) }
                    throw FormatError.combining(errors, stoppedAtLimit: (error as? FormatError)?.stoppedAtLimit ?? false)
                }
            }
            guard let bytes = try store.contents(of: opened, at: revision, maxBytes: options.maxBytes) else {
                throw FormatError("the file does not exist at \(revision)", file: label, position: .unknown)
            }
            do {
                var catalog = try SourceLoader.load(bytes: bytes, file: entry.path, format: format, options: options)
                catalog.file = label
                return catalog
            } catch {
                var failure = Self.formatError(error, file: label)
                if failure.location.file == entry.path { failure.location.file = label }
                throw failure
            }
        } catch let error as RevisionError {
            var failure = FormatError(error.message, file: label, position: .unknown)
            failure.remedy = error.remedy
            throw failure
        } catch let error as FormatError {
            throw error
        } catch {
            throw Self.formatError(error, file: label)
        }
    }

    /// A catalogue read from `opened` named as the user named it.
    private func relabel(_ catalog: inout Catalog, opened: String, as name: String) {
        catalog.file = name
        catalog.parts = catalog.parts.map { part in
            var part = part
            if part.file.hasPrefix(opened) { part.file = name + part.file.dropFirst(opened.count) }
            return part
        }
    }

    /// An error about `opened` named as the user named the file.
    private func relabel(_ error: FormatError, opened: String, as name: String) -> FormatError {
        guard opened != name else { return error }
        var errors = error.all
        for index in errors.indices where errors[index].location.file.hasPrefix(opened) {
            errors[index].location.file = name + errors[index].location.file.dropFirst(opened.count)
        }
        return FormatError.combining(errors, stoppedAtLimit: error.stoppedAtLimit)
    }

    static func formatError(_ error: any Error, file: String) -> FormatError {
        (error as? FormatError) ?? FormatError("\(error)", file: file, position: .unknown)
    }
}

extension Catalog {
    /// How many dropped values are said per source before the rest is counted.
    public static let droppedValuesShown = 20

    /// What reading this source left out, as diagnostics: the values the reader could not take
    /// (the first `droppedValuesShown`, with file and line, then how many more), and what its
    /// state filter left out. Every command that reads sources says these once, after reading.
    public var readingDiagnostics: [Diagnostic] {
        let shown = Catalog.droppedValuesShown
        var list = droppedValues.prefix(shown).map(\.diagnostic)
        if droppedValues.count > shown {
            list.append(Diagnostic(.warning, "\(droppedValues.count - shown) more values were not taken ('tally lint \(file)' lists them all)",
                                   at: SourceLocation(file: file)))
        }
        if let note = hiddenByStateNote { list.append(note) }
        return list
    }

    /// `play.csv: note: 5 products were left out by state (5 INACTIVE): only products for sale
    /// count; --include-state INACTIVE shows them (--include-state ALL shows every product)`.
    var hiddenByStateNote: Diagnostic? {
        let hidden = hiddenByState.filter { $0.value > 0 }
        guard !hidden.isEmpty else { return nil }
        let total = hidden.values.reduce(0, +)
        let states = hidden.sorted { $0.key < $1.key }
        let counts = states.map { "\($0.value) \($0.key.isEmpty ? "without a state" : $0.key)" }.joined(separator: ", ")
        let flags = states.map { $0.key }.filter { ProductStates.normalise($0) != nil }.map { "--include-state \($0)" }
        let show = flags.isEmpty ? "--include-state ALL shows them" : "\(flags.joined(separator: " ")) shows them (--include-state ALL shows every product)"
        return Diagnostic(.note, "\(total) product\(total == 1 ? " was" : "s were") left out by state (\(counts)): only products for sale count; \(show)",
                          at: SourceLocation(file: file))
    }
}
