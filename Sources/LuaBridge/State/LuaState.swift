import CLua
import CLuaShim
import FactoryhostSupport

/// One Lua 5.4 interpreter, with the rules of a safe embedding built in.
///
/// Every call into Lua is protected and carries a traceback handler; a Lua
/// error comes back as a thrown ``LuaError``. Swift functions called from
/// Lua never let a Lua error unwind through them. Memory, instruction and
/// time limits apply to the code the state runs.
///
/// A state belongs to one thread at a time: it is not `Sendable`.
///
/// ```swift
/// let lua = try LuaState()
/// try lua.register("greet") { call in
///     [.init("hello, " + (try call.argument(1, as: String.self)))]
/// }
/// let out = try lua.run("return greet('world')", name: "demo.lua")
/// try out[0].string()   // "hello, world"
/// ```
public final class LuaState {
    /// The type name a ``LuaUserdata`` was made with last, for the next.
    let userdataTypeNames = LuaStringCache()
    /// Which standard libraries a new state opens.
    public enum Libraries: Sendable {
        /// All of them, as the stock `lua` interpreter.
        case standard
        /// For untrusted code: no io, debug, os.execute/exit/getenv/remove/rename,
        /// dofile/loadfile, package.loadlib or C modules; text chunks only.
        case sandboxed
        /// None at all.
        case none
    }

    /// The main thread; nil once closed.
    private(set) var mainThread: OpaquePointer?
    /// The thread Swift works on now: the main thread, or the coroutine that
    /// called the Swift function running now.
    /// (Unchecked for exclusivity: every Swift function called from Lua
    /// sets and restores it, and the state belongs to one thread.)
    @exclusivity(unchecked) var current: OpaquePointer?
    /// Registry references to the bridge's metatables, by type name (see
    /// `pushObject(_:type:in:)`).
    var metatableReferences: [String: Int32] = [:]
    /// The read-only faces of generated implementations, as weak keys, each
    /// to the table that implements it (see ``presentImplementation(_:as:)``).
    var implementationFaces: LuaTable?
    /// The chunk name ``LuaFrame/position(level:)`` made last, shared while
    /// positions stay in the same chunk.
    private let chunkNames = LuaStringCache()

    /// `bytes` (a chunk name) as text, the last one's storage when equal.
    func chunkName(_ bytes: UnsafeRawBufferPointer) -> String { chunkNames.string(bytes) }
    /// `close()` was asked for while Lua code was running; it happens when
    /// the outermost call returns.
    private var closeRequested = false
    /// What references hold instead of a weak reference to the state: a weak
    /// reference would move every retain and release of the state to a side
    /// table, which made each call from Lua into Swift several times slower.
    let link = LuaStateLink()
    /// The thread the state belongs to (see ``checkOwnerThread(_:)``).
    let ownerThread = LuaStateOwnerThread()
    /// A number no other state of this process has or will have.
    let serial = fh_new_serial()

    /// Creates a state and opens `libraries`.
    ///
    /// - Throws: a `LuaError` of kind `.memory` when the state cannot be allocated, or the error raised while
    ///   `libraries` are opened.
    public init(libraries: Libraries = .standard) throws {
        guard let L = fh_newstate(swiftFunctionDispatch, swiftObjectRelease) else {
            throw LuaError(.memory, "not enough memory")
        }
        mainThread = L
        current = L
        link.state = self
        fh_set_owner(L, Unmanaged.passUnretained(self).toOpaque())
        if libraries != .none {
            let status = fh_openlibs(L, libraries == .sandboxed ? 1 : 0)
            if status != LUA_OK {
                let error = popError(status, L)
                close()
                throw error
            }
        }
    }

    deinit {
        link.state = nil
        close()
    }

    /// Closes the state: every pending `__gc` runs and every Swift object Lua
    /// held is released. Using the state afterwards throws `.closed` errors.
    /// Called from a Swift function while Lua code runs, it takes effect when
    /// the outermost call returns.
    public func close() {
        guard let L = detachForClose() else { return }
        fh_close(L)
    }

