import TallyCheck
import TallyModel

/// A finding's message and values in words: where a finding's typed parts become text. Each
/// reporter renders the parts through it: the sentence for people (text, GitHub, JUnit,
/// TallyTesting), Markdown with values in code spans, escaped HTML, SARIF's `{0}` template and
/// its arguments, the JSON report's typed parts. Money, periods, territories and offers become
/// words in `PeopleText` (and amounts and periods for machines in `MachineText`).
public enum MessageText {
    /// A value in words, as the sentence for people shows it: `com.example.pro`, `10.90 BRL`,
    /// `P1M`, `DEU, GBR`, `free trial of 1 week`.
    public static func words(_ argument: FindingMessage.Argument) -> String {
        switch argument {
        case .product(let text), .source(let text), .name(let text): text
        case .money(let money): PeopleText.money(money)
        case .period(let period): PeopleText.period(period)
        case .duration(let period, let days): PeopleText.duration(period, days: days)
        case .territory(let territory): territory.code
        case .territories(let territories): PeopleText.territories(territories)
        case .count(let count): String(count)
        case .offer(let offer): PeopleText.offer(offer)
        }
    }

    /// A side's value in words: `4.99 USD`, `P1M`, `DEU, GBR, JPN`, `free trial of 1 week`.
    public static func words(_ value: FindingValue) -> String {
        switch value {
        case .money(let money): PeopleText.money(money)
        case .period(let period): PeopleText.period(period)
        case .territories(let territories): PeopleText.territories(territories)
        case .offer(let offer): PeopleText.offer(offer)
        case .text(let text): text
        }
    }

    /// The message with each part rendered: words by `text`, values by `value`.
    static func render(_ message: FindingMessage, text: (String) -> String, value: (FindingMessage.Argument) -> String) -> String {
        message.parts.map { part in
            switch part {
            case .text(let words): text(words)
            case .value(let argument): value(argument)
            }
        }.joined()
    }

    /// The sentence for people: `com.example.coins costs 10.90 USD in USA in the configuration …`.
    public static func plain(_ message: FindingMessage) -> String {
        render(message, text: { $0 }, value: { words($0) })
    }

    /// The sentence in HTML: every part escaped.
    static func html(_ message: FindingMessage) -> String {
        render(message, text: HTMLPage.escape, value: { HTMLPage.escape(words($0)) })
    }

    /// The message with `{0}`, `{1}`, … where its values stand (literal braces doubled, as SARIF
    /// 2.1.0 §3.11.5 writes them) and the values' words in that order.
    public static func template(_ message: FindingMessage) -> (text: String, arguments: [String]) {
        var text = ""
        var arguments: [String] = []
        for part in message.parts {
            switch part {
            case .text(let words):
                text += words.replacingOccurrences(of: "{", with: "{{").replacingOccurrences(of: "}", with: "}}")
            case .value(let argument):
                text += "{\(arguments.count)}"
                arguments.append(words(argument))
            }
        }
        return (text, arguments)
    }

    /// `configuration: configs/App.storekit:42:7  4.99 USD`; the value is left out when unknown.
    public static func sideLine(_ side: FindingSide) -> String {
        "\(side.label): \(side.location)" + (side.value.map { "  \(words($0))" } ?? "")
    }

    /// Both sides, then the hint: the lines every text report (and `TallyAssert`) shows under
    /// the message.
    public static func detailLines(_ finding: Finding) -> [String] {
        [finding.left, finding.right].compactMap { side in side.map { sideLine($0) } } + (finding.hint.map { ["hint: \($0)"] } ?? [])
    }
}

extension Finding {
    /// The sentence for people (`MessageText.plain`).
    public var message: String { MessageText.plain(typedMessage) }

    /// Both sides, then the hint (`MessageText.detailLines`).
    public var detailLines: [String] { MessageText.detailLines(self) }
}

extension FindingMessage {
    /// The sentence for people (`MessageText.plain`).
    public var text: String { MessageText.plain(self) }

    /// SARIF's template and arguments (`MessageText.template`).
    public var template: (text: String, arguments: [String]) { MessageText.template(self) }
}

extension FindingSide {
    /// `configuration: configs/App.storekit:42:7  4.99 USD` (`MessageText.sideLine`).
    public var line: String { MessageText.sideLine(self) }
}

extension FindingValue {
    /// The value in words (`MessageText.words`).
    public var words: String { MessageText.words(self) }
}
