import FactoryRegistry
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `check` and `graph` run a script only to collect its declarations, and
// without side effects: the run stops — for good, whatever the script
// catches — at the first container, at the first call that would change
// something outside the process, or at its time limit.

extension FactoryHost {
    /// Puts the host in dry-run mode, before any script (or Lua plugin) runs:
    /// from now on `container`/`resolve` stop the run, as do io/os calls that
    /// write or remove files or start processes, `os.exit`, loading native
    /// code, and every function of a Swift plugin that reaches files, the
    /// network or processes. A stop cannot be caught: no message handler,
    /// `__close` or `__gc` runs after it. Declarations are recorded as they
    /// run, for ``declare(file:arguments:timeLimit:)`` to find those never reached.
    public func beginDryRun() throws {
        guard !isDryRun else { return }
        isDryRun = true
        stopsAtFirstContainer = true
        let stop = try lua.frameFunction("stop") { [unowned self] frame in
            let place = try frame.string(1)
            let reason = try frame.string(2)
            throw self.stopDryRun(.sideEffect, at: place, reason: reason)
        }
        let chunk = try lua.load(bytes: PackageResources.dry_run_lua, chunkName: "=[factoryhost check]")
        guard case .table(let library)? = try chunk.call(.function(stop)).first,
              case .function(let stopped) = try library.rawGet("stopped"),
              case .function(let stubs) = try library.rawGet("spec_stubs") else {
            throw LuaError(.runtime, "the dry-run library did not load")
        }
        stoppedModule = stopped
        specStubs = stubs
    }

    /// Stops the dry run for good (see ``LuaState/stop(_:)``) and returns
    /// the error to raise: `place` is Lua's `"file:line: "` or empty.
    func stopDryRun(_ reason: DeclarationRun.Stop.Reason, at place: String, reason text: String) -> LuaRaise {
        let origin = place.isEmpty ? nil : Origin(parsingWhere: place)
        if dryStop == nil { dryStop = DeclarationRun.Stop(reason: reason, origin: origin, message: text) }
        let message = place + "[factoryhost check] " + text
        lua.stop(message)
        return LuaRaise(message)
    }

    /// A plugin module as a dry run sees it: every function in it stops the run.
    func stoppedCopy(of module: LuaTable, name: String, reaching capabilities: PluginCapabilities) throws -> LuaTable {
        guard let stoppedModule else { return module }
        let plugin = name.hasPrefix("factoryhost.") ? String(name.dropFirst("factoryhost.".count)) : name
        guard case .table(let copy)? = try stoppedModule.call(.table(module), LuaValue("the \(plugin) plugin \(capabilities.meaning)")).first else {
            return module
        }
        return copy
    }

    /// Runs the script at `path` (`-`: standard input) in dry-run mode (see
    /// ``beginDryRun()``, called here if it was not) with `arguments` in
    /// `arg` and `...`, under `timeLimit`; then finds the declarations it
    /// has — in the script and the modules it requires — that the run never
    /// reached. A spec file (`*_spec.lua`) runs with `describe` running its
    /// body and `it`, `pending` and the hooks doing nothing; only its
    /// top-level declarations must be reached.
    @discardableResult
    public func declare(file path: String, arguments: [String] = [], timeLimit: Duration? = .seconds(10)) -> DeclarationRun {
        var result = DeclarationRun()
        let isSpec = path.hasSuffix("_spec.lua")
        let source: [UInt8]
        do {
            try beginDryRun()
            if path != "-" { try addModuleDirectory(of: path) }
            source = try Self.readSource(path)
            if isSpec { try installSpecStubs() }
        } catch {
            result.error = error
            return result
        }
        let chunkName = path == "-" ? "=stdin" : "@" + path
        lua.timeLimit = timeLimit
        lua.hardStop = .exitProcess(grace: .seconds(1), prefix: "factoryhost: ")
        defer { lua.timeLimit = nil }
        do {
            let main = try lua.load(bytes: Self.withoutShebang(source), chunkName: chunkName)
            let arg = try lua.newTable(arrayCapacity: arguments.count, hashCapacity: 1)
            try arg.rawSet(.integer(0), LuaValue(path))
            for (index, word) in arguments.enumerated() { try arg.rawSet(.integer(index + 1), LuaValue(word)) }
            try lua.setGlobal("arg", .table(arg))
            _ = try main.call(arguments: arguments.map { LuaValue($0) })
        } catch let error as LuaError where error.kind == .stopped || error.kind == .timeLimit {
            if error.kind == .timeLimit {
                let (place, text) = Self.splitPlace(error.message)
                dryStop = DeclarationRun.Stop(reason: .timeLimit, origin: place.map(Origin.init(parsingWhere:)), message: text)
            }
        } catch {
            result.error = error
        }
        // No finalizer runs from here on: the script is over (a process
        // using the dry run exits without closing the state, see
        // `finishDryRun`), and one could print, loop or exit.
        lua.stopGarbageCollector()
        result.stop = dryStop
        result.unreached = unreachedDeclarations(mainSource: source, mainChunk: Self.chunkID(chunkName), spec: isSpec)
        return result
    }

    // MARK: What was never reached