    /// Makes `os.exit` end the process with `status` from now on, saying
    /// on standard output that it was called as the state closed: what a
    /// finalizer may call during ``closeAndExit(status:)``, where Lua only
    /// warns of an error raised in one (and Swift functions cannot run).
    ///
    /// ```swift
    /// lua.exitProcessOnOSExit(status: 123)
    /// lua.closeAndExit(status: 0)      // a finalizer's os.exit(1) ends it with 123
    /// ```
    public func exitProcessOnOSExit(status: Int32) {
        if let L = mainThread { _ = fh_exit_on_os_exit(L, status) }
    }

    /// Closes the state and ends the process with `status`: the last step of
    /// a command-line tool. Every `__gc` runs, in Lua's order, and every
    /// Swift object Lua held is released, as with ``close()``; then output
    /// streams are flushed and the process exits — without Lua walking its
    /// heap to free it object by object (a million tables take ~25 ms to
    /// sweep; the exit returns the memory at once). A finalizer that calls
    /// `os.exit` sets the status, as under `lua`. Called while a call into
    /// the state runs, the process exits at once and no finalizer runs.
    ///
    /// ```swift
    /// let status = runScript(in: state)
    /// state.closeAndExit(status: status)
    /// ```
    public func closeAndExit(status: Int32) -> Never {
        guard let L = detachForClose() else { fh_flush_and_exit(status) }   // closed, or inside a call
        fh_close_and_exit(L, status)
    }

    /// Closes the state as ``close()`` does, calling `afterFinalizers` once
    /// every finalizer has run and before Lua frees its objects: what
    /// ``closeAndExit(status:)`` exits from. `afterFinalizers` must not use
    /// the state. (For tests.)
    func close(afterFinalizers: @escaping () -> Void) {
        guard let L = detachForClose() else { return }
        let box = Unmanaged.passRetained(AfterFinalizers(afterFinalizers))
        fh_close_with_last(L, { context in
            guard let context else { return }
            Unmanaged<AfterFinalizers>.fromOpaque(context).takeUnretainedValue().body()
        }, box.toOpaque())
        box.release()
    }

    /// The main thread, forgotten by this object before it is closed; nil if
    /// the state is closed, or if a call into it is running (the close then
    /// happens when the outermost call returns).
    private func detachForClose() -> OpaquePointer? {
        guard let L = mainThread else { return nil }
        if fh_depth(L) > 0 {
            closeRequested = true
            return nil
        }
        mainThread = nil
        current = nil
        link.state = nil
        return L
    }

    /// How many calls from Swift into this state are running now (nested:
    /// Lua code that called Swift that called Lua again counts 2), and Swift
    /// objects being released by a finalizer; 0 when none or closed.
    ///
    /// ```swift
    /// lua.swiftCallDepth     // 1 inside a function Swift called
    /// ```
    public var swiftCallDepth: Int { mainThread.map { Int(fh_depth($0)) } ?? 0 }

    /// How a Swift error thrown by a Swift function reads as the Lua error
    /// it becomes, when the default — `String(describing:)` — is not what
    /// a host wants; nil to keep the default.
    ///
    /// ```swift
    /// lua.raisedErrorText = { error in (error as? MyError).map { $0.shortText } }
    /// ```
    public var raisedErrorText: ((any Error) -> String?)?

    /// The text of `error` raised into Lua (see ``raisedErrorText``).
    func textOfRaised(_ error: any Error) -> String {
        raisedErrorText?(error) ?? String(describing: error)
    }

    /// Carries out a close requested during a call, once no call is running.
    func closeIfRequested() {
        if closeRequested, let L = mainThread, fh_depth(L) == 0 { close() }
    }

    /// Whether ``close()`` has run.
    public var isClosed: Bool { mainThread == nil }

    /// The thread to work on, or a `.closed` error.
    func thread() throws -> OpaquePointer {
        guard let L = current else { throw LuaError(.closed, "the Lua state is closed") }
        return L
    }

    // MARK: Limits

    /// The most bytes Lua may hold while its code runs (`nil`: no limit). Over
    /// it, the script gets Lua's "not enough memory" error; the state stays usable.
    public var memoryLimit: Int? {
        get { mainThread.map { Int(fh_memory_limit($0)) }.flatMap { $0 == 0 ? nil : $0 } }
        set { if let L = mainThread { fh_set_memory_limit(L, newValue.map { max(1, $0) } ?? 0) } }
    }

