import Foundation
import TallyModel

/// The bytes of a CSV file being read: all of them (read from memory), or a window that a file
/// is read into a chunk at a time. A plain pointer and count, so the scanning loops run without
/// copy-on-write or exclusivity checks.
final class CSVWindow {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    private let descriptor: Int32?
    private let handle: FileHandle?
    private let chunkSize: Int
    private let file: String
    /// Every byte of the input is in the window (or has been).
    private(set) var atEnd: Bool

    /// The bytes of a file already in memory.
    init(bytes: [UInt8], file: String) {
        capacity = Swift.max(bytes.count, 1)
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        bytes.withUnsafeBufferPointer { buffer in
            if let source = buffer.baseAddress { base.initialize(from: source, count: buffer.count) }
        }
        self.base = base
        count = bytes.count
        descriptor = nil
        handle = nil
        chunkSize = 0
        self.file = file
        atEnd = true
    }

    /// A file read a chunk at a time.
    init(path: String, file: String, chunkSize: Int = 1 << 20) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FormatError("cannot open the file for reading (permissions?)", file: file, position: .unknown)
        }
        self.handle = handle
        descriptor = handle.fileDescriptor
        self.chunkSize = Swift.max(chunkSize, 1)
        capacity = self.chunkSize * 2
        base = .allocate(capacity: capacity)
        self.file = file
        atEnd = false
        _ = try refill(dropping: 0)
    }

    deinit {
        base.deallocate()
        try? handle?.close()
    }

    /// Drops the bytes before `offset` (the caller has finished with them) and reads the next
    /// chunk after what is left; false when the file has no more bytes.
    func refill(dropping offset: Int) throws -> Bool {
        guard !atEnd, let descriptor else { return false }
        if offset > 0 {
            count -= offset
            if count > 0 { base.update(from: base + offset, count: count) }
        }
        if capacity - count < chunkSize {
            // A record longer than the window: the window grows to hold it (bounded by the largest record).
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(capacity * 2, count + chunkSize))
            larger.initialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity = Swift.max(capacity * 2, count + chunkSize)
        }
        let got = try SourceLoader.readChunk(descriptor, into: base + count, count: capacity - count, file: file)
        if got == 0 {
            atEnd = true
            return false
        }
        count += got
        return true
    }
}
