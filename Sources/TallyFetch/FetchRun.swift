import Foundation
import TallyModel

/// How a store's fetch ended, for the command to say and exit with.
public enum FetchOutcome: Sendable {
    /// The snapshot is in place.
    case fetched(SnapshotManifest)
    /// The fetch failed; the output folder was left as it was. The message is safe to print.
    case failed(String)
    /// SIGINT or SIGTERM stopped the fetch and its staging folder was removed. `forced`: it did
    /// not stop within two seconds (or a second signal came), so it was abandoned, not awaited.
    case interrupted(signal: Int32, forced: Bool)

    /// What a fetch that did not end in a snapshot says, for a snapshot folder `output`: `fetch
    /// failed: …` and that the folder was left as it was, or that it was interrupted. Nothing for
    /// a fetch that succeeded.
    public func diagnostics(output: String) -> [Diagnostic] {
        switch self {
        case .fetched:
            return []
        case .failed(let message):
            return [Diagnostic(.error, "fetch failed: \(message)"), Diagnostic(.note, "\(output) was left as it was")]
        case .interrupted(let signal, let forced):
            return [Diagnostic(.error, forced
                ? "fetch interrupted; the staging folder was removed"
                : "fetch interrupted (\(signal == SIGINT ? "SIGINT" : "SIGTERM")); \(output) was left as it was")]
        }
    }
}

/// One store's fetch as a run, whatever the store: its setup checked before anything is sent, its
/// work started as a task, SIGINT and SIGTERM turned into cancellation, staging folders removed
/// whenever it does not end in a snapshot, and every failure turned into a `FetchOutcome`. The
/// command renders the events and the outcome; it neither waits on threads nor handles signals.
public enum FetchRun {
    /// How long a cancelled fetch gets to stop before it is abandoned.
    public static let grace: Duration = .seconds(2)

    /// A fetch's setup before anything is fetched: the `--api-url` as a URL, then what `body`
    /// makes of it (the fetcher, the credentials, the settings): a `FetchError` when it cannot be.
    public static func setUp<T>(apiURL: String, _ body: (URL) throws -> T) throws -> T {
        guard let url = URL(string: apiURL) else { throw FetchError.usage("--api-url \(APIURL.shown(apiURL)) is not a URL") }
        return try body(url)
    }

    /// Runs `body` with `progress` until it ends or a signal stops it.
    public static func run(progress: @escaping FetchProgress,
                           _ body: @escaping @Sendable (@escaping FetchProgress) async throws -> SnapshotManifest) async -> FetchOutcome {
        let ending = Ending()
        let result: Result<SnapshotManifest, Error>? = await withCheckedContinuation { continuation in
            ending.wait(with: continuation)
            let task = Task {
                do { ending.finish(.success(try await body(progress))) } catch { ending.finish(.failure(error)) }
            }
            ending.listen { [grace] first in
                guard first else { return ending.finish(nil) }
                task.cancel()
                let (seconds, attoseconds) = grace.components
                DispatchQueue.global().asyncAfter(deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18) { ending.finish(nil) }
            }
        }
        ending.stopListening()
        if let signal = ending.signal {
            StagingFolders.shared.removeAll()
            return .interrupted(signal: signal, forced: result == nil)
        }
        switch result {
        case .success(let manifest): return .fetched(manifest)
        case .failure(let error as FetchError): return .failed(error.description)
        case .failure(let error): return .failed(ServerText.clean("\(error)", limit: 1_000))
        case nil: return .failed("the fetch ended without a result")
        }
    }

    /// The run's one way out: the first of the task's result, a second signal or the grace's end
    /// resumes the waiting command; the rest are ignored.
    private final class Ending: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Result<SnapshotManifest, Error>?, Never>?
        private var received: Int32?
        private var sources: [DispatchSourceSignal] = []

        var signal: Int32? { lock.withLock { received } }

        func wait(with continuation: CheckedContinuation<Result<SnapshotManifest, Error>?, Never>) {
            lock.withLock { self.continuation = continuation }
        }

        func finish(_ result: Result<SnapshotManifest, Error>?) {
            let waiting = lock.withLock { () -> CheckedContinuation<Result<SnapshotManifest, Error>?, Never>? in
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume(returning: result)
        }

        /// Calls `handler(true)` on the first SIGINT or SIGTERM, `handler(false)` on any later one.
        func listen(_ handler: @escaping @Sendable (Bool) -> Void) {
            let made = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
                Foundation.signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in
                    let first = lock.withLock { () -> Bool in
                        guard received == nil else { return false }
                        received = number
                        return true
                    }
                    handler(first)
                }
                source.resume()
                return source
            }
            lock.withLock { sources = made }
        }

        func stopListening() {
            lock.withLock { sources }.forEach { $0.cancel() }
        }
    }
}
