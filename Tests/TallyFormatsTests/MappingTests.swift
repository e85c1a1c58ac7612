import Foundation
import Testing
import TallyFormats
import TallyModel

@Suite struct MappingTests {
    static func mapping(_ text: String, as name: String = "tally-mapping.yml") throws -> TallyMapping {
        try TallyMapping.parse(bytes: Array(text.utf8), file: name)
    }

    static func mappingError(_ text: String) -> FormatError? {
        do {
            _ = try mapping(text)
            return nil
        } catch let error as FormatError {
            return error
        } catch {
            return FormatError("unexpected error type: \(error)", file: "tally-mapping.yml", position: .unknown)
        }
    }

    static func read(_ server: String, as name: String = "server.json", mapping text: String) throws -> Catalog {
        try SourceLoader.load(bytes: Array(server.utf8), file: name, options: ReadOptions(mapping: try mapping(text)))
    }

    static func readError(_ server: String, as name: String = "server.json", mapping text: String) throws -> FormatError? {
        let options = ReadOptions(mapping: try mapping(text))
        do {
            _ = try SourceLoader.load(bytes: Array(server.utf8), file: name, options: options)
            return nil
        } catch let error as FormatError {
            return error
        }
    }

    // MARK: - The shipped example

    @Test func theShippedExampleReadsEveryProductOfTheServerFile() throws {
        let mapping = try TallyMapping.load(path: Fixtures.repo("examples/server/tally-mapping.yml"))
        let catalog = try SourceLoader.load(path: Fixtures.repo("examples/server/products.json"), options: ReadOptions(mapping: mapping))
        #expect(catalog.format == .mapped)
        #expect(catalog.products.count == 15)
        #expect(catalog.knownFields.contains(.promotionalOffers) == false)
        let tea = try #require(catalog.productsByID["com.calmly.app.tip.tea"])
        #expect(tea.kind == .consumable)
        #expect(tea.price(in: .usa)?.money == Money(amount: DecimalText.parse("2.99") ?? 0, currency: "USD"))
        #expect(tea.price(in: Territory("JPN") ?? .usa).map { Money.plain($0.money.amount) } == "450", "yen have no minor units")
        let monthly = try #require(catalog.productsByID["com.calmly.app.plus.monthly"])
        #expect(monthly.group == GroupMembership(groupID: "calmly_plus", level: 3))
        #expect(monthly.period == Period(iso8601: "P1M"))
        #expect(monthly.introductoryOffer?.mode == .payAsYouGo)
        #expect(monthly.introductoryOffer?.periods == 3)
        #expect(monthly.introductoryOffer?.price.map { Money.plain($0.amount) } == "1.99")
        #expect(monthly.position(of: .period).isKnown, "values are located by the server file's own lines")
        #expect(catalog.issues.isEmpty)
    }

    // MARK: - Shapes

    @Test func productsKeyedByIDWithAPriceMapAndAParentGroup() throws {
        let server = """
        catalog:
          one_time:
            com.a.coins: {label: Coins, kind: consumable, prices: {USA: "0.99", JPN: 160}}
          tiers:
            - name: pro
              plans:
                com.a.pro.monthly: {every: month, prices: {USA: "4.99"}, rank: 2}
                com.a.pro.yearly: {every: year, prices: {USA: "39.99"}, rank: 1}
        """
        let catalog = try Self.read(server, as: "server.yaml", mapping: """
        format: tally-mapping/1
        products:
          - catalog.one_time.*
          - {at: "catalog.tiers[*].plans.*", kind: auto-renewable-subscription}
        fields:
          id: "@key"
          kind: kind
          name: label
          prices: prices
          period: every
          group: ^^.name
          level: rank
        values:
          period: {month: P1M, year: P1Y}
        """)
        #expect(catalog.products.map(\.id) == ["com.a.coins", "com.a.pro.monthly", "com.a.pro.yearly"])
        #expect(catalog.products[0].prices.map(\.territory.code) == ["USA", "JPN"])
        #expect(catalog.products[0].position(of: .prices) == Position(line: 3, column: 59))
        #expect(catalog.products[2].group == GroupMembership(groupID: "pro", level: 1))
        #expect(catalog.products[2].period == Period(iso8601: "P1Y"))
        #expect(catalog.knownFields == [.id, .kind, .referenceName, .prices, .period, .group, .level])
    }

    @Test func aFlatOfferAndASinglePriceInTheDefaultTerritory() throws {
        let catalog = try Self.read("""
        [{"id": "com.a.pro", "price": "4.99", "period": "P1M", "trial_type": "free-trial", "trial_length": "P1W"},
         {"id": "com.a.plus", "price": 9.99, "period": "P1M", "trial_type": null}]
        """, mapping: """
        format: tally-mapping/1
        default_territory: GBR
        products: "[*]"
        fields:
          id: id
          price: price
          period: period
          introductory_offer: {type: trial_type, period: trial_length}
        """)
        #expect(catalog.defaultTerritory == Territory("GBR"))
        #expect(catalog.products.map { $0.price(in: Territory("GBR") ?? .usa).map { Money.plain($0.money.amount) } } == ["4.99", "9.99"])
        #expect(catalog.products[0].introductoryOffer?.period == Period(iso8601: "P1W"))
        #expect(catalog.products[1].introductoryOffer == nil)
        #expect(catalog.products.allSatisfy { $0.kind == .autoRenewableSubscription }, "a product with a period is a subscription")
        #expect(catalog.knownFields.contains(.kind) == false)
    }

