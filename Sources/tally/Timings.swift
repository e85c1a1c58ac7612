import Foundation

/// Phase timings on standard error when `TALLY_TIMINGS=1`: where a run spends its time.
struct Timings {
    private let enabled = ProcessInfo.processInfo.environment["TALLY_TIMINGS"] == "1"
    private var last = ContinuousClock.now

    mutating func lap(_ phase: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let elapsed = now - last
        last = now
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        Console.err("tally: \(phase) \(String(format: "%.1f", ms)) ms\n")
    }
}
