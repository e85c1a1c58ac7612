import TallyCheck

/// Plain-text pieces shared by the reporters that write findings as lines.
enum FindingText {
    /// The heading findings without a product are grouped under.
    static let noProduct = "(source)"

    /// `configuration: configs/App.storekit:42:7  4.99 USD`; the value is left out when unknown.
    static func sideLine(_ side: FindingSide) -> String {
        var line = "\(side.role): \(side.location)"
        if let value = side.value { line += "  \(value)" }
        return line
    }

    /// Both sides, then the hint: the lines shown under a finding's message.
    static func detailLines(_ finding: Finding) -> [String] {
        [finding.left, finding.right].compactMap { $0 }.map(sideLine) + (finding.hint.map { ["hint: \($0)"] } ?? [])
    }

    /// `1 error`, `3 errors`.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// Replaces control characters (other than those kept) with a visible `\u{1B}`, so text read
    /// from a user's file cannot move the cursor or recolour a terminal.
    static func visible(_ text: String, keeping kept: Set<Unicode.Scalar> = ["\t"]) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !kept.contains($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !kept.contains(scalar) {
                out.append(contentsOf: escaped(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// C0 controls, DEL and C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `\u{1B}`.
    static func escaped(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }
}