    /// Whether memoizing methods (``LuaClass/memoizingMethod(_:_:)``) may
    /// answer from what they remembered (the default); `false` sends every
    /// call to Swift — for a host that must see every call.
    public var memoizing: Bool = true {
        didSet { if let L = mainThread { fh_set_memoizing(L, memoizing ? 1 : 0) } }
    }

    /// Forgets what memoizing methods remembered, when an answer is no longer
    /// true (a container that closed no longer has its singletons); they
    /// remember anew from their next call.
    public func forgetMemos() {
        if let L = mainThread { fh_forget_memos(L) }
    }

    /// Bytes Lua holds now.
    public var memoryUsed: Int { mainThread.map { Int(fh_memory_used($0)) } ?? 0 }

    /// The most VM instructions one call from Swift may run (`nil`: no limit).
    /// Over it, the code gets "instruction limit exceeded", which it cannot catch.
    public var instructionLimit: Int? {
        didSet { if let L = mainThread { fh_set_instruction_limit(L, Int64(instructionLimit ?? 0)) } }
    }

    /// The most wall-clock time one call from Swift may take (`nil`: no limit).
    /// Over it, the code gets "time limit exceeded", which it cannot catch —
    /// in coroutines, message handlers and `__close` handlers too.
    ///
    /// It costs nothing until it fires: no hook runs until the deadline
    /// passes; then the stop signal (`SIGURG`) reaches the thread that runs
    /// the call — sent by a kernel timer on Linux, by a watchdog thread
    /// elsewhere — and its handler sets the stop hook on every Lua thread
    /// running there. Code that Lua cannot interrupt — a finalizer,
    /// a long C function, a blocking Swift call — is stopped by ``hardStop``,
    /// if set. Durations are clamped to 1…10⁹ seconds' worth of nanoseconds.
    public var timeLimit: Duration? {
        didSet {
            guard let L = mainThread else { return }
            fh_set_time_limit(L, timeLimit.map(LuaState.seconds) ?? 0)
        }
    }

    /// A deadline for every call from now on (`nil` clears it): the time a
    /// whole run may take, where ``timeLimit`` is per outermost call. The
    /// earlier of the two applies.
    ///
    /// ```swift
    /// lua.setDeadline(after: .seconds(2))   // the rest of the run: 2 s
    /// ```
    public func setDeadline(after duration: Duration?) {
        if let L = mainThread { fh_set_deadline(L, duration.map(LuaState.seconds) ?? 0) }
    }

    /// The most a call started now may run: ``timeLimit`` or what the
    /// deadline leaves, whichever is less; nil when neither is set.
    ///
    /// ```swift
    /// lua.setDeadline(after: .seconds(2))
    /// lua.timeLeft          // about 2 s
    /// ```
    public var timeLeft: Duration? {
        guard let L = mainThread else { return nil }
        let left = fh_time_left(L)
        return left < 0 ? nil : .nanoseconds(Int64(left * 1e9))
    }

    /// What happens when a time limit has fired and the code still runs
    /// `grace` later: it is in a finalizer (Lua runs no hooks there), a long C
    /// function or a blocking Swift call, where nothing in Lua can stop it.
    public enum HardStop: Equatable, Sendable {
        /// Wait for the code to return, however long (the default).
        case never
        /// End the process after `grace`: `prefix` and what happened on
        /// standard error, exit `status` (1 by default).
        case exitProcess(grace: Duration, prefix: String, status: Int32 = 1)
    }

    /// See ``HardStop``. `factoryhost run` ends the process one second after
    /// its `--timeout`, so a run never outlives its limit by more.
    public var hardStop: HardStop = .never {
        didSet {
            guard let L = mainThread else { return }
            switch hardStop {
            case .never: fh_set_hard_stop(L, -1, "", 1)
            case .exitProcess(let grace, let prefix, let status): fh_set_hard_stop(L, LuaState.seconds(grace), prefix, status)
            }
        }
    }

