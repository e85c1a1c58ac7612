import Foundation
import TallyModel

/// Finds the format of a source file and reads it into a `Catalog`.
public enum SourceLoader {
    /// Reads up to `count` bytes of an open file into `buffer`, again when a signal interrupts
    /// the read; 0 at the end of the file.
    static func readChunk(_ descriptor: Int32, into buffer: UnsafeMutablePointer<UInt8>, count: Int, file: String) throws -> Int {
        var got = 0
        repeat {
            got = Foundation.read(descriptor, buffer, count)
        } while got < 0 && errno == EINTR
        if got < 0 {
            throw FormatError("cannot read the file: \(String(cString: strerror(errno)))", file: file, position: .unknown)
        }
        return got
    }

    /// Every reader, in the order detection tries them (the first one claiming an extension is
    /// the fallback for it). Add new formats here.
    public static let readers: [any SourceReader.Type] = [
        TallyCatalogJSONReader.self, TallyCatalogYAMLReader.self, RevenueCatReader.self, AdaptyFallbackReader.self, QonversionProductsReader.self, StoreConfigReader.self, UnityCatalogReader.self, GooglePlayReader.self, AppStoreConnectReader.self, StoreKitReader.self,
        AppStorePackageReader.self, PropertyListReader.self, CSVCatalogReader.self, CatalogReportReader.self, GooglePlayCSVReader.self, MappedReader.self, CodeSourceReader.self,
    ]

    /// The readers that read a run's files together (`ModuleSourceReader`: the app's code).
    public static var moduleReaders: [any ModuleSourceReader.Type] { readers.compactMap { $0 as? any ModuleSourceReader.Type } }

    /// Reads a file, choosing the reader by extension and content (or `format` when given).
    /// A directory is read by the `DirectorySourceReader` that claims it.
    /// Every reader runs on a stack of known size (`ReaderStack`), with its limits within bounds.
    public static func load(path: String, format: SourceFormat? = nil, options: ReadOptions = ReadOptions()) throws -> Catalog {
        let options = options.bounded
        return try ReaderStack.run {
            if let reader = try directoryReader(path: path, format: format) { return try reader.read(directory: path, options: options) }
            // Check the file and read only its head to choose the reader; the reader reads the rest.
            let head = try readBytes(path: path, maxBytes: options.maxBytes, prefix: 4096)
            if head.isEmpty { throw emptyFile(path) }
            return try reader(for: head, file: path, format: format, options: options).read(path: path, options: options)
        }
    }

    /// Reads bytes already in memory, as if they were the file `file`.
    public static func load(bytes: [UInt8], file: String, format: SourceFormat? = nil, options: ReadOptions = ReadOptions()) throws -> Catalog {
        if bytes.isEmpty { throw emptyFile(file) }
        let options = options.bounded
        return try ReaderStack.run {
            try reader(for: bytes, file: file, format: format, options: options).read(bytes: bytes, file: file, options: options)
        }
    }

    private static func reader(for head: [UInt8], file: String, format: SourceFormat?, options: ReadOptions) throws -> any SourceReader.Type {
        if isZip(head) {
            throw FormatError("the file is a zip archive: unzip it first and name the file inside", file: file, position: .unknown)
        }
        if let format {
            guard let chosen = readers.first(where: { $0.format == format }) else {
                throw FormatError("this build of Tally has no reader for the \(format) format", file: file, position: .unknown)
            }
            return chosen
        }
        if options.mapping != nil, MappedReader.claims(bytes: head, file: file) { return MappedReader.self }
        return try detect(bytes: head, file: file)
    }

    /// The reader for a file, from its extension and its first bytes.
    public static func detect(bytes: [UInt8], file: String) throws -> any SourceReader.Type {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let ext = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let byExtension = readers.filter { $0.extensions.contains(ext) }
        // An ending other files share (.txt) is the format's only when its content says so.
        let claimed = byExtension.filter { !$0.sniffedExtensions.contains(ext) || $0.sniff(head, file: file) }
        if byExtension.count == 1, let only = claimed.first { return only }
        if let sniffed = byExtension.first(where: { $0.sniff(head, file: file) }) { return sniffed }
        if let sniffed = readers.first(where: { $0.sniff(head, file: file) }) { return sniffed }
        if let first = claimed.first { return first }
        let known = readers.map { "\($0.format) (\($0.extensions.map { ".\($0)" }.joined(separator: ", ")))" }
        throw FormatError("cannot tell the format of this file; Tally reads: \(known.joined(separator: "; "))",
                          file: file, position: .unknown).with(.nameInputFormat)
    }

    /// Whether bytes start as a zip archive does: a local file header (`PK\u{3}\u{4}`), or the
    /// end record of an empty archive (`PK\u{5}\u{6}`).
    static func isZip(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    private static func emptyFile(_ file: String) -> FormatError {
        FormatError("the file is empty (0 bytes): nothing to read", file: file, position: .unknown)
    }

    /// Reads a regular file whole, refusing directories, special files and files over the limit
    /// (by `stat`, before a byte is read). A symbolic link to a file inside the repository (a
    /// `.storekit` shared between targets) is read under the name given; one that leads out of
    /// it is refused by name (see `SourceLinks`).
    /// - Parameter prefix: read at most this many bytes from the start (the size limit still applies to the whole file).
    /// - Parameter whose: for a limit of a kind of file that the input limit does not set (`a policy
    ///   file`): named in the message, which then offers no remedy.
    public static func readBytes(path: String, maxBytes: Int = ReadOptions().maxBytes, prefix: Int? = nil, whose: String? = nil) throws -> [UInt8] {
        func over(_ size: Int?) -> FormatError {
            let error = FormatError(SizeLimit.message(size: size, limit: maxBytes, whose: whose), file: path, position: .unknown)
            return whose == nil ? error.with(.raiseInputLimit) : error
        }
        try SourceLinks.check(path)
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw FormatError("no such file", file: path, position: .unknown)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw FormatError("this is a directory, not a file", file: path, position: .unknown)
        case S_IFIFO: throw FormatError("not a regular file: a named pipe (Tally reads files whose size it knows)", file: path, position: .unknown)
        default: throw FormatError("not a regular file", file: path, position: .unknown)
        }
        if Int64(status.st_size) > Int64(maxBytes) { throw over(Int(clamping: Int64(status.st_size))) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FormatError("cannot open the file for reading (permissions?)", file: path, position: .unknown)
        }
        defer { try? handle.close() }
        do {
            let data = try (prefix.map { try handle.read(upToCount: $0) } ?? handle.readToEnd()) ?? Data()
            guard data.count <= maxBytes else { throw over(nil) }
            return [UInt8](data)
        } catch let error as FormatError {
            throw error
        } catch {
            throw FormatError("cannot read the file: \(error.localizedDescription)", file: path, position: .unknown)
        }
    }
}
