import Foundation
import TallyFormats

/// Loads the `--mapping` file, printing its errors the way unreadable sources are printed.
enum MappingFile {
    static func load(_ path: String, consequence: String = "nothing was checked") throws -> TallyMapping {
        do {
            return try TallyMapping.load(path: path)
        } catch let error as FormatError {
            throw Stop.unreadable(error, what: "the mapping file", consequence: consequence)
        }
    }
}