    /// Declarations in the script and in the modules it requires (loaded or
    /// not) that the run did not reach.
    private func unreachedDeclarations(mainSource: [UInt8], mainChunk: String, spec: Bool) -> [DeclarationRun.Unreached] {
        let stopText = dryStop.map { stop in
            (stop.origin.map { "\($0)" } ?? "an unknown place") + ": " + stop.message
        }
        var found: [DeclarationRun.Unreached] = []
        var scanned: Set<String> = []
        // (source, chunk id, whether it ran, who required it)
        var queue: [(bytes: [UInt8], chunk: String, ran: Bool, requiredAt: String?)] = [(mainSource, mainChunk, true, nil)]
        for (name, file) in loadedModuleFiles() where !scanned.contains(file) {
            scanned.insert(file)
            if let bytes = try? Self.readSource(file) { queue.append((bytes, Self.chunkID("@" + file), true, nil)) }
            _ = name
        }
        var index = 0
        while index < queue.count {
            let entry = queue[index]
            index += 1
            let sites = DeclarationSites(source: entry.bytes)
            for site in sites.all where !(spec && entry.chunk == mainChunk && site.inFunction) {
                let origin = Origin(file: entry.chunk, line: site.line)
                guard !entry.ran || !reachedDeclarations.contains(origin) else { continue }
                let why: String
                var hint = "declare configurations and scopes before the script's first container, "
                    + "or anything with side effects — in a module it requires first, as the examples do"
                if let requiredAt = entry.requiredAt {
                    why = "its module is required at \(requiredAt), which the run never reached"
                        + (stopText.map { " (check stopped at \($0))" } ?? "")
                } else if let stopText {
                    why = "check stopped before it, at \(stopText)"
                } else {
                    why = "the script never ran it (it is in a function never called, or a branch not taken)"
                    hint = "check sees what the script runs: declare it unconditionally, at the top level of the script "
                        + "or of a module it requires"
                }
                found.append(.init(origin: origin, declaration: site.label, reason: why, hint: hint))
            }
            // Modules this file requires that never loaded: their declarations were never run.
            for required in sites.requires where !isLoaded(required.name) {
                guard let file = searchModule(required.name), !scanned.contains(file),
                      let bytes = try? Self.readSource(file) else { continue }
                scanned.insert(file)
                queue.append((bytes, Self.chunkID("@" + file), false, "\(entry.chunk):\(required.line)"))
            }
        }
        return found
    }

    /// The Lua files of the modules loaded now, found as `require` found them.
    private func loadedModuleFiles() -> [(String, String)] {
        guard case .table(let package)? = try? lua.global("package"),
              case .table(let loaded)? = try? package.rawGet("loaded"),
              let entries = try? loaded.pairs() else { return [] }
        return entries.compactMap { key, _ in
            guard case .string(let name) = key else { return nil }
            return searchModule(name.description).map { (name.description, $0) }
        }.sorted { $0.1 < $1.1 }
    }

    private func isLoaded(_ name: String) -> Bool {
        guard case .table(let package)? = try? lua.global("package"),
              case .table(let loaded)? = try? package.rawGet("loaded"),
              let value = try? loaded.rawGet(LuaValue(name)) else { return false }
        return !value.isNil
    }

    /// `package.searchpath(name, package.path)`, if it finds a file.
    private func searchModule(_ name: String) -> String? {
        guard let searchpath = try? lua.run("return function(name) return package.searchpath(name, package.path) end",
                                           name: "=[factoryhost check]"),
              case .function(let function)? = searchpath.first,
              case .string(let file)? = try? function.call(LuaValue(name)).first else { return nil }
        return file.description
    }

    // MARK: Spec files

    /// `describe` runs its body; `it`, `pending`, the hooks and `expect` do nothing.
    private func installSpecStubs() throws {
        guard let stubs = specStubs else { return }
        _ = try stubs.call()
    }

    // MARK: Reading sources

    static func readSource(_ path: String) throws -> [UInt8] {
        let file = path == "-" ? fdopen(dup(0), "rb") : fopen(path, "rb")
        guard let file else {
            throw LuaError(.file, "cannot open \(path == "-" ? "standard input" : path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        if ferror(file) != 0 { throw LuaError(.file, "cannot read \(path)") }
        if bytes.first == 0x1B { throw LuaError(.file, "\(path) is a precompiled chunk: check reads Lua source") }
        return bytes
    }

    /// A first line starting with `#` blanked (its newline kept, so lines count the same), as Lua skips it.
    static func withoutShebang(_ source: [UInt8]) -> [UInt8] {
        guard source.first == UInt8(ascii: "#") else { return source }
        let end = source.firstIndex(of: 10) ?? source.count
        return Array(source[end...])
    }

    /// Lua's `short_src` for a chunk name (luaO_chunkid, LUA_IDSIZE 60).
    static func chunkID(_ name: String) -> String {
        let size = 60 - 1
        if name.hasPrefix("=") {
            return String(decoding: Array(name.utf8.dropFirst()).prefix(size), as: UTF8.self)
        }
        if name.hasPrefix("@") {
            let path = Array(name.utf8.dropFirst())
            if path.count <= size { return String(decoding: path, as: UTF8.self) }
            return "..." + String(decoding: path.suffix(size - 3), as: UTF8.self)
        }
        return name
    }

    /// `"file:12: text"` → `("file:12: ", "text")`.
    static func splitPlace(_ message: String) -> (String?, String) {
        var index = message.startIndex
        while let colon = message[index...].firstIndex(of: ":") {
            var end = message.index(after: colon)
            while end < message.endIndex, message[end].isASCII, message[end].isNumber { end = message.index(after: end) }
            if end > message.index(after: colon), message[end...].hasPrefix(": ") {
                let after = message.index(end, offsetBy: 2)
                return (String(message[..<after]), String(message[after...]))
            }
            index = message.index(after: colon)
        }
        return (nil, message)
    }
}
