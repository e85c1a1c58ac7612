import Foundation
import TallyFormats
import TallyModel

/// Reads the sources a command names, collecting every error so that all are shown at once.
enum SourceReading {
    /// Reads each path; prints every error to standard error and exits 2 if any file failed,
    /// ending with what that means for the command (`consequence`: "nothing was shown").
    static func readAll(_ paths: [String], options: SourceOptions, consequence: String = "nothing was checked") throws -> [Catalog] {
        let format = options.inputFormat
        let readOptions = try options.readOptions(consequence: consequence)
        // Sources are read in parallel; results and errors keep the order of the arguments.
        let outcomes = Parallel.map(paths) { path -> Result<Catalog, FormatError> in
            Progress.reading(path)
            do {
                if let raw = RawArguments.bytes(for: path) {
                    // A file name that is not UTF-8: opened with its own bytes, named escaped.
                    let bytes = try RawArguments.readFile(path, bytes: raw, maxBytes: readOptions.maxBytes)
                    return .success(try SourceLoader.load(bytes: bytes, file: path, format: format, options: readOptions))
                }
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
            print("tally: \(failures.count) \(noun) could not be read; \(consequence)", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
        return catalogs
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
