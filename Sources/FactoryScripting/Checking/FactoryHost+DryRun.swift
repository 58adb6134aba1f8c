import CDryRun
import FactoryRegistry
import FactoryhostSupport
import LuaBridge

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
    /// run, for ``declare(file:source:arguments:timeLimit:asSpec:)`` to find those never reached.
    /// What a dry run registers cannot be built: it keeps no factories
    /// (building one throws an error that says so), only each `make`
    /// function alive, as a run would.
    ///
    /// - Throws: a `LuaError` when the dry-run library cannot be set up in the host's state.
    public func beginDryRun() throws {
        guard !isDryRun else { return }
        let stop = try lua.frameFunction("stop") { [unowned self] frame in
            let place = try frame.string(1)
            let reason = try frame.string(2)
            throw self.stopDryRun(.sideEffect, at: place, reason: reason)
        }
        let open = try lua.function(cFunction: fh_dry_run_library)
        let stubsSource = String(decoding: PackageResources.spec_stubs_lua, as: UTF8.self)
        guard case .table(let library)? = try open.call(.function(stop), LuaValue(stubsSource)).first,
              case .function(let stopped) = try library.rawGet("stopped"),
              case .function(let stubs) = try library.rawGet("spec_stubs") else {
            throw LuaError(.runtime, "the dry-run library did not load")
        }
        var loadedFiles: LuaFunction?
        if case .function(let search) = try library.rawGet("loaded_files") { loadedFiles = search }
        checkSession = CheckSession(stoppedModule: stopped, specStubs: stubs, loadedFilesSearch: loadedFiles, kept: try lua.newTable())
    }

    /// The factory of every registration a dry run declares: a dry run
    /// stops at the first container, so nothing it declares is ever built,
    /// and an embedder who builds from its registry anyway is told why.
    static let dryRunFactory = UntypedFactory(checksResults: true) { _, _ in
        throw RegistryError(.factoryFailed, "declared during a dry run (check or graph), which keeps no factories: "
                            + "declare it again in a host that is not in a dry run to build it")
    }

    /// Stops the dry run for good (see `LuaState.stop(_:)`) and returns
    /// the error to raise: `place` is Lua's `"file:line: "` or empty.
    func stopDryRun(_ reason: DeclarationRun.Stop.Reason, at place: String, reason text: String) -> LuaRaise {
        let origin = place.isEmpty ? nil : Origin(parsingWhere: place)
        if let session = checkSession, session.stop == nil { session.stop = DeclarationRun.Stop(reason: reason, origin: origin, message: text) }
        let message = place + "[factoryhost check] " + text
        lua.stop(message)
        return LuaRaise(message)
    }

    /// A plugin module as a dry run sees it: every function in it stops the run.
    func stoppedCopy(of module: LuaTable, name: String, reaching capabilities: PluginCapabilities) throws -> LuaTable {
        guard let stoppedModule = checkSession?.stoppedModule else { return module }
        let plugin = name.hasPrefix("factoryhost.") ? String(name.dropFirst("factoryhost.".count)) : name
        guard case .table(let copy)? = try stoppedModule.call(.table(module), LuaValue("the \(plugin) plugin \(capabilities.meaning)")).first else {
            return module
        }
        return copy
    }

    /// Runs the script at `path` (`-`: standard input; `source`, when given,
    /// is its text, read by the caller) in dry-run mode (see
    /// ``beginDryRun()``, called here if it was not) with `arguments` in
    /// `arg` and `...`, under `timeLimit`; then finds the declarations it
    /// has — in the script and the modules it requires — that the run never
    /// reached. As a spec file (`asSpec`: the caller knows which files are
    /// specs; the test runner's are `*_spec.lua`) it runs with `describe`
    /// running its body and `it`, `pending` and the hooks doing nothing; only
    /// its top-level declarations must be reached.
    @discardableResult
    public func declare(file path: String, source given: [UInt8]? = nil, arguments: [String] = [],
                        timeLimit: Duration? = .seconds(10), asSpec isSpec: Bool = false) -> DeclarationRun {
        var result = DeclarationRun()
        var source: [UInt8]
        let session: CheckSession
        do {
            try beginDryRun()
            guard let begun = checkSession else { throw LuaError(.runtime, "the dry run did not begin") }
            session = begun
            if path != "-" { try addModuleDirectory(of: path) } else { try addProjectModuleDirectories(forScript: "-") }
            source = try given ?? Self.readSource(path)
            if path == "-" { result.standardInputSource = source }
            if isSpec { try installSpecStubs() }
        } catch {
            result.error = error
            return result
        }
        let chunkName = path == "-" ? "=stdin" : "@" + path
        // The scan needs only the bytes: a large source is scanned on a
        // thread of its own while Lua compiles and runs it (100,000
        // registrations: ~90 ms of check's ~1 s); a small one at once,
        // cheaper than starting a thread.
        let mainScan = BackgroundWork(inBackground: source.count >= Self.backgroundScanSize) { [source] in
            DeclarationSites(source: source)
        }
        if case .table(let package)? = try? lua.global("package"), case .string(let value)? = try? package.rawGet("path") {
            session.initialPackagePath = value.description
        }
        lua.timeLimit = timeLimit
        lua.hardStop = .exitProcess(grace: .seconds(1), prefix: "\(ProgramName.current): ")
        defer { lua.timeLimit = nil }
        do {
            let main = try lua.load(bytes: Self.withoutShebang(source), chunkName: chunkName)
            source = []     // not kept while the script runs (the scan holds its own reference)
            let arg = try lua.newTable(arrayCapacity: arguments.count, hashCapacity: 1)
            try arg.rawSet(.integer(0), LuaValue(path))
            for (index, word) in arguments.enumerated() { try arg.rawSet(.integer(index + 1), LuaValue(word)) }
            try lua.setGlobal("arg", .table(arg))
            _ = try main.call(arguments: arguments.map { LuaValue($0) })
        } catch let error as LuaError where error.kind == .stopped || error.kind == .timeLimit {
            if error.kind == .timeLimit {
                session.stop = DeclarationRun.Stop(reason: .timeLimit, origin: error.place.map { Origin(file: $0.file, line: $0.line) },
                                                   message: error.messageAfterPlace)
            }
        } catch {
            result.error = error
        }
        // No finalizer runs from here on: the script is over (a process
        // using the dry run exits without closing the state, see
        // `finishDryRun`), and one could print, loop or exit.
        lua.stopGarbageCollector()
        result.stop = session.stop
        result.declarationErrors = session.declarationErrors
        // A script that failed is reported with its error; what it never
        // reached then is unreached because of the failure, not a branch.
        var failure: DeclarationRun.Stop?
        session.scriptFailed = result.error != nil
        if let error = result.error as? LuaError, error.kind == .syntax {
            // It never ran: the syntax error is the one thing to say.
            result.stop = session.stop
            return result
        }
        if session.stop == nil, let error = result.error as? LuaError {
            // A module that did not compile fails at its own line, not at "error loading module …".
            let (origin, text, _) = placeAndMessage(of: error)
            failure = DeclarationRun.Stop(reason: .sideEffect, origin: origin, message: text)
        }
        let mainSites = mainScan.value()
        result.unreached = unreachedDeclarations(session, mainSites: mainSites, mainChunk: chunkID(chunkName), spec: isSpec,
                                                 failure: failure)
        return result
    }

    // MARK: What was never reached

    /// Declarations in the script and in the modules and files it runs
    /// (loaded or not) that the run did not reach — and, if the run stopped,
    /// what after the stop the scan cannot follow (a call of a function that
    /// declares, code loaded from a computed name, the DSL used as a value).
    private func unreachedDeclarations(_ session: CheckSession, mainSites: DeclarationSites, mainChunk: String, spec: Bool,
                                       failure: DeclarationRun.Stop?) -> [DeclarationRun.Unreached] {
        let dryStop = session.stop
        let stop = dryStop ?? failure
        let stopped = dryStop != nil ? "check stopped" : "the script failed"
        // (The stop's first line: a reason quotes it, the failure itself is reported in full once.)
        let stopText = stop.map { stop in
            (stop.origin.map { "\($0)" } ?? "an unknown place") + ": "
                + String(stop.message.split(separator: "\n", maxSplits: 1).first ?? "").prefix(160)
        }
        let stopHint = "declare configurations and scopes before the script's first container, "
            + "or anything with side effects — in a module it requires first, as the examples do"
        let hint = dryStop != nil || failure == nil ? stopHint
            : "fix that error: check sees only what the script declares before it"
        let reachedFiles = Set(session.reachedDeclarations.map(\.file))
        let bodies = spec ? testBodyRanges() : []
        var found: [DeclarationRun.Unreached] = []
        var scanned: Set<String> = [mainChunk]
        struct Entry { var sites: DeclarationSites; var chunk: String; var ran: Bool; var requiredAt: String? }
        var queue = [Entry(sites: mainSites, chunk: mainChunk, ran: true, requiredAt: nil)]
        for file in loadedModuleFiles() where !scanned.contains(chunkID("@" + file)) {
            scanned.insert(chunkID("@" + file))
            if let bytes = try? Self.readSource(file) {
                queue.append(Entry(sites: DeclarationSites(source: bytes), chunk: chunkID("@" + file), ran: true))
            }
        }
        // The functions each loaded file declares with, for calls through the
        // name a file binds it to (`local m = require "mod"` … `m.setup(…)`).
        var declaringIn: [String: [(name: String, first: Int)]] = [:]
        for entry in queue { declaringIn[entry.chunk] = entry.sites.functions.map { ($0.name, $0.first) } }
        // Where the run stopped in the script itself (its line, or the line that required where it stopped).
        var mainStopLine: Int?
        if let origin = stop?.origin {
            if origin.file == mainChunk { mainStopLine = origin.line }
            else if let required = (mainSites.requires.map { ($0.name, $0.line) } + mainSites.files.map { ($0.name, $0.line) })
                        .first(where: { name, _ in chunkID("@" + (searchModule(name) ?? name)) == origin.file }) {
                mainStopLine = required.1
            }
        }
        var index = 0
        while index < queue.count {
            let entry = queue[index]
            index += 1
            let sites = entry.sites
            // Where the run stopped in this file: the stop's line, or the line
            // requiring the module it stopped in; nil if it did not stop here.
            var stopLine: Int?
            if let origin = stop?.origin {
                if origin.file == entry.chunk { stopLine = origin.line }
                else if let required = (sites.requires.map { ($0.name, $0.line) } + sites.files.map { ($0.name, $0.line) })
                            .first(where: { name, _ in chunkID("@" + (searchModule(name) ?? name)) == origin.file }) {
                    stopLine = required.1
                }
            }
            func after(_ line: Int) -> Bool { stop != nil && (stopLine.map { line >= $0 } ?? !entry.ran) }
            // A use of code loading on the line that failed is what failed, not
            // something after it (a stop's line is the stopping call's).
            func usedAfter(_ line: Int) -> Bool { after(line) && (dryStop != nil || stopLine.map { line > $0 } ?? true) }
            for site in sites.all {
                if spec && entry.chunk == mainChunk && bodies.contains(where: { $0.file == entry.chunk && $0.lines.contains(site.line) }) {
                    continue                                   // a test's own declaration
                }
                let origin = Origin(file: entry.chunk, line: site.line)
                let reached = site.name.map { session.reachedNames.contains("\(origin)#\($0)") } ?? session.reachedDeclarations.contains(origin)
                if entry.ran && reached { continue }
                let why: String
                var tip = hint
                if dryStop == nil, let stopText, session.startedDeclarations.contains(origin) {
                    why = "its body failed, at \(stopText)"
                    tip = "fix that error: nothing in the configuration was checked"
                } else if dryStop != nil, let stopText, session.startedDeclarations.contains(origin) {
                    // Stopped while its body was being made (the time limit, a side effect in it).
                    why = "\(stopped) inside it, at \(stopText)"
                    if dryStop?.reason == .timeLimit {
                        tip = "give check more time (--timeout), or take the slow work out of the declaration"
                    }
                } else if let requiredAt = entry.requiredAt {
                    why = "it is in \(entry.chunk), run at \(requiredAt), which the run never reached"
                        + (stopText.map { " (\(stopped) at \($0))" } ?? "")
                } else if let stopText, after(site.line) || site.inFunction || stopLine == nil {
                    why = "\(stopped) before it, at \(stopText)"
                } else {
                    why = "the script never ran it (it is in a function never called, or a branch not taken)"
                    tip = "check sees what the script runs: declare it unconditionally, at the top level of the script "
                        + "or of a module it requires"
                }
                found.append(.init(origin: origin, declaration: site.label, reason: why, hint: tip))
            }
            if let stopText {
                // What runs after the stop that the scan cannot follow.
                for use in sites.opaque where usedAfter(use.line) {
                    found.append(.init(origin: Origin(file: entry.chunk, line: use.line), declaration: use.what,
                                       reason: "\(stopped) before it, at \(stopText), and cannot see what it declares",
                                       hint: hint))
                }
                // Taken as a value before the stop, and the script goes on after it: it may be called there.
                if dryStop != nil, let mainStop = mainStopLine, mainSites.lastLine > mainStop {
                    for use in sites.opaque where use.escapes && !usedAfter(use.line) {
                        found.append(.init(origin: Origin(file: entry.chunk, line: use.line), declaration: use.what,
                                           reason: "it may be called under another name after \(stopped), at \(stopText), "
                                               + "where check cannot follow it", hint: hint))
                    }
                }
                for alias in sites.aliases {
                    // A plain call of the alias, or, for a field of a table constructor, a call through a table.
                    for call in sites.calls where call.name == alias.name && (call.qualifier == nil || alias.inTable)
                        && usedAfter(call.line) && call.line != alias.line {
                        found.append(.init(origin: Origin(file: entry.chunk, line: call.line),
                                           declaration: "\(alias.name) (the DSL, as bound at \(entry.chunk):\(alias.line))",
                                           reason: "it is called after \(stopped), at \(stopText)", hint: hint))
                    }
                }
                for required in sites.requires where usedAfter(required.line) && !isLoaded(required.name)
                    && !isPreloaded(required.name) && searchModule(required.name) == nil {
                    found.append(.init(origin: Origin(file: entry.chunk, line: required.line),
                                       declaration: "require \"\(required.name)\"",
                                       reason: "\(stopped) before it, at \(stopText), and cannot find the module to see what it declares",
                                       hint: hint))
                }
                let declaring = Set(sites.all.compactMap(\.function))
                for function in sites.functions where declaring.contains(function.name) {
                    // Called as it was defined: `setup(…)` for `function setup`, `M.setup(…)` for `function M.setup`.
                    for call in sites.calls where call.name == function.name && call.qualifier == function.qualifier && usedAfter(call.line)
                        && !(function.first...function.last).contains(call.line) {
                        found.append(.init(origin: Origin(file: entry.chunk, line: call.line),
                                           declaration: "\(function.name)(…), which declares (\(entry.chunk):\(function.first)),",
                                           reason: "it is called after \(stopped), at \(stopText)", hint: hint))
                    }
                }
                // `m.setup(…)` where `local m = require "mod"` and mod declares in setup.
                for call in sites.calls where usedAfter(call.line) {
                    guard let qualifier = call.qualifier,
                          let module = sites.moduleNames.last(where: { $0.name == qualifier })?.module,
                          let file = searchModule(module) else { continue }
                    let chunk = chunkID("@" + file)
                    guard chunk != entry.chunk, let function = declaringIn[chunk]?.first(where: { $0.name == call.name }) else { continue }
                    found.append(.init(origin: Origin(file: entry.chunk, line: call.line),
                                       declaration: "\(qualifier).\(call.name)(…), which declares (\(chunk):\(function.first)),",
                                       reason: "it is called after \(stopped), at \(stopText)", hint: hint))
                }
            }
            // Modules and files this one runs by name that never finished: scan them too.
            for required in sites.requires where !isLoaded(required.name) {
                guard let file = searchModule(required.name) else { continue }
                let chunk = chunkID("@" + file)
                guard !scanned.contains(chunk) else { continue }
                let bytes: [UInt8]
                do {
                    bytes = try Self.readSource(file)
                } catch {
                    // Too big to read whole (or unreadable): what it declares is unknown.
                    if let stopText, usedAfter(required.line) {
                        found.append(.init(origin: Origin(file: entry.chunk, line: required.line),
                                           declaration: "require \"\(required.name)\"",
                                           reason: "\(stopped) before it, at \(stopText), and cannot read the module to see what it declares ("
                                               + MessageText.oneLine(String(describing: error).prefix(200).description) + ")", hint: hint))
                    }
                    continue
                }
                scanned.insert(chunk)
                let ran = reachedFiles.contains(chunk) || stop?.origin?.file == chunk
                queue.append(Entry(sites: DeclarationSites(source: bytes), chunk: chunk, ran: ran,
                                   requiredAt: ran ? nil : "\(entry.chunk):\(required.line)"))
            }
            for run in sites.files {
                let chunk = chunkID("@" + run.name)
                guard !scanned.contains(chunk), let bytes = try? Self.readSource(run.name) else { continue }
                scanned.insert(chunk)
                let ran = reachedFiles.contains(chunk) || stop?.origin?.file == chunk || !after(run.line)
                queue.append(Entry(sites: DeclarationSites(source: bytes), chunk: chunk, ran: ran,
                                   requiredAt: ran ? nil : "\(entry.chunk):\(run.line)"))
            }
        }
        return found
    }

    /// The Lua files of the modules loaded now, found as `require` found them.
    private func loadedModuleFiles() -> [String] {
        if case .table(let files)? = try? checkSession?.loadedFilesSearch?.call(checkSession?.initialPackagePath.map { LuaValue($0) } ?? .nil).first,
           let items = try? files.array() {
            return items.compactMap { item in
                guard case .string(let file) = item else { return nil }
                return file.description
            }.sorted()
        }
        // Without the snapshot: every loaded module's name.
        guard case .table(let package)? = try? lua.global("package"),
              case .table(let loaded)? = try? package.rawGet("loaded"),
              let entries = try? loaded.pairs() else { return [] }
        return entries.compactMap { key, _ in
            guard case .string(let name) = key else { return nil }
            return searchModule(name.description)
        }.sorted()
    }

    private func isPreloaded(_ name: String) -> Bool {
        guard case .table(let package)? = try? lua.global("package"),
              case .table(let preload)? = try? package.rawGet("preload"),
              let value = try? preload.rawGet(LuaValue(name)) else { return false }
        return !value.isNil
    }

    private func isLoaded(_ name: String) -> Bool {
        guard case .table(let package)? = try? lua.global("package"),
              case .table(let loaded)? = try? package.rawGet("loaded"),
              let value = try? loaded.rawGet(LuaValue(name)) else { return false }
        return !value.isNil
    }

    /// `package.searchpath(name, package.path)` — with the path as the run
    /// left it, then as it started — if it finds a file. (The lookup is
    /// compiled once per host.)
    private func searchModule(_ name: String) -> String? {
        guard let session = checkSession else { return nil }
        if session.moduleSearch == nil {
            guard case .function(let function)? = try? lua.run("""
                    return function(name, initial)
                      return package.searchpath(name, package.path) or (initial and package.searchpath(name, initial))
                    end
                    """, name: "=[factoryhost check]").first else { return nil }
            session.moduleSearch = function
        }
        guard case .string(let file)? = try? session.moduleSearch?.call(LuaValue(name), session.initialPackagePath.map { LuaValue($0) } ?? .nil).first
        else { return nil }
        return file.description
    }

    // MARK: Spec files

    /// `describe` runs its body; `it`, `pending`, the hooks and `expect` do nothing.
    private func installSpecStubs() throws {
        guard let session = checkSession else { return }
        if case .table(let bodies)? = try session.specStubs.call().first { session.testBodies = bodies }
    }

    /// A spec file's describes and tests that name a configuration the script
    /// does not declare (`{ config = "ap" }`): the runner fails each of their
    /// tests; check says it once per place.
    func unknownSpecConfigurations() -> [CheckProblem] {
        guard let bodies = checkSession?.testBodies, case .table(let configs)? = try? bodies.rawGet("configs"),
              let items = try? configs.array() else { return [] }
        let declared = registry.configurationNames
        var problems: [CheckProblem] = []
        for item in items {
            guard case .table(let entry) = item, case .string(let config)? = try? entry.rawGet("config"),
                  registry.configuration(config.description) == nil else { continue }
            let what = (try? entry.rawGet("what")).flatMap { if case .string(let s) = $0 { return s.description } else { return nil } } ?? "describe"
            let name = (try? entry.rawGet("name")).flatMap { if case .string(let s) = $0 { return s.shown } else { return nil } } ?? "?"
            var origin: Origin?
            if case .string(let file)? = try? entry.rawGet("file"), let line = try? Int.fromLua(entry.rawGet("line")) {
                origin = Origin(file: file.description, line: line)
            }
            problems.append(CheckProblem(
                kind: "unknownConfiguration",
                message: "\(what) '\(MessageText.oneLine(MessageText.bounded(name, limit: 200)))' names configuration "
                    + "'\(MessageText.oneLine(MessageText.bounded(config.shown, limit: 200)))', which is not declared"
                    + NameSuggestion.didYouMean(config.description, among: declared),
                origin: origin,
                details: ["declared: " + (declared.isEmpty ? "none" : declared.prefix(20).joined(separator: ", "))]))
        }
        return problems
    }

    /// The test and hook bodies of a spec file, as (file, first line, last line).
    private func testBodyRanges() -> [(file: String, lines: ClosedRange<Int>)] {
        guard let testBodies = checkSession?.testBodies else { return [] }
        // (The table also holds `configs`: its list part is read, not as a whole array.)
        var items: [LuaValue] = []
        while case let item? = try? testBodies.rawGet(.integer(items.count + 1)), !item.isNil { items.append(item) }
        return items.compactMap { item in
            guard case .table(let entry) = item, case .string(let file)? = try? entry.rawGet("file"),
                  let first = try? Int.fromLua(entry.rawGet("first")), let last = try? Int.fromLua(entry.rawGet("last")),
                  first <= last else { return nil }
            return (file.description, first...last)
        }
    }

    // MARK: Reading sources

    /// From this size on, a source is scanned for declarations on a thread
    /// of its own (64 KB: ~1,000 lines; scanning takes ~1 ms, starting a thread ~50 µs).
    static let backgroundScanSize = 64 * 1024

    /// The most a script may hold — read from a file, a pipe, a FIFO or
    /// standard input: check and graph read it whole (a 3 GB file aborted
    /// the process under a memory cap; `run` streams it).
    public static let streamedSourceLimit = 256 << 20

    static func readSource(_ path: String) throws -> [UInt8] {
        let file = path == "-" ? fdopen(dup(0), "rb") : fopen(path, "rb")
        guard let file else {
            throw LuaError(.file, "cannot open \(path == "-" ? "standard input" : path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var status = stat()
        let known = fstat(fileno(file), &status) == 0
        // A device (/dev/zero, a disk) may never end, and is no script: 1 MB of it at most (/dev/null, a terminal: fine).
        let isDevice = known && ((status.st_mode & S_IFMT) == S_IFCHR || (status.st_mode & S_IFMT) == S_IFBLK)
        let limit = isDevice ? 1 << 20 : Self.streamedSourceLimit
        let isRegular = known && (status.st_mode & S_IFMT) == S_IFREG
        if isRegular, status.st_size > limit {
            throw LuaError(.file, "\(path) is \(status.st_size >> 20) MB: a script is read whole, up to \(limit >> 20) MB")
        }
        if isRegular, status.st_size > 0 {
            bytes.reserveCapacity(Int(status.st_size))       // one buffer, not a doubling series of them
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
            // A pipe or FIFO may never end (and a file may grow): past this much it is not a script anyone wrote.
            if bytes.count > limit {
                throw LuaError(.file, "\(path == "-" ? "standard input" : path) gave more than \(limit >> 20) MB"
                               + "\(isRegular ? "" : " without ending")\(isDevice ? " (a device)" : ""): a script is read whole, and reading stopped")
            }
        }
        if ferror(file) != 0 { throw LuaError(.file, "cannot read \(path)") }
        if bytes.first == 0x1B { throw LuaError(.file, "\(path) is a precompiled chunk: check reads Lua source") }
        return bytes
    }

    /// A first line starting with `#` blanked (its newline kept, so lines count the same), as Lua skips it.
    static func withoutShebang(_ source: [UInt8]) -> [UInt8] {
        // A UTF-8 byte order mark first is skipped, as lua5.4 (luaL_loadfilex) skips it, then a `#` line.
        let text = source.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(source.dropFirst(3)) : source
        guard text.first == UInt8(ascii: "#") else { return text }
        let end = text.firstIndex(of: 10) ?? text.count
        return Array(text[end...])
    }

    /// Lua's `short_src` for a chunk name, asked of Lua (``LuaState/chunkID(_:)``).
    func chunkID(_ name: String) -> String { lua.chunkID(name) }

    /// The innermost `file:line` of a traceback, for an error whose message
    /// has no place ("C stack overflow", raised by Lua itself).
    static func innermostPlace(_ traceback: String?) -> Origin? {
        LuaError.innermostPlace(in: traceback).map(Origin.init(parsingWhere:))
    }
}
