import Foundation

/// The stack every reader runs on, so that how deep a document may nest does not depend on which
/// thread happens to read it (the main thread's 8 MB, a dispatch worker's, a `ulimit -s`): a
/// thread of its own with a stack of `bytes`, started for each read and waited for.
///
/// Reading a tree (`DocNode`), walking it and freeing it take stack in proportion to its depth:
/// on a debug build (the largest frames) about 1.9 KB a level for nested objects of a RevenueCat
/// page, 1.5 KB for arrays, 1.4 KB for an Adapty placement; 64 MB held 30,000 levels of objects
/// and not 36,000. `ReadOptions.maxDepthLimit` (10,000) uses a third of it (docs/robustness.md).
public enum ReaderStack {
    /// 64 MB: address space reserved per read, of which only what a read touches is memory.
    public static let bytes = 64 << 20
    /// 1 GB for the code source: swift-syntax's parser and visitors recurse once per level of an
    /// expression (a 50,000-long `a.b.b…` chain, 1,500 nested generic arguments), with frames of
    /// up to a few kilobytes in a debug build. Only address space: a read touches what it uses.
    public static let codeBytes = 1 << 30

    private static let key = "tally.reader-stack"

    /// Runs `body` on a reader thread with a stack of `stack` bytes and returns what it returns or
    /// throws; on a reader thread with at least that stack already (a reader that reads another
    /// source), runs it in place.
    public static func run<T>(stack: Int = bytes, _ body: () throws -> T) throws -> T {
        if let current = Thread.current.threadDictionary[key] as? Int, current >= stack { return try body() }
        return try withoutActuallyEscaping(body) { escaping in
            let job = Job(escaping)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                Thread.current.threadDictionary[key] = stack
                job.run()
                done.signal()
            }
            thread.stackSize = stack
            thread.start()
            done.wait()
            return try job.result()
        }
    }

    /// The body and its outcome, handed between the caller and the reader thread; the caller
    /// waits for the thread, so only one of them touches it at a time. The body is let go as soon
    /// as it has run: the thread may outlive the wait, and the body must not.
    private final class Job<T>: @unchecked Sendable {
        private var body: (() throws -> T)?
        private var outcome: Result<T, any Error>?

        init(_ body: @escaping () throws -> T) { self.body = body }

        func run() {
            guard let body else { return }
            self.body = nil
            outcome = Result { try body() }
        }

        func result() throws -> T {
            guard let outcome else { throw CancellationError() }
            return try outcome.get()
        }
    }
}
