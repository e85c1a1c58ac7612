/// A file over a size limit, in one wording wherever a size is checked (a file, a blob at a
/// revision, a key file): its size, the limit, and whose limit it is.
public enum SizeLimit {
    static let megabyte = 1_048_576

    /// `5 MB`; in bytes (`1153434 bytes`) when whole megabytes would not tell it from `limit`.
    public static func size(_ bytes: Int, beside limit: Int) -> String {
        bytes / megabyte > limit / megabyte ? "\(bytes / megabyte) MB" : "\(bytes) bytes"
    }

    /// `4 MB`, or the bytes of a limit that is not whole megabytes.
    public static func limit(_ bytes: Int) -> String {
        bytes % megabyte == 0 ? "\(bytes / megabyte) MB" : "\(bytes) bytes"
    }

    /// `the file is 5 MB, over the 4 MB input limit` (`size` known), or `the file is over the 4 MB
    /// input limit`; `whose` names a limit of a kind of file (`a policy file`), which no option raises.
    public static func message(size: Int?, limit: Int, whose: String? = nil) -> String {
        let over = whose.map { "over the \(Self.limit(limit)) that \($0) may hold (a fixed limit)" } ?? "over the \(Self.limit(limit)) input limit"
        guard let size else { return "the file is \(over)" }
        return "the file is \(Self.size(size, beside: limit)), \(over)"
    }
}
