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
    public func read(format: SourceFormat? = nil, options: ReadOptions = ReadOptions(),
                     events: RunEvents? = nil) throws(RunFailure) -> [Catalog] {
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
        let outcomes = Parallel.map(entries) { entry -> Result<Catalog, FormatError> in
            let opened = location(of: entry.path)
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
