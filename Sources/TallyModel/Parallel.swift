import Dispatch
import Synchronization

/// Runs independent pieces of work on all cores and returns their results in input order.
public enum Parallel {
    public static func map<T: Sendable, R: Sendable>(_ items: [T], _ body: @Sendable (T) throws -> R) throws -> [R] {
        if items.count <= 1 { return try items.map(body) }
        let results = Mutex<[Result<R, any Error>?]>(Array(repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let outcome = Result { try body(items[index]) }
            results.withLock { $0[index] = outcome }
        }
        return try results.withLock { slots in try slots.compactMap { try $0?.get() } }
    }

    /// The same for work that cannot fail.
    public static func map<T: Sendable, R: Sendable>(_ items: [T], _ body: @Sendable (T) -> R) -> [R] {
        if items.count <= 1 { return items.map(body) }
        let results = Mutex<[R?]>(Array(repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let outcome = body(items[index])
            results.withLock { $0[index] = outcome }
        }
        return results.withLock { slots in slots.compactMap { $0 } }
    }
}
