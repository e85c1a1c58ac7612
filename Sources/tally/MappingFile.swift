import Foundation
import TallyFormats

/// Loads the `--mapping` file, printing its errors the way unreadable sources are printed.
enum MappingFile {
    static func load(_ path: String, consequence: String = "nothing was checked") throws -> TallyMapping {
        do {
            return try TallyMapping.load(path: path)
        } catch let error as FormatError {
            var standardError = StandardError()
            print(Diagnostics.text(error), to: &standardError)
            print("tally: the mapping file could not be read; \(consequence)", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
    }
}