    // MARK: - Errors in the mapping file

    @Test(arguments: [
        ("format: tally-mapping/1\nproducts: items[*]\nfields: {id: sku}\nprodcts: x\n", 4, "unknown key \"prodcts\" in the mapping; did you mean \"products\"?"),
        ("format: tally-mapping/1\nproducts: items[*]\nfields:\n  id: sku\n  perod: p\n", 5, "unknown key \"perod\" in fields; did you mean \"period\"?"),
        ("format: tally-mapping/1\nproducts: items[*\nfields: {id: sku}\n", 2, "a '[' without its ']'"),
        ("format: tally-mapping/1\nproducts: items[*]\nfields: {id: \"skus[*]\"}\n", 3, "wildcards"),
        ("format: tally-mapping/1\nproducts: items[*]\nfields: {id: sku}\nvalues:\n  kind: {sub: subscription}\n", 5, "\"sub\" maps to \"subscription\""),
        ("format: tally-mapping/1\nproducts: items[*]\nfields: {id: sku}\nvalues:\n  period:\n    monthly: 1M\n", 6, "an ISO 8601 period"),
        ("format: tally-mapping/2\nproducts: items[*]\nfields: {id: sku}\n", 1, "unsupported mapping format"),
        ("products: items[*]\nfields: {id: sku}\n", 1, "missing \"format: tally-mapping/1\""),
        ("format: tally-mapping/1\nproducts: items[*]\nfields: {kind: type}\n", 3, "fields has no id"),
        ("format: tally-mapping/1\nproducts: items[*]\n", 1, "the mapping has no fields"),
        ("format: tally-mapping/1\nproducts: items[*]\namounts: cents\nfields: {id: sku}\n", 3, "minor-units"),
        ("format: tally-mapping/1\nproducts: items[*]\nfields: {id: sku, price: p, prices: ps}\n", 3, "both price and prices"),
    ])
    func aBadMappingIsAnErrorWithItsLine(_ text: String, _ line: Int, _ message: String) throws {
        let error = try #require(Self.mappingError(text))
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.line == line, "\(error)")
        #expect(error.location.file == "tally-mapping.yml")
    }

    // MARK: - Errors in the server file

    static let simple = """
    format: tally-mapping/1
    products: data.items[*]
    fields:
      id: sku
      kind: type
      prices: {at: pricing, territory: country, amount: cents}
      period: billing
    amounts: minor-units
    values:
      kind: {sub: auto-renewable-subscription}
    """

    @Test func aServerWordTheMappingDoesNotKnowIsAnErrorAtItsLine() throws {
        let error = try #require(try Self.readError("""
        {"data": {"items": [
          {"sku": "com.a.one", "type": "sub", "pricing": []},
          {"sku": "com.a.two", "type": "bundle", "pricing": []}
        ]}}
        """, mapping: Self.simple))
        #expect(error.message.contains("\"bundle\" is not a product kind Tally knows: add it to values.kind in tally-mapping.yml"), "\(error)")
        #expect(error.location.file == "server.json")
        #expect(error.location.line == 3)
        #expect(error.location.column == 32)
    }

    @Test func aProductsPathThatMatchesNothingPointsAtTheMapping() throws {
        let error = try #require(try Self.readError("{\"products\": []}", mapping: Self.simple))
        #expect(error.location.file == "tally-mapping.yml")
        #expect(error.location.line == 2)
        #expect(error.message.contains("matches nothing in server.json"), "\(error)")
    }

    @Test(arguments: [
        ("{\"data\": {\"items\": [{\"type\": \"sub\"}]}}", "has no ID at \"sku\""),
        ("{\"data\": {\"items\": [\"a\"]}}", "expected a product (an object)"),
        ("{\"data\": {\"items\": [{\"sku\": \"a\", \"type\": \"sub\", \"pricing\": 5}]}}", "expected prices"),
    ])
    func aServerFileThatDoesNotFitIsAnErrorNamingWhere(_ server: String, _ message: String) throws {
        let error = try #require(try Self.readError(server, mapping: Self.simple))
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.file == "server.json")
        #expect(error.location.line == 1)
    }

    @Test func unreadableAmountsAndPeriodsBecomeLintIssues() throws {
        let catalog = try Self.read("""
        {"data": {"items": [{"sku": "a", "type": "sub", "billing": "fortnightly", "pricing": [{"country": "USA", "cents": "4,99"}]}]}}
        """, mapping: Self.simple)
        #expect(catalog.issues.map(\.rule.rawValue).sorted() == ["invalid-period", "invalid-price"])
        #expect(catalog.issues.allSatisfy { $0.position.isKnown })
    }

    /// A value the mapping cannot read drops that value (named, located), never the file.
    @Test(arguments: [
        ("{\"data\": {\"items\": [{\"sku\": \"a\", \"type\": \"sub\", \"pricing\": [{\"country\": \"US\", \"cents\": 1}, {\"country\": \"GBR\", \"cents\": 2}]}]}}", "map it in values.territory"),
        ("{\"data\": {\"items\": [{\"sku\": \"a\", \"type\": \"sub\", \"pricing\": [{\"cents\": 1}, {\"country\": \"GBR\", \"cents\": 2}]}]}}", "has no territory at \"country\""),
        ("{\"data\": {\"items\": [{\"sku\": \"a\", \"type\": \"sub\", \"pricing\": [{\"country\": \"USA\"}, {\"country\": \"GBR\", \"cents\": 2}]}]}}", "has no amount at \"cents\""),
    ])
    func aPriceTheMappingCannotReadIsDroppedNotTheFile(_ server: String, _ message: String) throws {
        let catalog = try Self.read(server, mapping: Self.simple)
        #expect(catalog.products.map(\.id) == ["a"])
        #expect(catalog.products.first?.prices.map(\.territory.code) == ["GBR"])
        #expect(catalog.issues.map(\.rule.rawValue) == ["invalid-price"])
        #expect(catalog.issues.first?.message.contains(message) == true, "\(catalog.issues)")
        #expect(catalog.issues.first?.position.line == 1)
    }

    /// Family sharing, levels and introductory offers the mapping cannot read are dropped, each named.
    @Test func flagsLevelsAndOffersTheMappingCannotReadAreDropped() throws {
        let mapping = """
        format: tally-mapping/1
        products: items[*]
        fields:
          id: sku
          family_shareable: family
          group: plan_group
          level: rank
          introductory_offer: {at: intro, type: kind, period: length, count: cycles}
        values:
          offer_type: {trial: free-trial}
        """
        let catalog = try Self.read("""
        {"items": [
          {"sku": "a", "family": "maybe", "plan_group": "g", "rank": "first", "intro": {"kind": "trial"}},
          {"sku": "b", "family": true, "plan_group": "g", "rank": 1, "intro": {"kind": "half", "length": "P1W"}},
          {"sku": "c", "family": false, "plan_group": "g", "rank": 2, "intro": {"kind": "trial", "length": "P1W", "cycles": 0}},
          {"sku": "d", "plan_group": "g", "rank": 3, "intro": {"kind": "trial", "length": "P1W", "cycles": 2}}
        ]}
        """, mapping: mapping)
        #expect(catalog.products.map(\.id) == ["a", "b", "c", "d"])
        #expect(catalog.products.map(\.familyShareable) == [nil, true, false, nil])
        #expect(catalog.products.map { $0.introductoryOffer?.periods } == [nil, nil, nil, 2])
        #expect(catalog.issues.map { "\($0.rule) \($0.productID ?? "-") \($0.position.line)" }
                == ["family-sharing a 2", "level a 2", "invalid-offer a 2", "invalid-offer b 3", "invalid-offer c 4"])
        #expect(catalog.issues[2].message.contains("has no period at \"length\"; the offer was dropped"), "\(catalog.issues)")
        #expect(catalog.issues[3].message.contains("\"half\" is not an offer type Tally knows"), "\(catalog.issues)")
    }

    @Test func theMappedFormatNeedsAMapping() throws {
        do {
            _ = try SourceLoader.load(bytes: Array("{}".utf8), file: "server.json", format: .mapped)
            Issue.record("read without a mapping")
        } catch let error as FormatError {
            // The library names the remedy as a value, not as a flag its caller may not have.
            #expect(error.remedy == .useMapping, "\(error)")
            #expect(!error.message.contains("--"), "\(error)")
        }
    }

    @Test func withAMappingTallyCatalogFilesAreStillTallyCatalogs() throws {
        let options = ReadOptions(mapping: try Self.mapping(Self.simple))
        let catalog = try SourceLoader.load(path: Fixtures.repo("catalog/products.yaml"), options: options)
        #expect(catalog.format == .tallyCatalogYAML)
    }
}

@Suite struct DocumentPathTests {
    @Test(arguments: ["data.items[*]", "[*]", "a.b[0].c", "*", "a.*.b", "^.key", "^^.name", "@key", "[\"a.b\"].c", "prices.USA"])
    func parses(_ text: String) throws {
        #expect(try DocumentPath(text).description == text)
    }

    @Test(arguments: [("", "an empty path"), ("a..b", "an empty step"), ("a.", "ends with"), ("a[x]", "neither [*]"),
                      ("a[0]b", "'.' is missing"), (".a", "an empty step"), ("a[*", "without its ']'")])
    func refuses(_ text: String, _ problem: String) {
        do {
            _ = try DocumentPath(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.message.contains(problem), "\(error.message)")
        }
    }

    @Test func wildcardsAreKnown() throws {
        #expect(try DocumentPath("a[*]").hasWildcard)
        #expect(try DocumentPath("a.*").hasWildcard)
        #expect(try DocumentPath("a[0].b").hasWildcard == false)
    }
}
