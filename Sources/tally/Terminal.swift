import Foundation

/// Whether output may be coloured.
enum Terminal {
    /// NO_COLOR (https://no-color.org) set to a non-empty value: never colour. Set but empty, it
    /// asks nothing.
    static var noColorRequested: Bool {
        !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Colour for standard output: a terminal, without --no-color or NO_COLOR.
    static func colorsStandardOutput(noColorFlag: Bool) -> Bool {
        !noColorFlag && !noColorRequested && isatty(STDOUT_FILENO) == 1
    }
}
