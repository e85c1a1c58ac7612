import Foundation
import Testing
import TallyModel
@testable import TallyCode

@Suite struct TokenScannerLexerTests {
    private func strings(_ text: String, _ language: CodeLanguage) -> [(String, Bool)] {
        Lexer.lex(text, language: language).tokens.filter { $0.kind == .string }.map { ($0.text, $0.isLiteral) }
    }

    @Test func templateLiteralsAreLiteralsOnlyWithoutInterpolation() {
        let found = strings("a = `plain`; b = `x${f(`inner`, '}')}y`; c = 'after'", .javaScript)
        #expect(found.map(\.0) == ["plain", "x${f(`inner`, '}')}y", "after"])
        #expect(found.map(\.1) == [true, false, true])
    }

    @Test func kotlinStrings() {
        let found = strings(#"val a = "$x"; val b = "\$5"; val c = """raw "quoted" $"""; val d = "${m["k"]}"; val e = 'c'"#, .kotlin)
        #expect(found.map(\.0) == ["$x", "\\$5", "raw \"quoted\" $", "${m[\"k\"]}", "c"])
        #expect(found.map(\.1) == [false, true, true, false, true])
    }

    @Test func dartStrings() {
        let found = strings(#"a = r'$raw'; b = '''multi\nline'''; c = '${a['b']}'; d = "it's""#, .dart)
        #expect(found.map(\.0) == ["$raw", "multi\\nline", "${a['b']}", "it's"])
        #expect(found.map(\.1) == [true, true, false, true])
    }

    @Test func cSharpStrings() {
        let found = strings(#"a = @"c:\dir ""q"""; b = $"{x}"; c = $"{{x}}"; d = """raw "q" text"""; e = $@"{y}\n""#, .cSharp)
        #expect(found.map(\.0) == [#"c:\dir ""q"""#, "{x}", "{{x}}", #"raw "q" text"#, #"{y}\n"#])
        #expect(found.map(\.1) == [true, false, true, true, false])
    }

    @Test func nestedCommentsWhereTheLanguageHasThem() {
        let text = "/* a /* b */ c */ x"
        #expect(Lexer.lex(text, language: .kotlin).tokens.map(\.text) == ["x"])
        #expect(Lexer.lex(text, language: .java).tokens.map(\.text) == ["c", "*", "/", "x"])
    }

    @Test func unterminatedStringEndsAtTheLineBreak() {
        let found = strings("val a = \"open\nval b = \"closed\"", .kotlin)
        #expect(found.map(\.0) == ["open", "closed"])
        #expect(found.map(\.1) == [false, true])
    }

    @Test func columnsCountUTF8Bytes() {
        let tokens = Lexer.lex("// é\nval é = \"x\"", language: .kotlin).tokens
        let string = tokens.first { $0.kind == .string }
        #expect(string?.line == 2)
        #expect(string?.column == 10)
    }

    @Test func cSharpDirectivesAreSkipped() {
        let tokens = Lexer.lex("#region Don't read this\nx\n#endregion", language: .cSharp).tokens
        #expect(tokens.map(\.text) == ["x"])
    }
}

@Suite struct TokenScannerPatternTests {
    @Test func patternTakesWholeLiterals() {
        let scan = tokenScan("""
        val a = "com.ex.app.pro"
        val b = "com.ex.app.pro.extra"
        val c = "prefix com.ex.app.gems"
        """, .kotlin, pattern: #"com\.ex\.app\.[a-z]+"#)
        #expect(scan.ids == ["com.ex.app.pro"])
        #expect(scan.requests[0].api == "code: ids pattern")
        #expect(scan.requests[0].literal == scan.requests[0].call)
        #expect(scan.requests[0].literal.lineColumn == "1:9")
    }

    @Test func aRequestIsNotCountedTwice() {
        let scan = tokenScan("import 'package:in_app_purchase/in_app_purchase.dart';\nq() => InAppPurchase.instance.queryProductDetails({'com.ex.pro'});",
                             .dart, pattern: #"com\.ex\..*"#)
        #expect(scan.ids == ["com.ex.pro"])
        #expect(scan.requests[0].api == "InAppPurchase.queryProductDetails")
    }

    @Test func invalidPatternIsANote() {
        let scan = tokenScan("val a = \"com.ex.app.pro\"", .kotlin, pattern: "([unclosed")
        #expect(scan.requests.isEmpty)
        #expect(scan.notes.count == 1)
        #expect(scan.notes[0].message.contains("not a valid regular expression"))
    }
}

@Suite struct TokenScannerRejectionTests {
    @Test func reasonsSayWhatTheStringIs() {
        let scan = tokenScan("""
        const val APPLICATION_ID = "com.ex.app"
        val prefs = context.getSharedPreferences("com.ex.app.prefs", 0)
        val intent = Intent("com.ex.app.ACTION_PREMIUM")
        val unused = "com.ex.app.sub.monthly"
        if (sku == "premium_weekly") { }
        val words = "not an id"
        """, .kotlin)
        #expect(scan.requests.isEmpty)
        #expect(scan.rejection("com.ex.app")?.reason == "an app or bundle ID (APPLICATION_ID)")
        #expect(scan.rejection("com.ex.app.prefs")?.reason == "a preferences or storage key")
        #expect(scan.rejection("com.ex.app.ACTION_PREMIUM")?.reason == "an intent action")
        #expect(scan.rejection("com.ex.app.sub.monthly")?.reason == "assigned to unused, which no purchase API call in this file uses")
        #expect(scan.rejection("premium_weekly")?.reason == "compared with, not requested")
        #expect(scan.rejection("not an id") == nil)
        #expect(scan.rejected.map { $0.location.position.line } == [1, 2, 3, 4, 5])
    }

    @Test func switchLabelsAreNotConstants() {
        let scan = tokenScan("""
        import com.android.billingclient.api.*;
        class Shop {
            static final String PRO = "pro_forever";
            void pick(int level) {
                String sku = null;
                switch (level) { case PRO: sku = "level_premium"; break; }
                SkuDetailsParams.newBuilder().setSkusList(Arrays.asList(PRO)).build();
            }
        }
        """, .java)
        #expect(scan.ids == ["pro_forever"])
    }

    @Test func spreadsAndArrayInitializers() {
        let kotlin = tokenScan("import com.android.billingclient.api.*\nval IDS = arrayOf(\"a_premium\")\nval p = SkuDetailsParams.newBuilder().setSkusList(listOf(*IDS, \"b_premium\")).build()", .kotlin)
        #expect(kotlin.ids == ["a_premium", "b_premium"])
        let cSharp = tokenScan("using UnityEngine.Purchasing;\nforeach (var id in new[] { \"gems_1\", \"gems_2\" }) builder.AddProduct(id, ProductType.Consumable);", .cSharp)
        #expect(cSharp.ids == ["gems_1", "gems_2"])
        #expect(cSharp.requests.allSatisfy { $0.kind == .consumable })
    }

    @Test func aRequestedIDIsNotAlsoRejected() {
        let scan = tokenScan("""
        import com.android.billingclient.api.*
        val p = QueryProductDetailsParams.Product.newBuilder().setProductId("premium_monthly").build()
        if (purchase.products.contains("premium_monthly")) { }
        """, .kotlin)
        #expect(scan.ids == ["premium_monthly"])
        #expect(scan.rejected.isEmpty)
    }
}

@Suite struct TokenScannerRobustnessTests {
    /// A fixed pseudo-random sequence, so a failure can be replayed.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    @Test(arguments: CodeLanguage.allCases.filter { $0 != .swift })
    func garbageNeverCrashes(language: CodeLanguage) {
        var generator = Generator(state: 35)
        let alphabet = Array("\"'`@$#{}[]()<>/*\\\n \t;:,.=?!+-rR_abcSKProductsRequest setProductId getProducts AddProduct queryProductDetails")
        for round in 0..<40 {
            let length = Int.random(in: 0..<2_000, using: &generator)
            let text = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            let scan = tokenScan(text, language, path: "garbage-\(round)")
            #expect(scan.requests.allSatisfy { !$0.id.isEmpty })
        }
        var bytes = Generator(state: 7)
        let binary = String(decoding: (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &bytes) }, as: UTF8.self)
        _ = tokenScan(binary, language)
    }

    @Test func unterminatedEverything() {
        for text in ["/* never closed", "\"never closed", "`never ${ closed", "\"\"\"never closed", "@\"x", "r'x", "$\"{x", "#define",
                     "getProducts({skus: [", "[[SKProductsRequest alloc] initWithProductIdentifiers:", "setProductId(", "a.b.c.d."] {
            for language in CodeLanguage.allCases where language != .swift {
                _ = tokenScan(text, language)
            }
        }
    }

    @Test func deepNestingAndLongChainsStayBounded() {
        let depth = 20_000
        let nested = "import 'react-native-iap';\ngetProducts(" + String(repeating: "[", count: depth) + "'com.ex.deep'" + String(repeating: "]", count: depth) + ")"
        let scan = tokenScan(nested, .javaScript)
        #expect(scan.requests.count <= 1)
        let chain = "import com.android.billingclient.api.*\n" + (0..<3_000).map { "const val A\($0) = A\($0 + 1)" }.joined(separator: "\n")
            + "\nval p = QueryProductDetailsParams.Product.newBuilder().setProductId(A0).build()"
        let chained = tokenScan(chain, .kotlin)
        #expect(chained.requests.isEmpty)
        #expect(chained.notes.count == 1)
        let selfReference = tokenScan("import com.android.billingclient.api.*\nval a = b\nval b = a\nval p = QueryProductDetailsParams.Product.newBuilder().setProductId(a).build()", .kotlin)
        #expect(selfReference.notes.count == 1)
    }

    @Test func manyCallsInALargeFile() {
        let line = "QueryProductDetailsParams.Product.newBuilder().setProductId(\"premium_monthly\").setProductType(ProductType.SUBS).build()\n"
        let text = "import com.android.billingclient.api.*\n" + String(repeating: line, count: 5_000)
        let scan = tokenScan(text, .kotlin)
        #expect(scan.requests.count == 5_000)
        #expect(scan.requests.allSatisfy { $0.kind == .subscription })
    }
}

@Suite struct TokenScannerPrefilterTests {
    @Test func prefilterNamesTheAPIs() {
        #expect(TokenScanner.mayAskForProducts("[[SKProductsRequest alloc] initWithProductIdentifiers:ids]", language: .objectiveC))
        #expect(TokenScanner.mayAskForProducts("import com.android.billingclient.api.*\n.setProductId(x)", language: .kotlin))
        #expect(!TokenScanner.mayAskForProducts("state.setProductId(x)", language: .kotlin))
        #expect(TokenScanner.mayAskForProducts("import {getProducts} from 'react-native-iap'", language: .typeScript))
        #expect(!TokenScanner.mayAskForProducts("api.getProducts()", language: .typeScript))
        #expect(TokenScanner.mayAskForProducts("InAppPurchase.instance.queryProductDetails(ids)", language: .dart))
        #expect(TokenScanner.mayAskForProducts("using UnityEngine.Purchasing; builder.AddProduct(id, t);", language: .cSharp))
        #expect(!TokenScanner.mayAskForProducts("list.AddProduct(id)", language: .cSharp))
    }
}

/// The real app files under ../shared/fixtures/realworld/apps: what they ask for, and why not.
@Suite(.enabled(if: TokenScannerRealWorld.available, "../shared/fixtures/realworld/apps is absent: the real app files are skipped"))
struct TokenScannerRealWorldTests {
    @Test func tasksAndroidBuildsItsIDsAtRunTime() throws {
        let client = try TokenScannerRealWorld.scan("tasks-android-kotlin/app/src/googleplay/java/org/tasks/billing/BillingClientImpl.kt")
        #expect(client.requests.isEmpty)
        #expect(client.notes.count == 2)
        #expect(client.notes.allSatisfy { $0.message.hasPrefix("QueryProductDetailsParams.Product.setProductId") })
        #expect(client.notes.map(\.location.lineColumn) == ["56:22", "173:22"])
        let model = try TokenScannerRealWorld.scan("tasks-android-kotlin/app/src/main/java/org/tasks/billing/PurchaseActivityViewModel.kt")
        #expect(model.requests.isEmpty)
        #expect(model.notes.isEmpty)
        #expect(model.rejected.map(\.text) == ["monthly", "annual"])
    }

    @Test func podverseReadsItsIDsFromConfiguration() throws {
        let scan = try TokenScannerRealWorld.scan("podverse-react-native/src/services/purchaseShared.ts")
        #expect(scan.requests.isEmpty)
        #expect(scan.notes.count == 2)
        #expect(scan.notes[0].message.contains("Config.PURCHASE_ITEM_SKU_IOS"))
        #expect(scan.notes[0].location.lineColumn == "30:11")
    }

    @Test func unityCodelessAndCommentedOutFlutterAskForNothing() throws {
        let unity = try TokenScannerRealWorld.scan("avvault-unity-codeless/Assets/SocialAppTemplate/Scripts/Controllers/ViewController.cs")
        #expect(unity.requests.isEmpty && unity.notes.isEmpty)
        let flutter = try TokenScannerRealWorld.scan("wisdom-flutter-adapty/lib/core/services/purchase_observer.dart")
        #expect(flutter.requests.isEmpty && flutter.notes.isEmpty)
    }
}

enum TokenScannerRealWorld {
    static let apps = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/realworld/apps")
    static let available = FileManager.default.fileExists(atPath: apps.path)

    static func scan(_ path: String) throws -> CodeScan {
        let url = apps.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        let language = try #require(CodeLanguage.forExtension(url.pathExtension))
        return TokenScanner.scan(CodeFile(path: path, text: text, language: language), idPattern: nil)
    }
}
