import Foundation
import TallyModel

/// The StoreKit configuration an Xcode scheme runs the app against (issue 50): the
/// `StoreKitConfigurationFileReference` of a scheme's LaunchAction, resolved as Xcode resolves it.
public struct SchemeStoreKitReference: Sendable, Hashable {
    /// The `.xcscheme` file, relative to the folder searched.
    public var scheme: String
    /// Where the reference stands in the scheme (its element's line and column).
    public var position: Position
    /// The reference as the scheme writes it (`../../App/Products.storekit`).
    public var identifier: String
    /// The file it names, relative to the folder searched; nil when it leads out of the repository.
    public var resolved: String?
    /// Whether that file (or StoreKit configuration package) exists.
    public var exists: Bool
    /// Why the scheme could not be read, when it names a StoreKit configuration Tally cannot
    /// make out (broken XML, a merge conflict left in it): then `identifier` is empty.
    public var problem: String? = nil

    /// The scheme's name (`Top Row` of `…/xcschemes/Top Row.xcscheme`).
    public var schemeName: String {
        let name = scheme.split(separator: "/").last.map(String.init) ?? scheme
        return name.hasSuffix(".xcscheme") ? String(name.dropLast(".xcscheme".count)) : name
    }
}

/// Finds the schemes of a repository that name a StoreKit configuration.
///
/// Xcode resolves a scheme's reference from the workspace the scheme is opened in, not from the
/// scheme's folder: a project opened on its own from `X.xcodeproj/project.xcworkspace` (so
/// `../../F` is `F` beside the `.xcodeproj`), a project opened through a workspace (CocoaPods,
/// Flutter, React Native) from `W.xcworkspace` (so `../F` is `F` beside the workspace). Xcode's own
/// error text in tuist#10178 and the fix in tuist#10179 say so, and real schemes bear it out.
public enum XcodeSchemes {
    /// Folders not searched: dependencies and build products.
    static let skipped: Set<String> = [".git", ".build", "build", "DerivedData", "Pods", "Carthage", "node_modules", "vendor", ".swiftpm"]
    static let maxDepth = 8
    static let maxSchemes = 2_000
    /// At most this many folders are looked into (a check run from a home folder ends quickly).
    static let maxFolders = 20_000

    /// Every scheme under `root` that names a StoreKit configuration, sorted by scheme path.
    public static func references(in root: String) -> [SchemeStoreKitReference] {
        var containers: [String] = []
        var budget = maxFolders
        collect(root, relative: "", depth: 0, budget: &budget, into: &containers)
        let boundary = RepositoryBoundary(around: root)
        var references: [SchemeStoreKitReference] = []
        for container in containers.sorted() {
            for scheme in schemes(in: container, root: root) where references.count < maxSchemes {
                references += read(scheme: scheme, container: container, root: root, boundary: boundary)
            }
        }
        return references
    }

