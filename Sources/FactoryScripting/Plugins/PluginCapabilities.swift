/// What a Swift plugin reaches outside the process. A sandboxed host
/// (`factoryhost run --sandbox`) installs only the plugins whose
/// capabilities were all granted (`--allow network,files`); the others'
/// modules raise an error that says what is missing and how to grant it.
///
/// A plugin that does not declare its capabilities is taken to reach
/// everything (``all``): capabilities are granted, never assumed.
///
/// ```swift
/// struct WeatherPlugin: FactoryPlugin {
///     let name = "weather"
///     var capabilities: PluginCapabilities { [.network] }
///     func install(in context: PluginContext) throws { … }
/// }
/// let host = try FactoryHost(plugins: [WeatherPlugin()], libraries: .sandboxed, granting: [.network])
/// ```
public struct PluginCapabilities: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The capabilities as bits.
    public let rawValue: Int
    /// The capabilities whose bits are set in `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Reads, writes, creates or deletes files (a SQLite store, a session file).
    public static let files = PluginCapabilities(rawValue: 1 << 0)
    /// Connects to or listens on the network (HTTP clients, servers).
    public static let network = PluginCapabilities(rawValue: 1 << 1)
    /// Starts processes.
    public static let processes = PluginCapabilities(rawValue: 1 << 2)
    /// Reads environment variables.
    public static let environment = PluginCapabilities(rawValue: 1 << 3)

    /// Everything (what an undeclared plugin is taken to reach).
    public static let all: PluginCapabilities = [.files, .network, .processes, .environment]

    /// Each capability with the name `--allow` takes and what it means.
    public static let named: [(name: String, capability: PluginCapabilities, meaning: String)] = [
        ("files", .files, "reads and writes files"),
        ("network", .network, "uses the network"),
        ("processes", .processes, "starts processes"),
        ("environment", .environment, "reads environment variables"),
    ]

    /// Parses `--allow` text: names separated by commas (`network,files`), or `all`.
    ///
    /// - Throws: ``CapabilityError`` naming an unknown capability.
    public init(parsing text: String) throws {
        var result: PluginCapabilities = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingSpaces() }) {
            if word == "all" { result.formUnion(.all); continue }
            guard let entry = Self.named.first(where: { $0.name == word }) else {
                let names = Self.named.map(\.name).joined(separator: ", ")
                throw CapabilityError(message: "unknown capability '\(word)' (capabilities: \(names), or all)")
            }
            result.formUnion(entry.capability)
        }
        self = result
    }

    /// "files, network" (or "nothing").
    public var description: String {
        let names = Self.named.filter { contains($0.capability) }.map(\.name)
        return names.isEmpty ? "nothing" : names.joined(separator: ", ")
    }

    /// "reads and writes files and uses the network".
    var meaning: String {
        // A loop, not filter/map/joined: this runs at every check that
        // requires a reaching plugin, and the generic joined cost 0.18M
        // instructions there (its metadata made at first use).
        var text = ""
        for entry in Self.named where contains(entry.capability) {
            text += text.isEmpty ? entry.meaning : " and " + entry.meaning
        }
        return text
    }
}

/// A malformed `--allow` value.
public struct CapabilityError: Error, CustomStringConvertible {
    /// What is wrong, naming the capabilities there are.
    public let message: String
    /// The message.
    public var description: String { message }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
