/// Why a string that looks like a product ID is not one: what the code does with it instead.
struct Rejections {
    let tokens: [Token]
    let structure: Structure
    let language: CodeLanguage
    /// Reasons the purchase calls found (part of an ID built at run time, another store's ID).
    let known: [Int: String]

    static let callReasons: [(names: Set<String>, reason: String)] = [
        (["getSharedPreferences", "getString", "putString", "getBoolean", "putBoolean", "getInt", "putInt", "getLong", "putLong",
          "getFloat", "putFloat", "getStringSet", "putStringSet", "getBool", "setBool", "setString", "setInt", "setStringList",
          "getStringList", "getItem", "setItem", "removeItem", "GetInt", "SetInt", "GetString", "SetString", "GetFloat",
          "SetFloat", "HasKey", "DeleteKey", "preferencesKey", "stringPreferencesKey", "booleanPreferencesKey",
          "intPreferencesKey", "longPreferencesKey", "edit", "getDefaults", "dataStore"], "a preferences or storage key"),
        (["Intent", "setAction", "IntentFilter", "addAction", "sendBroadcast"], "an intent action"),
        (["putExtra", "getStringExtra", "getBooleanExtra", "getIntExtra", "getLongExtra", "hasExtra", "getSerializableExtra",
          "getParcelableExtra"], "an intent extra key"),
        (["MethodChannel", "EventChannel", "BasicMessageChannel", "OptionalMethodChannel"], "a platform channel name"),
        (["setPackage", "getPackageInfo", "getLaunchIntentForPackage", "getApplicationInfo", "isPackageInstalled",
          "getInstallerPackageName"], "a package name"),
        (["log", "print", "println", "debugPrint", "NSLog", "Log", "LogWarning", "LogError", "warn", "error", "info", "debug",
          "d", "e", "i", "v", "w", "wtf", "trace"], "a log message"),
        (["logEvent", "track", "trackEvent", "logCustomEvent", "sendEvent", "recordEvent"], "an analytics event name"),
        (["equals", "equalsIgnoreCase", "startsWith", "endsWith", "includes", "indexOf", "Equals", "StartsWith", "EndsWith",
          "hasPrefix", "hasSuffix", "isEqualToString", "contains", "Contains", "compareTo"], "compared with, not requested"),
        (["require", "import", "requireNativeComponent", "loadLibrary", "NSClassFromString", "forName"], "a module, library or class name"),
        (["registerForRemoteNotifications", "addObserver", "postNotificationName", "Notification", "NSNotification"],
         "a notification name"),
    ]

    /// The reason for the string token at `index`.
    func reason(for index: Int) -> String {
        if let reason = known[index] { return reason }
        if index >= 2, tokens[index - 2].isPunctuation("#"), ["import", "include"].contains(tokens[index - 1].text) {
            return "an #\(tokens[index - 1].text) path"
        }
        if index + 1 < tokens.count, tokens[index + 1].isPunctuation(":"), structure.parent[index] >= 0,
           tokens[structure.parent[index]].isPunctuation("{") {
            return "a dictionary or object key"
        }
        if index >= 2, tokens[index - 1].isPunctuation("="), tokens[index - 2].kind == .identifier {
            return Rejections.named(tokens[index - 2].text) ?? "assigned to \(tokens[index - 2].text), which no purchase API call in this file uses"
        }
        if index >= 2, tokens[index - 1].isPunctuation(":"), tokens[index - 2].kind == .identifier || tokens[index - 2].kind == .string {
            let label = tokens[index - 2].text
            if let reason = Rejections.selector(label) { return reason }
            if language == .objectiveC, tokens[index - 2].kind == .identifier, !isInDictionary(index) {
                if let found = Rejections.callReasons.first(where: { $0.names.contains(label) }) { return found.reason }
                return "an argument of \(label):, not of a purchase API"
            }
            return Rejections.named(label) ?? "the value of \(label), not passed to a purchase API"
        }
        if let previous = index > 0 ? tokens[index - 1] : nil,
           previous.kind == .punctuation && ["==", "===", "!=", "!=="].contains(previous.text) || previous.isIdentifier("case") {
            return "compared with, not requested"
        }
        if index + 1 < tokens.count, ["==", "===", "!=", "!==", "->"].contains(tokens[index + 1].text), tokens[index + 1].kind == .punctuation {
            return "compared with, not requested"
        }
        let open = structure.parent[index]
        if open > 0, tokens[open].isPunctuation("("), tokens[open - 1].kind == .identifier {
            let name = tokens[open - 1].text
            if let found = Rejections.callReasons.first(where: { $0.names.contains(name) }) { return found.reason }
            if !Evaluator.collectionBuilders.contains(name) { return "an argument of \(name)(…), not of a purchase API" }
        }
        if let name = collectionName(around: index) {
            return Rejections.named(name) ?? "in \(name), which no purchase API call in this file uses"
        }
        return "not passed to a purchase API"
    }

    private func isInDictionary(_ index: Int) -> Bool {
        let open = structure.parent[index]
        return open > 0 && tokens[open].isPunctuation("{") && tokens[open - 1].isPunctuation("@")
    }

    /// The name a collection holding the string is assigned to: `SKUS` in `val SKUS = listOf("a", …)`.
    private func collectionName(around index: Int) -> String? {
        var open = structure.parent[index], levels = 0
        while open > 0, levels < 6 {
            var k = open - 1, steps = 0
            while k > 0, steps < 8 {
                let t = tokens[k]
                if t.isPunctuation("=") { return tokens[k - 1].kind == .identifier ? tokens[k - 1].text : nil }
                guard t.kind == .identifier || ["<", ">", ",", "@", ".", "?", "[", "]"].contains(t.text) else { break }
                k -= 1
                steps += 1
            }
            open = structure.parent[open]
            levels += 1
        }
        return nil
    }

    /// An Objective-C selector part or a label names what the string is.
    static func selector(_ label: String) -> String? {
        let lower = label.lowercased()
        if lower.hasSuffix("forkey") || lower == "key" || lower.hasSuffix("withkey") { return "a dictionary or UserDefaults key" }
        if lower.contains("suitename") || lower.contains("applicationgroupidentifier") { return "an app group or defaults suite name" }
        if lower.contains("notificationname") || lower == "name" { return "a notification name" }
        return nil
    }

    /// A constant's or key's name says what its string is: a bundle ID, an app group, a key.
    static func named(_ name: String) -> String? {
        let lower = name.lowercased()
        if ["bundleid", "bundle_id", "bundleidentifier", "packagename", "package_name", "applicationid", "application_id", "appid", "app_id"]
            .contains(where: lower.contains) { return "an app or bundle ID (\(name))" }
        if lower.contains("group") || lower.contains("suite") { return "an app group or defaults suite name (\(name))" }
        if lower.contains("notification") { return "a notification name (\(name))" }
        if lower.contains("channel") { return "a platform channel name (\(name))" }
        if lower.hasSuffix("key") || lower.hasPrefix("key") || lower.contains("pref") { return "a preferences or storage key (\(name))" }
        if lower.contains("action") { return "an intent action (\(name))" }
        if lower.contains("event") { return "an event name (\(name))" }
        return nil
    }
}