    /// Also holds the whole process to a memory budget while calls run: when
    /// its resident memory has grown by more than `bytes` plus the larger of
    /// `bytes` and 32 MB since this was set (memory that Swift plugins hold
    /// and Lua's own heap alike), it ends as a ``HardStop`` does, with
    /// "memory limit exceeded". ``memoryLimit`` still caps Lua's heap exactly.
    public func limitProcessMemory(growth bytes: Int?) {
        if let L = mainThread { fh_set_process_memory_cap(L, bytes.map { max(0, $0) } ?? 0) }
    }

    /// Whether the last call from Swift ended because a time or instruction
    /// limit fired (or ``stop(_:)`` stopped it).
    public var lastCallHitLimit: Bool { mainThread.map { fh_limit_fired($0) != FH_LIMIT_NONE } ?? false }

    /// Stops the running call for good: from the next instruction or call
    /// on nothing runs — not a `pcall`'s message handler, a `__close` or
    /// `__gc` metamethod, nor a C function such as `os.exit` — and the
    /// outermost call from Swift fails with `message` (kind ``LuaError/Kind/stopped``)
    /// whatever the script catches. Call it from a Swift function Lua
    /// called, then throw `LuaRaise(message)`. Does nothing outside a call.
    ///
    /// ```swift
    /// let halt = try lua.frameFunction("halt") { frame in
    ///     let message = frame.location(level: 1) + "halted"
    ///     frame.state.stop(message)
    ///     throw LuaRaise(message)
    /// }
    /// ```
    public func stop(_ message: String) {
        guard let L = mainThread else { return }
        var bytes = Array(message.utf8)
        bytes.append(0)
        fh_stop(L, bytes, bytes.count - 1)
    }

    /// A duration in seconds for the C side, clamped to [1 ns, 10⁹ s]
    /// (never a trap, whatever the duration).
    static func seconds(_ duration: Duration) -> Double {
        let value = duration.inSeconds
        guard value.isFinite else { return 1e9 }
        return min(max(value, 1e-9), 1e9)
    }

    /// Runs a full garbage collection, protected. (Lua runs finalizers with
    /// hooks off, so the instruction and time limits do not reach `__gc` code;
    /// the sandbox refuses `__gc` metamethods for that reason.)
    public func collectGarbage() {
        guard let L = current else { return }
        if fh_collect(L) != LUA_OK { fh_pop(L, 1) }
    }

    /// Marks the start of a stretch of work (a test) whose garbage
    /// ``collectGarbageSinceMark()`` collects.
    public func markGarbage() {
        guard let L = current else { return }
        if fh_mark_young(L) != LUA_OK { fh_pop(L, 1) }
    }

    /// Collects, protected, everything that became garbage since
    /// ``markGarbage()`` — finalizers included — at a cost that follows what
    /// was allocated since, not the size of the heap: a young collection when
    /// no collection ran since the mark (all of it is still young), else a
    /// full one (some may have aged; a collection ran only after the code
    /// allocated a good part of the heap). A collector the code switched to
    /// incremental mode is put back in generational mode.
    public func collectGarbageSinceMark() {
        guard let L = current else { return }
        if fh_collect_since_mark(L) != LUA_OK { fh_pop(L, 1) }
    }

    /// Stops the garbage collector: from now on no finalizer (`__gc`) runs
    /// until ``close()`` — for a run that must not run the script's code
    /// any more (check's dry run, which then exits without closing).
    public func stopGarbageCollector() {
        if let L = current { fh_stop_collector(L) }
    }

    // MARK: Loading and running

    /// Compiles `code` into a function without running it. `name` appears in
    /// messages (`name:3: …`).
    ///
    /// - Throws: a `LuaError` of kind `.syntax` when `code` does not compile, `.memory` when Lua runs out of
    ///   memory, `.closed` when the state is closed.
    public func load(_ code: String, name: String) throws -> LuaFunction {
        try load(bytes: Array(code.utf8), chunkName: "=" + name)
    }

