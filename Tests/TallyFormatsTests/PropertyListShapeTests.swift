import Foundation
import Testing
import TallyFormats
import TallyModel

/// Issue 34: a property list is a product source only in a product list's shape. Each "not a
/// product list" case is the shape of a real file beside the products in a public app repository
/// (`../shared/fixtures/realworld/apps/`, and repositories tried from outside: Xcode's
/// performance baselines under `*.xcodeproj/xcshareddata/xcbaselines/`).
@Suite struct PropertyListShapeTests {
    static func plist(_ body: String) -> [UInt8] {
        Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """.utf8)
    }

    static let notProductLists: [(String, String)] = [
        ("an app's Info.plist", "<dict><key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string><key>CFBundleName</key><string>Runner</string></dict>"),
        ("entitlements", "<dict><key>aps-environment</key><string>development</string><key>com.apple.security.application-groups</key><array><string>group.a.b</string></array></dict>"),
        ("Firebase", "<dict><key>API_KEY</key><string>AIza</string><key>BUNDLE_ID</key><string>com.example.app</string><key>PROJECT_ID</key><string>app-1</string></dict>"),
        ("export options", "<dict><key>method</key><string>app-store</string><key>teamID</key><string>ABCDE12345</string></dict>"),
        ("workspace checks", "<dict><key>IDEDidComputeMac32BitWarning</key><true/></dict>"),
        ("scheme management", "<dict><key>SchemeUserState</key><dict><key>Runner.xcscheme_^#shared#^_</key><dict><key>orderHint</key><integer>0</integer></dict></dict></dict>"),
        ("App Center", "<dict><key>AppSecret</key><string>8613f468-4440-400b-926b-6ab9f785c068</string></dict>"),
        ("privacy manifest", "<dict><key>NSPrivacyTracking</key><false/><key>NSPrivacyAccessedAPITypes</key><array/></dict>"),
        ("find-navigator scopes (an empty list)", "<array/>"),
        ("performance baseline Info.plist", "<dict><key>runDestinationsByUUID</key><dict><key>0E2ABBD4-1B4B-4B8B-A0A1-6F1B6C3E1A11</key><dict><key>localComputer</key><dict><key>busSpeedInMHz</key><integer>100</integer></dict></dict></dict></dict>"),
        ("performance baseline", "<dict><key>classNames</key><dict><key>AppTests</key><dict><key>testPerformance()</key><dict/></dict></dict></dict>"),
        ("a settings dictionary", "<dict><key>ShowOnboarding</key><true/><key>Theme</key><string>dark</string></dict>"),
    ]

    @Test(arguments: notProductLists.map(\.0))
    func aListBesideTheProductsIsNotOne(_ name: String) throws {
        let body = try #require(Self.notProductLists.first { $0.0 == name }?.1)
        #expect(PropertyListReader.holdsProducts(Self.plist(body), file: "x.plist") == false, "\(name)")
        #expect(!SourceLoader.isProductSource(head: Self.plist(body), name: "x.plist"), "\(name)")
    }

    static let productLists: [(String, String)] = [
        ("a list of IDs", "<array><string>com.rarcher.flowers-large</string><string>remove_ads</string></array>"),
        ("StoreHelper's Products", "<dict><key>Products</key><array><string>com.rarcher.nonconsumable.flowers.large</string></array></dict>"),
        ("Apple's sample: ID to a display string", "<dict><key>consumable.fuel.octane87</key><string>⛽️</string><key>nonconsumable.car</key><string>🚗</string></dict>"),
        ("product dictionaries keyed by ID", "<dict><key>gold</key><dict><key>Title</key><string>Gold</string><key>Type</key><string>Consumable</string></dict></dict>"),
        ("a list of product dictionaries", "<array><dict><key>productIdentifier</key><string>com.a.coins</string><key>consumable</key><true/></dict></array>"),
    ]

    @Test(arguments: productLists.map(\.0))
    func aProductListIsOne(_ name: String) throws {
        let body = try #require(Self.productLists.first { $0.0 == name }?.1)
        #expect(PropertyListReader.holdsProducts(Self.plist(body), file: "Products.plist") == true, "\(name)")
        let catalog = try PropertyListReader.read(bytes: Self.plist(body), file: "Products.plist", options: ReadOptions())
        #expect(!catalog.products.isEmpty)
    }

    /// Named on the command line, an Info.plist is refused with what it is, never read as 12 products.
    @Test func anInfoPlistNamedOnTheCommandLineIsRefusedWithWhatItIs() throws {
        let body = Self.notProductLists[0].1
        #expect(throws: FormatError.self) { try PropertyListReader.read(bytes: Self.plist(body), file: "Info.plist", options: ReadOptions()) }
        do {
            _ = try PropertyListReader.read(bytes: Self.plist(body), file: "Info.plist", options: ReadOptions())
        } catch let error as FormatError {
            #expect(error.message.contains("not a product list: it is a bundle's Info.plist (it holds CFBundleIdentifier)"), "\(error.message)")
        }
    }

    /// `format: tally-catalog/1` in every spelling YAML allows is a catalogue.
    @Test(arguments: ["format: tally-catalog/1", "format: \"tally-catalog/1\"", "format: 'tally-catalog/1'", "\"format\": \"tally-catalog/1\"",
                      "format:   tally-catalog/1", "{format: tally-catalog/1, products: []}"])
    func aQuotedFormatKeyIsACatalogue(_ line: String) {
        #expect(SourceLoader.isProductSource(head: Array("# server catalogue\n\(line)\nproducts: []\n".utf8), name: "products.yaml"), "\(line)")
    }
}