    /// The `.xcodeproj` and `.xcworkspace` folders below `root` (relative paths).
    private static func collect(_ root: String, relative: String, depth: Int, budget: inout Int, into found: inout [String]) {
        guard depth <= maxDepth, found.count < maxSchemes, budget > 0 else { return }
        budget -= 1
        let full = relative.isEmpty ? root : (root as NSString).appendingPathComponent(relative)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: full) else { return }
        for name in names.sorted() where !skipped.contains(name) && !name.hasPrefix(".") {
            let path = relative.isEmpty ? name : "\(relative)/\(name)"
            var isDirectory: ObjCBool = false
            let entry = (full as NSString).appendingPathComponent(name)
            guard !isLink(entry), FileManager.default.fileExists(atPath: entry, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            if name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") {
                found.append(path)
                continue
            }
            collect(root, relative: path, depth: depth + 1, budget: &budget, into: &found)
        }
    }

    /// Whether `path` is a symbolic link (not followed: a link loop cannot multiply the search).
    private static func isLink(_ path: String) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType) == .typeSymbolicLink
    }

    /// A container's shared and user schemes.
    private static func schemes(in container: String, root: String) -> [String] {
        let full = (root as NSString).appendingPathComponent(container)
        var folders = ["\(container)/xcshareddata/xcschemes"]
        if let users = try? FileManager.default.contentsOfDirectory(atPath: (full as NSString).appendingPathComponent("xcuserdata")) {
            folders += users.sorted().filter { $0.hasSuffix(".xcuserdatad") }.map { "\(container)/xcuserdata/\($0)/xcschemes" }
        }
        return folders.flatMap { folder -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: (root as NSString).appendingPathComponent(folder))) ?? []
            return names.sorted().filter { $0.hasSuffix(".xcscheme") }.map { "\(folder)/\($0)" }
        }
    }

    private static func read(scheme: String, container: String, root: String, boundary: RepositoryBoundary) -> [SchemeStoreKitReference] {
        let full = (root as NSString).appendingPathComponent(scheme)
        guard let bytes = try? SourceLoader.readBytes(path: full, maxBytes: 4 << 20) else { return [] }
        let document: XMLElementNode
        do {
            document = try SafeXML.parse(bytes: bytes, file: scheme)
        } catch {
            // A scheme that names a StoreKit configuration but is not XML Tally can read (a merge
            // conflict, a broken edit) is said where it breaks; one that names none does not matter here.
            guard String(decoding: bytes, as: UTF8.self).contains("StoreKitConfigurationFileReference") else { return [] }
            let located = error as? FormatError
            let position = located.map { Position(line: max($0.location.line ?? 1, 1), column: max($0.location.column ?? 1, 1)) }
                ?? Position(line: 1, column: 1)
            return [SchemeStoreKitReference(scheme: scheme, position: position, identifier: "", resolved: nil, exists: false,
                                            problem: located?.message ?? "\(error)")]
        }
        var found: [SchemeStoreKitReference] = []
        var stack = [document]
        while let element = stack.popLast(), found.count < 16 {
            if element.name == "StoreKitConfigurationFileReference", let identifier = element.attributes["identifier"], !identifier.isEmpty {
                let base = workspace(for: container, root: root)
                let resolved = resolve(identifier, from: base, root: root, boundary: boundary)
                let exists = resolved.map { FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent($0)) } ?? false
                found.append(SchemeStoreKitReference(scheme: scheme, position: element.position, identifier: identifier, resolved: resolved, exists: exists))
            }
            stack.append(contentsOf: element.children.reversed())
        }
        return found
    }

    /// The workspace a container's schemes are opened in: the container itself when it is a
    /// workspace; for a project, a workspace beside it that holds it, else its own
    /// `project.xcworkspace`.
    static func workspace(for container: String, root: String) -> String {
        guard container.hasSuffix(".xcodeproj") else { return container }
        let parent = PathText.parent(container)
        let project = container.split(separator: "/").last.map(String.init) ?? container
        let folder = parent.isEmpty ? root : (root as NSString).appendingPathComponent(parent)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where name.hasSuffix(".xcworkspace") {
            let contents = ((folder as NSString).appendingPathComponent(name) as NSString).appendingPathComponent("contents.xcworkspacedata")
            guard let bytes = try? SourceLoader.readBytes(path: contents, maxBytes: 4 << 20) else { continue }
            if String(decoding: bytes, as: UTF8.self).contains(project) { return parent.isEmpty ? name : "\(parent)/\(name)" }
        }
        return "\(container)/project.xcworkspace"
    }

    /// `identifier` from the workspace folder `base`, as a path relative to `root`; nil when it
    /// leaves the repository (a reference into someone's DerivedData is reported, never followed).
    static func resolve(_ identifier: String, from base: String, root: String, boundary: RepositoryBoundary) -> String? {
        var parts: [String] = identifier.hasPrefix("/") ? [] : base.split(separator: "/").map(String.init)
        if identifier.hasPrefix("/") {
            // An absolute reference: inside the repository only.
            let rootParts = RepositoryBoundary.absolute(root).split(separator: "/").map(String.init)
            let target = identifier.split(separator: "/").map(String.init)
            guard target.starts(with: rootParts) else { return nil }
            parts = []
            for part in target.dropFirst(rootParts.count) { parts.append(part) }
            return parts.joined(separator: "/")
        }
        for part in identifier.split(separator: "/").map(String.init) {
            switch part {
            case ".", "": continue
            case "..":
                guard !parts.isEmpty else { return nil }  // above the searched folder
                parts.removeLast()
            default: parts.append(part)
            }
        }
        let path = parts.joined(separator: "/")
        guard !path.isEmpty else { return nil }
        if boundary.escape((root as NSString).appendingPathComponent(path)) != nil { return nil }
        return path
    }
}
