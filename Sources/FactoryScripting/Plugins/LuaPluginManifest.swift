import FactoryRegistry
import FactoryhostSupport
import LuaBridge

/// A Lua plugin's `manifest.lua`: a chunk that returns plain data, run with
/// an empty environment (it can compute nothing from the host).
///
/// ```lua
/// -- plugins/analytics/manifest.lua
/// return { name = "analytics", version = "1.2.0", requires = { "networking" } }
/// ```
public struct LuaPluginManifest: Sendable {
    /// The plugin's name: what other plugins' `requires` list (`FactoryHost.plugins` has it too).
    public let name: String
    /// Its version, as the manifest says.
    public let version: String
    /// The plugins it needs installed first, by name.
    public let requires: [String]
    /// The plugin's directory; its factories are registered by `init.lua` there.
    public let directory: String
    /// The manifest's path.
    public var manifestPath: String { directory + "/manifest.lua" }
    /// The path of the `init.lua` that installs it.
    public var entryPath: String { directory + "/init.lua" }

    static let fields = ["name", "requires", "version"]

    /// How long a manifest's Lua may run, and how much memory it may take:
    /// it is plain data (a looping one hung `run` and `repl`; a 3 GB one was
    /// read whole, and aborted the process under a memory cap).
    static let timeLimit: Duration = .seconds(2)
    static let memoryLimit = 16 << 20
    /// The largest manifest file read.
    static let sizeLimit = 16 << 20

    /// Reads and checks the manifest in `directory`, in a state of its own
    /// with no library, under ``timeLimit`` and ``memoryLimit`` (the file
    /// streamed in, never read whole).
    static func read(directory: String, within limit: Duration? = nil) throws -> LuaPluginManifest {
        let path = directory + "/manifest.lua"
        func bad(_ problem: String) -> LuaError {
            LuaError(.runtime, "\(path): bad plugin manifest: \(problem)")
        }
        // Lua's parser reads a comment to its end with no limit looking (a 20 GB
        // sparse file after "--" held the command for good): the size first.
        if let size = Directory.size(of: path), size > Int64(sizeLimit) {
            throw bad("it is \(size >> 20 > 0 ? "\(size >> 20) MB" : "\(size) bytes"), over \(sizeLimit >> 20) MB (a manifest is plain data)")
        }
        let lua = try LuaState(libraries: .none)
        lua.timeLimit = min(timeLimit, limit ?? timeLimit)
        lua.memoryLimit = memoryLimit
        let results: [LuaValue]
        do {
            results = try lua.loadFile(path, mode: "t").call()
        } catch let error as LuaError {
            switch error.kind {
            case .memory: throw bad("it took more than \(memoryLimit >> 20) MB (a manifest is plain data)")
            case .timeLimit: throw bad("\(MessageText.bounded(error.message, limit: 1024)) (a manifest is plain data)")
            default: throw bad(MessageText.bounded(error.message, limit: 1024))
            }
        }
        guard case .table(let table) = results.first ?? .nil else {
            throw bad("it must return a table { name = …, version = …, requires = { … } } (it returned \(results.first.map(\.typeName) ?? "nothing"))")
        }
        for (key, _) in try table.pairs() {
            guard case .string(let field) = key, fields.contains(field.description) else {
                throw bad("unknown field \(describeKey(key)) (fields: \(fields.joined(separator: ", ")))")
            }
        }
        guard case .string(let name) = try table.rawGet("name"), !name.description.isEmpty else {
            throw bad("'name' must be a non-empty string")
        }
        guard isPluginName(name.description) else {
            throw bad("'name' must be a plugin name — letters, digits, _ and -, at most 64 (got '\(shownName(name.description))')")
        }
        guard case .string(let version) = try table.rawGet("version"), isVersion(version.description) else {
            throw bad("'version' must be a version string such as \"1.0.0\"")
        }
        var requires: [String] = []
        switch try table.rawGet("requires") {
        case .nil: break
        case .table(let list):
            do {
                requires = try [String].fromLua(.table(list))
            } catch let error as LuaError {
                throw bad("'requires' must list plugin names (\(MessageText.bounded(error.message, limit: 200)))")
            }
            if let odd = requires.first(where: { !isPluginName($0) }) {
                throw bad("'requires' must list plugin names — letters, digits, _ and -, at most 64 (got '\(shownName(odd))')")
            }
        case let other: throw bad("'requires' must be a list of plugin names (got \(other.typeName))")
        }
        return LuaPluginManifest(name: name.description, version: version.description, requires: requires, directory: directory)
    }

    /// `1`, `1.2` or `1.2.3`, in ASCII digits (not `١.٢`, nor `½`).
    private static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...3).contains(parts.count) && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 9 && part.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        }
    }

    /// A name another plugin can require: ASCII letters, digits, `_` and `-`, at most 64.
    static func isPluginName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }
}

/// The bytes of the file at `path`, or nil if it cannot be read.
func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count > 0 { bytes.append(contentsOf: buffer[..<count]) }
        if count < buffer.count { return ferror(file) == 0 ? bytes : nil }
    }
}
