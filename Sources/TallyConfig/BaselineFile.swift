import Foundation
import TallyCheck
import TallyFormats
import TallyModel

/// Reads and writes baseline files: JSON, `{"version": 1, "findings": [...]}`, keys sorted.
public enum BaselineFile {
    /// The most a baseline file may hold: 256 MB, whatever the input limit (a baseline is findings, not a catalogue).
    public static let maxBytes = 256 << 20

    /// Reads a baseline; a `FormatError` with line and column for broken JSON, with the key
    /// path for a wrong shape, and a clear refusal for another version.
    public static func read(path: String) throws -> Baseline {
        let bytes = try SourceLoader.readBytes(path: path, maxBytes: maxBytes, whose: "a baseline file")
        return try read(bytes: bytes, file: path)
    }

    /// Reads a baseline already in memory, as if it were the file `file`.
    public static func read(bytes: [UInt8], file: String) throws -> Baseline {
        var syntax = try JSONReader(bytes: bytes, file: file)
        guard try syntax.peekKind() == .object else {
            throw syntax.error("a baseline is a JSON object with version and findings").with(.writeBaseline)
        }
        try syntax.skipValue()
        try syntax.finish()
        let data = Data(bytes)
        let decoder = JSONDecoder()
        let header = try? decoder.decode(Header.self, from: data)
        guard let version = header?.version else {
            throw FormatError("this is not a Tally baseline: it has no whole-number \"version\"", file: file, position: .unknown, path: "version")
        }
        guard version == Baseline.currentVersion else {
            let error = FormatError("this baseline is version \(version), but this Tally reads version \(Baseline.currentVersion) only"
                                    + (version > Baseline.currentVersion ? ": upgrade Tally" : ""),
                                    file: file, position: .unknown, path: "version")
            throw version > Baseline.currentVersion ? error : error.with(.writeBaseline)
        }
        do {
            return try decoder.decode(Baseline.self, from: data)
        } catch let error as DecodingError {
            throw FormatError(describe(error), file: file, position: .unknown, path: path(of: error))
        }
    }

    /// The file's text: pretty printed, keys sorted, ending with a newline.
    public static func encode(_ baseline: Baseline) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and enums only: encoding cannot fail.
        guard let data = try? encoder.encode(baseline) else { return "{\"findings\": [], \"version\": \(Baseline.currentVersion)}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private struct Header: Decodable {
        var version: Int?
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): return "a baseline entry has no \"\(key.stringValue)\""
        case .typeMismatch(let type, _): return "expected \(type == String.self ? "a string" : "\(type)") here"
        case .valueNotFound(let type, _): return "expected \(type == String.self ? "a string" : "\(type)"), found null"
        case .dataCorrupted(let context): return context.debugDescription
        @unknown default: return "the baseline does not have the expected shape"
        }
    }

    private static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context? = switch error {
        case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context
        @unknown default: nil
        }
        var text = ""
        for key in context?.codingPath ?? [] {
            if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
        return text
    }
}
