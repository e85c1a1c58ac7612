import Foundation
import TallyFormats
import TallyModel

/// Reads the sources a command names, collecting every error so that all are shown at once.
enum SourceReading {
    /// Reads each path; prints every error to standard error and exits 2 if any file failed.
    static func readAll(_ paths: [String], options: SourceOptions) throws -> [Catalog] {
        let format = options.inputFormat
        let readOptions = try options.readOptions()
        // Sources are read in parallel; results and errors keep the order of the arguments.
        let outcomes = Parallel.map(paths) { path -> Result<Catalog, FormatError> in
            Progress.reading(path)
            do {
                return .success(try SourceLoader.load(path: path, format: format, options: readOptions))
            } catch let error as FormatError {
                return .failure(error)
            } catch {
                return .failure(FormatError("\(error)", file: path, position: .unknown))
            }
        }
        var catalogs: [Catalog] = []
        var failures: [String] = []
        for outcome in outcomes {
            switch outcome {
            case .success(let catalog): catalogs.append(catalog)
            case .failure(let error): failures.append(error.description)
            }
        }
        guard failures.isEmpty else {
            var standardError = StandardError()
            for failure in failures { print(failure, to: &standardError) }
            let noun = failures.count == 1 ? "source" : "sources"
            print("tally: \(failures.count) \(noun) could not be read; nothing was checked", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
        DroppedValues.warn(about: catalogs)
        return catalogs
    }
}

/// Values the readers could not take, on standard error with file and line: every command that
/// reads sources calls this once, after reading them (issue 11, item 2).
enum DroppedValues {
    /// How many are listed per source before the rest is counted.
    static let shown = 20

    static func warn(about catalogs: [Catalog]) {
        var standardError = StandardError()
        for catalog in catalogs {
            let dropped = catalog.droppedValues
            for value in dropped.prefix(shown) { print(value.description, to: &standardError) }
            if dropped.count > shown {
                print("\(catalog.file): warning: \(dropped.count - shown) more values were not taken ('tally lint \(catalog.file)' lists them all)",
                      to: &standardError)
            }
        }
    }
}

/// Progress on standard error, only for large files and only on a terminal.
enum Progress {
    static let threshold = 8 * 1024 * 1024

    static func reading(_ path: String) {
        guard isatty(STDERR_FILENO) == 1,
              let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
              size.intValue >= threshold else { return }
        var standardError = StandardError()
        print("tally: reading \(path) (\(size.intValue / 1_048_576) MB)…", to: &standardError)
    }
}
