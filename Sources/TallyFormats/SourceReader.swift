import TallyModel

/// Settings every reader receives. Readers add the options they need here.
public struct ReadOptions: Sendable {
    /// Files larger than this are refused before they are read.
    public var maxBytes: Int
    /// Nesting deeper than this is an error, not a stack overflow.
    public var maxDepth: Int
    /// How to read server files of their own shape (`--mapping`); JSON and YAML files that are
    /// not `tally-catalog/1` are read through it.
    public var mapping: TallyMapping?
    /// Amounts for App Store price tiers (`--price-tiers`): an App Store package's tiers become
    /// prices in the table's territories. Without it, tiers stay tiers.
    public var priceTiers: PriceTierTable? = nil
    /// Product states to count besides the ones for sale (`--include-state`), as
    /// `ProductStates.normalise` writes them; `ALL` counts every product.
    public var includeStates: Set<String> = []
    /// Where a Google Play developer's default price stands (`--play-default-territory`): a Play
    /// Console CSV row with Auto Fill Prices true, and a legacy `InAppProduct` with a
    /// `defaultPrice` and no `prices`, give one price in the developer's default currency, for
    /// no region in particular; it is read as this territory's price. Without it, that price is
    /// not taken (and is named as a dropped value).
    public var playDefaultTerritory: Territory? = nil
    /// The Google Play developer's default currency (`--play-default-currency`, ISO 4217): the
    /// currency of a Play Console CSV's auto-filled price. Nil: the default territory's currency.
    public var playDefaultCurrency: String? = nil
    /// The app whose rows an App Store Connect catalog report gives (`--report-app`): its
    /// `APP_NAME` (any case) or `APP_APPLE_ID`. Nil reads every row, and refuses a report of several apps.
    public var reportApp: String? = nil
    /// The policy's `code: {ids: REGEX}`: in code sources, every string literal the whole pattern
    /// matches is a product ID asked for, for apps that build their IDs another way.
    public var codeIDPattern: String? = nil
    /// Today, as `YYYY-MM-DD` in UTC: decides which dated prices, tiers and offers are in force.
    public var today: String = DayText.today()

    public init(maxBytes: Int = 512 * 1024 * 1024, maxDepth: Int = 256, mapping: TallyMapping? = nil) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.mapping = mapping
    }

    /// The largest `maxBytes` a read takes: 1 TB (a file is read into memory whole).
    public static let maxBytesLimit = 1 << 40
    /// The deepest `maxDepth` a read takes: the nesting whose deepest recursion (building a tree
    /// of the document, walking it, freeing it) fits the stack readers run on, with a margin;
    /// measured in docs/robustness.md.
    public static let maxDepthLimit = 10_000

    /// These options with `maxBytes` and `maxDepth` within 1 and their limits.
    public var bounded: ReadOptions {
        var options = self
        options.maxBytes = min(max(maxBytes, 1), Self.maxBytesLimit)
        options.maxDepth = min(max(maxDepth, 1), Self.maxDepthLimit)
        return options
    }
}

/// One input format: how to recognise it and how to read it into a `Catalog`.
/// Register a new reader in `SourceLoader.readers`.
public protocol SourceReader: Sendable {
    static var format: SourceFormat { get }
    /// File name endings (lower-case, without the dot) this format uses.
    static var extensions: [String] { get }
    /// Endings among `extensions` that files of other kinds share (`.txt`): such a file is a
    /// source only when `sniff` recognises it, even in `catalog/` (notes stay notes).
    static var sniffedExtensions: [String] { get }
    /// Whether the first bytes of a file look like this format (used when the extension is
    /// shared with other formats, or unknown).
    static func sniff(_ head: String, file: String) -> Bool
    static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog
    /// Whether a whole file (up to `SourceLoader.contentSniffLimit` bytes) holds products, for
    /// formats whose extension is shared with files that are not product sources (`.plist`:
    /// Info.plist, entitlements); nil (the default) decides by the extension and `sniff` alone.
    static func holdsProducts(_ bytes: [UInt8], file: String) -> Bool?
    /// Whether `holdsProducts` decides (so the whole file is read to find out).
    static var decidedByContent: Bool { get }
    /// Reads a file from disk. The default reads it whole and calls `read(bytes:file:options:)`;
    /// readers that can stream (JSON) override it to hold only a window of the file.
    static func read(path: String, options: ReadOptions) throws -> Catalog
    /// The reader's fuzz targets (`TallyFuzz --list`, which fuzz/run.sh and the replay test run).
    /// The default is one named by the format, its input named by the first extension: a new
    /// format is fuzzed without a line elsewhere.
    static var fuzzTargets: [FuzzTarget] { get }
}

/// A reader whose files of one run are one source, read together (the app's code: a Swift
/// constant in one file resolves a call in another). The run reads every file such a reader
/// claims at once (`SourceSet.read`), standing where the first of them stood; a file at a
/// revision, through a mapping or under a raw name is read alone.
public protocol ModuleSourceReader: SourceReader {
    /// Whether the reader takes a file of the run into its module (by its name).
    static func takes(_ path: String) -> Bool
    /// Reads the files as one source, named by `moduleName`.
    static func read(files: [(path: String, bytes: [UInt8])], name: String, options: ReadOptions) throws -> Catalog
    /// The source's name for these files (their common folder, or the file when alone).
    static func moduleName(_ paths: [String]) -> String
}

/// A fuzz target of a reader: its name (`TallyFuzz NAME FILE`, the seed `case` in fuzz/run.sh,
/// the `NAME-what` files of the replay corpus) and the file name its input pretends to have (some
/// readers look at the name: `ios_fallback.json`, the language of `Store.m`).
public struct FuzzTarget: Sendable, Hashable {
    public var name: String
    public var file: String

    public init(_ name: String, file: String) {
        self.name = name
        self.file = file
    }
}

extension SourceReader {
    public static var sniffedExtensions: [String] { [] }

    public static func holdsProducts(_ bytes: [UInt8], file: String) -> Bool? { nil }
    public static var decidedByContent: Bool { false }

    public static func read(path: String, options: ReadOptions) throws -> Catalog {
        try read(bytes: SourceLoader.readBytes(path: path, maxBytes: options.maxBytes), file: path, options: options)
    }

    public static var fuzzTargets: [FuzzTarget] {
        [FuzzTarget(format.rawValue, file: "input.\(extensions.first ?? "txt")")]
    }
}
