import Foundation
import Testing
import TallyFormats
import TallyModel

/// Every property-list shape of FORMATS.md §2, recognised from the content.
@Suite struct PropertyListReaderTests {
    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """
    }

    @Test func aListOfIDsKnowsOnlyIDs() throws {
        let catalog = try Fixtures.load(Self.plist("<array><string>com.a.one</string><string>com.a.two</string></array>"), as: "Products.plist")
        #expect(catalog.format == .propertyList)
        #expect(catalog.products.map(\.id) == ["com.a.one", "com.a.two"])
        #expect(catalog.knownFields == [.id])
        #expect(catalog.products.map(\.path) == ["[0]", "[1]"])
        #expect(catalog.location(of: catalog.products[1], .id).description == "Products.plist ([1])")
    }

    @Test func productsKeyWithIDs() throws {
        let catalog = try Fixtures.load(Self.plist("<dict><key>Products</key><array><string>com.a.one</string></array></dict>"), as: "P.plist")
        #expect(catalog.products.map(\.id) == ["com.a.one"])
        #expect(catalog.products[0].path == "Products[0]")
        #expect(catalog.knownFields == [.id])
    }

    @Test func format2GroupsGiveKindGroupAndLevelByOrder() throws {
        let catalog = try Fixtures.load(Self.plist("""
        <dict>
          <key>Products</key><array><string>com.a.flowers</string></array>
          <key>Subscriptions</key>
          <array>
            <dict><key>Group</key><string>vip</string>
                  <key>Products</key><array><string>com.a.gold</string><string>com.a.silver</string></array></dict>
          </array>
        </dict>
        """), as: "P.plist")
        #expect(catalog.products.map(\.id) == ["com.a.flowers", "com.a.gold", "com.a.silver"])
        #expect(catalog.knownFields == [.id, .group, .level])
        let silver = catalog.products[2]
        #expect(silver.kind == .autoRenewableSubscription)
        #expect(silver.group == GroupMembership(groupID: "vip", groupName: "vip", level: 2))
        #expect(silver.path == "Subscriptions[0].Products[1]")
        #expect(silver.fieldPositions[.level] == nil, "a level from the order is not a written level")
        #expect(catalog.groups.map(\.productIDs) == [["com.a.gold", "com.a.silver"]])
    }

    @Test func aDictionaryKeyedByProductID() throws {
        let catalog = try Fixtures.load(Self.plist("""
        <dict>
          <key>com.a.coins</key><dict><key>Title</key><string>Coins</string><key>Tier</key><integer>1</integer></dict>
          <key>com.a.noads</key><string>Remove ads</string>
        </dict>
        """), as: "P.plist")
        #expect(catalog.products.map(\.id).sorted() == ["com.a.coins", "com.a.noads"])
        #expect(catalog.knownFields == [.id])
        #expect(catalog.products.allSatisfy { $0.prices.isEmpty }, "a tier is not a price")
        #expect(catalog.products.first { $0.id == "com.a.coins" }?.path == "[\"com.a.coins\"]")
    }

    @Test func dictionariesWithProductTypeKnowKinds() throws {
        let catalog = try Fixtures.load(Self.plist("""
        <array>
          <dict><key>ProductIdentifier</key><string>com.a.unlock</string><key>Title</key><string>Unlock</string>
                <key>Description</key><string>All of it</string><key>Tier</key><integer>3</integer><key>ProductType</key><integer>0</integer></dict>
          <dict><key>ProductIdentifier</key><string>com.a.coins</string><key>ProductType</key><integer>1</integer></dict>
          <dict><key>ProductIdentifier</key><string>com.a.pro</string><key>ProductType</key><integer>2</integer></dict>
        </array>
        """), as: "P.plist")
        #expect(catalog.products.map(\.kind) == [.nonConsumable, .consumable, .autoRenewableSubscription])
        #expect(catalog.knownFields == [.id, .kind])
        #expect(catalog.products[1].path(of: .kind) == "[1].ProductType")
        #expect(catalog.products[0].path(of: .id) == "[0].ProductIdentifier")
    }

    @Test func aBinaryListOfProductIdentifierDictionaries() throws {
        let catalog = try SourceLoader.load(path: Fixtures.path("plist/binary-productIdentifier.plist"))
        #expect(catalog.format == .propertyList)
        #expect(catalog.products.map(\.id) == ["com.example.coins.100", "com.example.noads"])
        #expect(catalog.products.map(\.kind) == [.consumable, .nonConsumable])
        #expect(catalog.knownFields == [.id, .kind])
    }

    @Test func kindIsKnownOnlyWhenEveryProductStatesOne() throws {
        let catalog = try Fixtures.load(Self.plist("""
        <array>
          <dict><key>productIdentifier</key><string>com.a.coins</string><key>consumable</key><true/></dict>
          <dict><key>productIdentifier</key><string>com.a.unlock</string><key>consumable</key><false/></dict>
          <dict><key>productIdentifier</key><string>com.a.other</string></dict>
        </array>
        """), as: "P.plist")
        #expect(catalog.products.prefix(2).map(\.kind) == [.consumable, .nonConsumable])
        #expect(catalog.knownFields == [.id])
    }

    @Test(arguments: [
        ("<string>just text</string>", "the whole file is a string"),
        ("<dict><key>settings</key><dict/><key>products</key><array/></dict>", "holds a list"),
        ("<dict><key>has space</key><string>x</string></dict>", "is not a product ID"),
        ("<array><array><string>a</string></array></array>", "a list inside the list at [0]"),
        ("<dict/>", "an empty dictionary"),
    ])
    func anUnrecognisedShapeListsTheShapesTallyKnows(_ body: String, _ found: String) throws {
        let error = try #require(Fixtures.error(Self.plist(body), as: "Odd.plist"))
        #expect(error.message.contains(found), "\(error)")
        #expect(error.message.contains("Tally reads: a list of product IDs; {Products: [IDs]}"), "\(error)")
        #expect(error.message.contains("a dictionary keyed by product ID"))
        #expect(error.location.file == "Odd.plist")
    }

    @Test(arguments: [
        ("<array><dict><key>Title</key><string>x</string></dict></array>", "[0]", "has no product ID"),
        ("<array><dict><key>ProductIdentifier</key><string>a</string><key>ProductType</key><integer>7</integer></dict></array>",
         "[0].ProductType", "ProductType 7"),
        ("<array><dict><key>productIdentifier</key><string>a</string><key>consumable</key><string>yes</string></dict></array>",
         "[0].consumable", "true or false"),
        ("<dict><key>Products</key><array/><key>Subscriptions</key><array><dict><key>Products</key><array/></dict></array></dict>",
         "Subscriptions[0]", "no Group name"),
        ("<dict><key>Products</key><string>a</string></dict>", "Products", "should be a list"),
        ("<array><integer>3</integer></array>", "[0]", "expected a product ID"),
    ])
    func aBadValueIsLocatedByItsKeyPath(_ body: String, _ path: String, _ message: String) throws {
        let error = try #require(Fixtures.error(Self.plist(body), as: "Bad.plist"))
        #expect(error.location.path == path, "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description.hasPrefix("Bad.plist (\(path)): error: "))
    }

    @Test func aBrokenPropertyListIsAnInputError() throws {
        let error = try #require(Fixtures.error("<?xml version=\"1.0\"?><plist><array><string>a</array></plist>", as: "Broken.plist"))
        #expect(error.message.contains("not a valid property list"), "\(error)")
    }

    @Test func detectionByExtensionAndByContent() throws {
        let text = Self.plist("<array><string>com.a.one</string></array>")
        #expect(try SourceLoader.detect(bytes: Array(text.utf8), file: "x.plist") == PropertyListReader.self)
        #expect(try SourceLoader.detect(bytes: Array(text.utf8), file: "Products") == PropertyListReader.self)
        let binary = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("plist/binary-productIdentifier.plist"))))
        #expect(try SourceLoader.detect(bytes: binary, file: "noext") == PropertyListReader.self)
    }
}

/// The real property lists in ../shared/fixtures/realworld/plist: product counts checked by hand
/// against the files (5 IDs; format 2 with 2 + 2; format 2 with 5 + 3 + 3).
@Suite(.enabled(if: Fixtures.sharedAvailable, Comment(rawValue: Fixtures.sharedMissing)))
struct RealWorldPropertyListTests {
    @Test(arguments: [
        ("iapdemo-ProductsRelease.plist", 5, 0, 0),
        ("skhelper-SampleProducts-format2.plist", 4, 2, 1),
        ("storehelper-SampleProducts.plist", 11, 6, 2),
    ])
    func readsEveryRealFile(_ name: String, _ products: Int, _ subscriptions: Int, _ groups: Int) throws {
        let catalog = try SourceLoader.load(path: Fixtures.realWorld("plist/\(name)"))
        #expect(catalog.format == .propertyList)
        #expect(catalog.products.count == products)
        #expect(catalog.products.filter(\.kind.isAutoRenewable).count == subscriptions)
        #expect(catalog.groups.count == groups)
        #expect(catalog.knownFields.contains(.prices) == false)
    }

    @Test func theStoreHelperGroupsKeepTheirOrderAsLevels() throws {
        let catalog = try SourceLoader.load(path: Fixtures.realWorld("plist/storehelper-SampleProducts.plist"))
        let standard = catalog.products.filter { $0.group?.groupID == "standard" }
        #expect(standard.map(\.id) == ["com.rarcher.green", "com.rarcher.amber", "com.rarcher.red"])
        #expect(standard.map { $0.group?.level } == [1, 2, 3])
    }
}
