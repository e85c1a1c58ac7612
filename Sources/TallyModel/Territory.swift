/// An App Store storefront: an ISO 3166-1 alpha-3 code such as `USA`, `JPN`, `COL`.
/// Stored packed in four bytes: catalogues price thousands of products in 175 territories.
public struct Territory: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    @usableFromInline let packed: UInt32

    /// Accepts exactly three ASCII capital letters.
    public init?(_ code: String) {
        var value: UInt32 = 0
        var count = 0
        for byte in code.utf8 {
            guard byte >= 65, byte <= 90, count < 3 else { return nil }
            value = value << 8 | UInt32(byte)
            count += 1
        }
        guard count == 3 else { return nil }
        packed = value
    }

    /// Builds from three bytes already known to be capital letters.
    public init?(bytes a: UInt8, _ b: UInt8, _ c: UInt8) {
        guard (65...90).contains(a), (65...90).contains(b), (65...90).contains(c) else { return nil }
        packed = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    public var code: String {
        String(decoding: [UInt8(packed >> 16 & 0xFF), UInt8(packed >> 8 & 0xFF), UInt8(packed & 0xFF)], as: UTF8.self)
    }

    public var description: String { code }

    /// The currency App Store prices are shown in for this storefront, when Tally knows it.
    public var currency: String? {
        let slot = Territory.slot(packed)
        return slot < Territory.currencyTable.count ? Territory.currencyTable[slot] : nil
    }

    /// A dense index, 0..<17576: for tables and bit sets keyed by territory.
    @inlinable public var slot: Int {
        Int((packed >> 16 & 0xFF) &- 65) &* 676 &+ Int((packed >> 8 & 0xFF) &- 65) &* 26 &+ Int((packed & 0xFF) &- 65)
    }

    /// 0..<17576 for three capital letters.
    private static func slot(_ packed: UInt32) -> Int {
        Int((packed >> 16 & 0xFF) - 65) * 676 + Int((packed >> 8 & 0xFF) - 65) * 26 + Int((packed & 0xFF) - 65)
    }

    /// The packed ISO 4217 code of `currency` (0 when unknown), for building `Money` without strings.
    var currencyCode: UInt32 {
        let slot = Territory.slot(packed)
        return slot < Territory.currencyCodes.count ? Territory.currencyCodes[slot] : 0
    }

    private static let currencyCodes: [UInt32] = currencyTable.map { $0.map(Money.pack) ?? 0 }

    /// Currencies indexed by `slot`, so looking one up costs no hashing.
    private static let currencyTable: [String?] = {
        var table = [String?](repeating: nil, count: 26 * 26 * 26)
        for (code, currency) in currencies {
            if let territory = Territory(code) { table[slot(territory.packed)] = currency }
        }
        return table
    }()

    public static let usa = Territory("USA")!

    /// The message for text that is not a storefront code, the same wherever a reader meets one.
    public static func notAStorefront(_ text: String) -> String {
        "\"\(text)\" is not an App Store storefront code (ISO 3166-1 alpha-3 in capitals, like USA or JPN)"
    }

    public static func < (lhs: Territory, rhs: Territory) -> Bool { lhs.packed < rhs.packed }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let territory = Territory(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a storefront code: \(text)")
        }
        self = territory
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

extension Territory {
    private static let euroArea = [
        "AUT", "BEL", "CYP", "DEU", "ESP", "EST", "FIN", "FRA", "GRC", "HRV", "IRL", "ITA",
        "LTU", "LUX", "LVA", "MLT", "NLD", "PRT", "SVK", "SVN",
    ]

    /// Storefront → currency for the App Store storefronts with their own price currency.
    /// Storefronts not listed here are reported without a currency rather than guessed.
    static let currencies: [String: String] = {
        var table: [String: String] = [
            "USA": "USD", "GBR": "GBP", "CAN": "CAD", "AUS": "AUD", "NZL": "NZD", "JPN": "JPY",
            "CHN": "CNY", "HKG": "HKD", "TWN": "TWD", "KOR": "KRW", "SGP": "SGD", "MYS": "MYR",
            "THA": "THB", "IDN": "IDR", "PHL": "PHP", "VNM": "VND", "IND": "INR", "PAK": "PKR",
            "KAZ": "KZT", "RUS": "RUB", "TUR": "TRY", "ISR": "ILS", "SAU": "SAR", "ARE": "AED",
            "QAT": "QAR", "EGY": "EGP", "NGA": "NGN", "ZAF": "ZAR", "TZA": "TZS", "BRA": "BRL",
            "MEX": "MXN", "COL": "COP", "CHL": "CLP", "PER": "PEN", "CHE": "CHF", "NOR": "NOK",
            "SWE": "SEK", "DNK": "DKK", "POL": "PLN", "CZE": "CZK", "HUN": "HUF", "ROU": "RON",
            "BGR": "BGN", "ECU": "USD", "SLV": "USD", "PAN": "USD",
        ]
        for code in euroArea { table[code] = "EUR" }
        return table
    }()
}