    /// Compiles a chunk from bytes. `chunkName` follows Lua's convention:
    /// `@file.lua` for a file, `=name` for a literal name. `mode` is `"t"`
    /// (text), `"b"` (binary) or `"bt"`.
    ///
    /// - Throws: a `LuaError` of kind `.syntax` when the chunk does not compile or `mode` refuses it,
    ///   `.memory` when Lua runs out of memory, `.closed` when the state is closed.
    public func load(bytes: [UInt8], chunkName: String, mode: String = "t") throws -> LuaFunction {
        let L = try thread()
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                fh_loadbuffer(L, chars.baseAddress, chars.count, chunkName, mode)
            }
        }
        guard status == LUA_OK else { throw loadError(status, L, chunkName: chunkName) }
        return try popFunction(L)
    }

    /// The error of a load. A limit of the compiler (too many functions,
    /// constants or registers in one chunk) is raised as a runtime error:
    /// without a place, and with the traceback of the protected call the
    /// load ran in — it is said like a syntax error instead, with the chunk
    /// it is in (Lua cannot say the line).
    func loadError(_ status: Int32, _ L: OpaquePointer, chunkName: String) -> LuaError {
        let error = popError(status, L)
        let place = chunkID(chunkName)
        guard error.kind == .runtime else {
            // A syntax error's place is its chunk's (`app.lua:3:`), when its message begins with it.
            guard error.kind == .syntax, error.message.hasPrefix(place + ":") else { return error }
            let line = error.message.utf8.dropFirst(place.utf8.count + 1).prefix { $0 >= 48 && $0 <= 57 }
            guard !line.isEmpty, error.message.utf8.dropFirst(place.utf8.count + 1 + line.count).first == UInt8(ascii: ":") else { return error }
            return error.placed(place + ":" + String(decoding: line, as: UTF8.self) + ":")
        }
        return LuaError(.syntax, error.message.hasPrefix(place + ":") ? error.message : "\(place): \(error.message)")
    }

    /// How Lua shows chunk `name` in messages and tracebacks — its
    /// `short_src`, asked of Lua itself: `app.lua` for `"@app.lua"`, `stdin`
    /// for `"=stdin"`, `[string "x = 1"]` for source text, cut as Lua cuts
    /// it. A closed state (or one out of memory) gives the name without
    /// its `@` or `=`.
    ///
    /// ```swift
    /// lua.chunkID("@Examples/app.lua")   // "Examples/app.lua"
    /// ```
    public func chunkID(_ name: String) -> String {
        var out = [CChar](repeating: 0, count: 64)
        guard let L = mainThread, fh_chunk_id(L, name, &out, out.count) == 0 else {
            return name.first == "@" || name.first == "=" ? String(name.dropFirst()) : name
        }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Compiles a file (a first `#` line is skipped); `nil` reads standard input.
    ///
    /// - Throws: a `LuaError` of kind `.file` when the file cannot be opened or read, `.syntax` when it does
    ///   not compile or `mode` refuses it, `.closed` when the state is closed.
    public func loadFile(_ path: String?, mode: String = "t") throws -> LuaFunction {
        let L = try thread()
        let status = fh_loadfile(L, path, mode)
        guard status == LUA_OK else { throw loadError(status, L, chunkName: path.map { "@" + $0 } ?? "=stdin") }
        return try popFunction(L)
    }

    /// Compiles the file whose path is `path`'s bytes — a name that is not
    /// UTF-8 text (a Latin-1 `café.lua`), which no `String` spells — as
    /// ``loadFile(_:mode:)`` does.
    ///
    /// ```swift
    /// let main = try state.loadFile(bytes: Array("app.lua".utf8))
    /// ```
    ///
    /// - Throws: a `LuaError`: `.file` when the file cannot be read, `.syntax` when it does not compile.
    public func loadFile(bytes path: [UInt8], mode: String = "t") throws -> LuaFunction {
        let L = try thread()
        let status = (path + [0]).withUnsafeBytes { fh_loadfile(L, $0.baseAddress?.assumingMemoryBound(to: CChar.self), mode) }
        guard status == LUA_OK else {
            throw loadError(status, L, chunkName: "@" + String(decoding: path, as: UTF8.self))
        }
        return try popFunction(L)
    }

    /// Compiles and runs `code`, returning what it returns.
    ///
    /// - Throws: a `LuaError`: `.syntax` when `code` does not compile; else the error running it raises, with
    ///   message and traceback (`.runtime`, or a limit's kind such as `.timeLimit`).
    @discardableResult
    public func run(_ code: String, name: String) throws -> [LuaValue] {
        try load(code, name: name).call()
    }

    /// Compiles and runs a file, returning what it returns.
    ///
    /// - Throws: a `LuaError`: `.file` when the file cannot be read, `.syntax` when it does not compile; else
    ///   the error running it raises, with message and traceback.
    @discardableResult
    public func runFile(_ path: String) throws -> [LuaValue] {
        try loadFile(path).call()
    }

    func popFunction(_ L: OpaquePointer) throws -> LuaFunction {
        let value = value(at: -1, in: L)
        fh_pop(L, 1)
        return try value.function()
    }

    // MARK: Globals

    /// The global table.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public var globals: LuaTable {
        get throws {
            let L = try thread()
            fh_pushglobaltable(L)
            defer { fh_pop(L, 1) }
            return try value(at: -1, in: L).table()
        }
    }

    /// The global `name` (raw access: no metamethods on `_G` run).
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func global(_ name: String) throws -> LuaValue {
        try globals.rawGet(LuaValue(name))
    }

    /// Sets the global `name` (raw access).
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed or `value` belongs to another state.
    public func setGlobal(_ name: String, _ value: LuaValue) throws {
        try globals.rawSet(LuaValue(name), value)
    }

    /// A new empty table. The capacities are hints, clamped to 0…16M.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func newTable(arrayCapacity: Int = 0, hashCapacity: Int = 0) throws -> LuaTable {
        let L = try thread()
        let limit = 1 << 24
        lua_createtable(L, Int32(min(max(arrayCapacity, 0), limit)), Int32(min(max(hashCapacity, 0), limit)))
        defer { fh_pop(L, 1) }
        return try value(at: -1, in: L).table()
    }

    /// `setmetatable(table, metatable)`, raw (no `__metatable` check).
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed or either table belongs to another
    ///   state.
    public func setMetatable(of table: LuaTable, to metatable: LuaTable?) throws {
        let L = try thread()
        try reserve(4, in: L)
        try push(.table(table), in: L)
        if let metatable { try push(.table(metatable), in: L) } else { lua_pushnil(L) }
        lua_setmetatable(L, -2)
        fh_pop(L, 1)
    }

    // MARK: Errors

    /// Pops the error a failed load or protected call left, and makes it a
    /// Swift error with the original value's type and Lua's traceback.
    func popError(_ status: Int32, _ L: OpaquePointer) -> LuaError {
        let text = stringForMessage(at: -1, in: L)
        // The place the message handler verified, as the message shows it (before the traceback).
        let placeLength = status == LUA_ERRRUN && lua_type(L, -1) == LUA_TSTRING ? fh_error_place_length(L) : 0
        let placePrefix = placeLength > 0 ? prefix(of: -1, bytes: placeLength, in: L) : nil
        fh_pop(L, 1)
        fh_take_error_value(L)          // always: the slot must not keep a stale value alive
        let rawType = lua_type(L, -1)
        let valueType = LuaType(rawValue: rawType)?.description
        switch status {
        case LUA_ERRRUN:
            let (message, traceback) = LuaState.splitTraceback(text)
            let kind: LuaError.Kind
            switch fh_limit_fired(L) {
            case FH_LIMIT_INSTRUCTIONS: kind = .instructionLimit
            case FH_LIMIT_TIME: kind = .timeLimit
            case FH_LIMIT_STOP: kind = .stopped
            case FH_LIMIT_INTERRUPT: kind = .interrupted
            default: kind = .runtime
            }
            // A value that is not text is kept, for whoever catches the error.
            var valueID: Int?
            if kind == .runtime && rawType != LUA_TNIL && rawType != LUA_TSTRING && rawType != LUA_TNUMBER {
                let id = fh_keep_error_value(L)
                if id > 0 { valueID = Int(id) }
            } else {
                fh_pop(L, 1)
            }
            let error = LuaError(kind, message, traceback: traceback, valueType: valueType, raisedByLua: true,
                                 errorValueID: valueID)
            return placePrefix.map(error.placed) ?? error
        default: break
        }
        fh_pop(L, 1)
        switch status {
        case LUA_ERRMEM: return LuaError(.memory, text, traceback: nil, valueType: nil, raisedByLua: true)
        case LUA_ERRERR: return LuaError(.errorHandler, text, traceback: nil, valueType: nil, raisedByLua: true)
        case LUA_ERRSYNTAX: return LuaError(.syntax, text, traceback: nil, valueType: nil, raisedByLua: true)
        default: return LuaError(status == fh_errfile() ? .file : .runtime, text, traceback: nil, valueType: nil, raisedByLua: true)
        }
    }

    /// The value Lua raised for an error, kept under `id` (see
    /// ``LuaError/errorValueID``); nil once let go (a state keeps the newest 32,
    /// and lets one go when it is raised back into Lua).
    ///
    /// ```swift
    /// do { try lua.run("error({ code = 42 })", name: "x") } catch let error as LuaError {
    ///     let value = try error.errorValueID.flatMap { try lua.errorValue($0) }   // the table
    /// }
    /// ```
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func errorValue(_ id: Int) throws -> LuaValue? {
        let L = try thread()
        let type = fh_push_kept_error_value(L, lua_Integer(id))
        defer { fh_pop(L, 1) }
        if type == LUA_TNIL { return Optional<LuaValue>.none }    // not `nil`: that reads as LuaValue.nil
        return value(at: -1, in: L)
    }

    /// Splits "message\nstack traceback:\n…" at its last traceback header.
    static func splitTraceback(_ text: String) -> (String, String?) {
        let marker = "\nstack traceback:\n"
        guard let range = text.range(of: marker, options: .backwards) else { return (text, nil) }
        return (String(text[..<range.lowerBound]), String(text[text.index(after: range.lowerBound)...]))
    }

    /// The value at `idx` as message text: strings and numbers as Lua prints
    /// them, anything else by its type.
    /// The first `bytes` bytes of the string at `idx`, as ``stringForMessage(at:in:)`` shows them.
    func prefix(of idx: Int32, bytes: Int, in L: OpaquePointer) -> String? {
        var length = 0
        guard let chars = fh_tolstring(L, idx, &length), bytes <= length else { return nil }
        let raw = UnsafeRawBufferPointer(start: chars, count: bytes)
        return String(validating: raw, as: UTF8.self) ?? LuaString(bytes: Array(raw)).shown
    }

    func stringForMessage(at idx: Int32, in L: OpaquePointer) -> String {
        let type = lua_type(L, idx)
        if type == LUA_TSTRING || type == LUA_TNUMBER {
            lua_pushvalue(L, idx)       // lua_tolstring converts numbers in place: use a copy
            defer { fh_pop(L, 1) }
            var length = 0
            guard let chars = fh_tolstring(L, -1, &length) else { return "?" }
            // Each byte of an invalid sequence as \xNN (as values print): decoded, it read as a real U+FFFD.
            let bytes = UnsafeRawBufferPointer(start: chars, count: length)
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            return LuaString(bytes: Array(bytes)).shown
        }
        return "(error object is a \(LuaType(rawValue: type)?.description ?? "?") value)"
    }
}

extension StringProtocol {
    /// `range(of:options:.backwards)` without Foundation.
    fileprivate func range(of needle: String, options: BackwardsSearch) -> Range<Index>? {
        var index = endIndex
        while index > startIndex {
            index = self.index(before: index)
            if self[index...].hasPrefix(needle) { return index..<self.index(index, offsetBy: needle.count) }
        }
        return nil
    }
}

fileprivate enum BackwardsSearch { case backwards }

/// The state as references see it: set while the state is open, empty after.
/// (Not a weak reference — see ``LuaState/link``.) Like the state, it
/// belongs to one thread at a time.
final class LuaStateLink {
    /// `unowned(unsafe)`: non-nil only while the state object lives — set in `LuaState.init`, cleared in
    /// `detachForClose()` and first thing in `deinit` — and written only by the state's owner thread.
    unowned(unsafe) var stateStorage: LuaState?
    var state: LuaState? {
        get { stateStorage }
        set { stateStorage = newValue }
    }
}

/// The closure ``LuaState/close(afterFinalizers:)`` hands to C.
private final class AfterFinalizers {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
