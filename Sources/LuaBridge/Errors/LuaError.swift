/// An error from Lua, or from moving a value between Lua and Swift.
///
/// `message` reads the way the stock `lua` interpreter would print it
/// (`script.lua:12: boom`); `traceback`, when there is one, is Lua's
/// `stack traceback:` block.
///
/// ```swift
/// do {
///     try state.run("error('boom')", name: "demo.lua")
/// } catch let error as LuaError {
///     print(error.message)      // demo.lua:1: boom
///     print(error.kind)         // runtime
/// }
/// ```
public struct LuaError: Error, CustomStringConvertible, Equatable {
    /// What went wrong, broadly.
    public enum Kind: String, Sendable, Equatable {
        /// A runtime error raised by Lua code (or by a Swift function it called).
        case runtime
        /// A chunk failed to compile.
        case syntax
        /// Lua ran out of memory, or over the state's memory limit.
        case memory
        /// The message handler itself failed.
        case errorHandler
        /// A script file could not be opened or read.
        case file
        /// A value was not of the type Swift asked for.
        case typeMismatch
        /// A string was not valid UTF-8 where Swift needed a `String`.
        case encoding
        /// The state was closed.
        case closed
        /// The call ran past ``LuaState/timeLimit`` or its deadline.
        case timeLimit
        /// The call ran past ``LuaState/instructionLimit``.
        case instructionLimit
        /// The call was stopped for good by ``LuaState/stop(_:)``.
        case stopped
        /// Ctrl-C (``LuaState/interruptOnControlC(_:)``) stopped the call.
        case interrupted
    }

    /// What went wrong, broadly.
    public let kind: Kind
    /// The message, as Lua reports it.
    public let message: String
    /// Lua's `stack traceback:` block, when the error came from running code.
    public var traceback: String? { details?.fields.traceback }
    /// The Lua type of the error value Lua raised (`"string"`, `"table"`, …).
    public var valueType: String? { details?.fields.valueType }

    /// What only some errors have, kept apart: an error is on the stack of
    /// every Swift frame that catches one, and a deep graph's every level
    /// pays for those frames (with a place added inline, 20,000 nested
    /// resolves no longer fit the stack).
    private struct Fields: Sendable {
        var traceback: String?
        var valueType: String?
        var place: Place?
        var placeText: String?
        var problem: Problem?
        var argument: Argument?
    }
    private final class Details: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }
    private var details: Details?

    /// Changes what only some errors have.
    private mutating func change(_ edit: (inout Fields) -> Void) {
        var fields = details?.fields ?? Fields()
        edit(&fields)
        details = Details(fields)
    }
    /// Whether Lua raised it while running code (its message then already
    /// says where), rather than Swift making it. A Swift function called from
    /// Lua that throws one Swift made gets the caller's `file:line: ` in front.
    let raisedByLua: Bool

    /// Whether Lua raised it (a script's `error`, a limit, a failed call) —
    /// its message may then begin with the place, `file:line: ` — rather
    /// than Swift making it, whose messages begin with no place.
    ///
    /// ```swift
    /// let (place, text) = error.wasRaisedByLua ? split(error.message) : (nil, error.message)
    /// ```
    public var wasRaisedByLua: Bool { raisedByLua }
    /// When Lua raised a value that is not text (a table, say), the number
    /// it is kept under: ``LuaState/errorValue(_:)`` gives it back (a state
    /// keeps the newest 32, until raised again), and a Swift function that fails with this
    /// error raises that value again, not its message.
    public let errorValueID: Int?
    /// Where the error was raised, when its message begins with that place
    /// (`app.lua:12: boom`) and the place is known to be one: the message
    /// handler found it is the place of a frame at the raise, or Swift raised
    /// the error with it (``LuaRaise/init(_:file:line:)``); a syntax error's
    /// is its chunk's. Nil for a message without a place — including one
    /// that merely looks like it has one (`error("x.lua:1: not a place", 0)`
    /// raised elsewhere).
    ///
    /// ```swift
    /// error.place?.file          // "app.lua"
    /// error.place?.line          // 12
    /// error.messageAfterPlace    // "boom"
    /// ```
    public internal(set) var place: Place? {
        get { details?.fields.place }
        set { change { $0.place = newValue } }
    }
    /// The text of `file:line:` that ``place`` was read from, as the message shows it.
    var placeText: String? {
        get { details?.fields.placeText }
        set { change { $0.placeText = newValue } }
    }

    /// A place in a script: its chunk as Lua names it (`app.lua`, `stdin`) and a line.
    public struct Place: Sendable, Equatable, CustomStringConvertible {
        /// The chunk, as Lua shows it in messages (its `short_src`).
        public let file: String
        /// The line (1-based).
        public let line: Int
        /// `file:line`.
        public var description: String { "\(file):\(line)" }

        /// The place a verified `file:line:` prefix names; nil if it is not one.
        init?(prefix: String) {
            guard prefix.hasSuffix(":") else { return nil }
            let place = prefix.dropLast()
            guard let colon = place.lastIndex(of: ":"), let line = Int(place[place.index(after: colon)...]), line > 0 else { return nil }
            file = String(place[..<colon])
            self.line = line
        }
    }

    /// The message without its ``place`` (`boom` of `app.lua:12: boom`); the
    /// whole message when it has none.
    public var messageAfterPlace: String {
        guard let placeText, message.hasPrefix(placeText) else { return message }
        let rest = message.dropFirst(placeText.count)
        return String(rest.hasPrefix(" ") ? rest.dropFirst() : rest)
    }

    /// The same error, its message read as beginning with the verified place `prefix` (`file:line:`).
    func placed(_ prefix: String) -> LuaError {
        guard let place = Place(prefix: prefix), message.hasPrefix(prefix) else { return self }
        var error = self
        error.place = place
        error.placeText = prefix
        return error
    }

    /// The parts of a type error, when Swift made one: what was expected and
    /// what was there. Code that rewords an error matches on these, never on
    /// its text.
    public internal(set) var problem: Problem? {
        get { details?.fields.problem }
        set { change { $0.problem = newValue } }
    }
    /// The argument a Swift function called from Lua refused, when that is
    /// what this error is about (``LuaFrame/argumentError(_:_:kind:problem:)``).
    public internal(set) var argument: Argument? {
        get { details?.fields.argument }
        set { change { $0.argument = newValue } }
    }

    /// What was wrong with a value, in parts.
    ///
    /// ```swift
    /// if case .wrongType(let expected, let got)? = error.problem { print(expected, got) }   // integer string
    /// ```
    public enum Problem: Sendable, Equatable {
        /// A value of the wrong Lua type: `expected` (a type's name as
        /// messages give it) and the Lua type `got`.
        case wrongType(expected: String, got: String)
        /// A table that does not implement `interface`; `detail` says what it
        /// lacks and what the interface requires.
        case notImplementing(interface: String, detail: String)
        /// A table nested deeper than a conversion can follow (or one that
        /// contains itself): its message is whole, and is not prefixed with
        /// each level's place.
        case nestedTooDeeply

        /// Whether it is a plain `T expected, got U`.
        public var isWrongType: Bool {
            if case .wrongType = self { return true }
            return false
        }
    }

    /// An argument of a Swift function that Lua called, as a bad-argument error names it.
    ///
    /// ```swift
    /// // add(1, "x") → bad argument #2 to 'add' (integer expected, got string)
    /// error.argument?.function    // "add"
    /// error.argument?.position    // 2 (its place on the frame; a method's self is 1)
    /// error.argument?.detail      // "integer expected, got string"
    /// ```
    public struct Argument: Sendable, Equatable {
        /// The function's name, as messages give it.
        public let function: String
        /// The argument's place in the frame (1-based; a method's receiver is 1).
        public let position: Int
        /// What is wrong with it: the words in the message's parentheses.
        public let detail: String
    }

    /// Creates an error; `message` should read as Lua would report it.
    public init(_ kind: Kind, _ message: String, traceback: String? = nil, valueType: String? = nil) {
        self.init(kind, message, traceback: traceback, valueType: valueType, raisedByLua: false)
    }

    init(_ kind: Kind, _ message: String, traceback: String?, valueType: String?, raisedByLua: Bool,
         errorValueID: Int? = nil) {
        self.errorValueID = errorValueID
        self.kind = kind
        self.message = message
        if traceback != nil || valueType != nil { details = Details(Fields(traceback: traceback, valueType: valueType)) }
        self.raisedByLua = raisedByLua
    }

    /// Errors are equal when they say the same (wherever they were made).
    public static func == (a: LuaError, b: LuaError) -> Bool {
        a.kind == b.kind && a.message == b.message && a.traceback == b.traceback && a.valueType == b.valueType
    }

    /// The message followed by the traceback, as `lua` prints an error.
    public var description: String {
        guard let traceback, !traceback.isEmpty else { return message }
        return message + "\n" + traceback
    }

    /// An error about argument `position` of `function` (`message`: how Lua
    /// words it, `bad argument #n to 'f' (detail)`), with ``argument`` and
    /// `problem` set.
    static func badArgument(_ kind: Kind, _ message: String, function: String, position: Int, detail: String,
                            problem: Problem?) -> LuaError {
        var error = LuaError(kind, message)
        error.argument = Argument(function: function, position: position, detail: detail)
        error.problem = problem
        return error
    }

    /// `error` with `place` in front of its message (`element [2]: `) — unless
    /// it is about nesting too deep, which says the whole of it once.
    static func within(_ place: String, _ error: LuaError) -> LuaError {
        guard error.problem != .nestedTooDeeply else { return error }
        return LuaError(error.kind, place + error.message)
    }

    /// A value of the wrong type: `"integer expected, got string"`.
    public static func typeMismatch(expected: String, got: String, context: String? = nil) -> LuaError {
        let base = "\(expected) expected, got \(got)"
        var error = LuaError(.typeMismatch, context.map { "\($0) (\(base))" } ?? base)
        error.problem = .wrongType(expected: expected, got: got)
        return error
    }
}

/// An error that carries a value Lua raised (kept by the state under an id,
/// see ``LuaError/errorValueID``). A Swift function called from Lua that
/// throws one raises an error object in its place: a table `{ message =
/// "file:line: " .. description, cause = the kept value }` whose tostring
/// is the message, so the script that catches it can inspect the value
/// and raise it again. Without a value (the id nil, or let go) the
/// description is raised, as for any error.
///
/// ```swift
/// struct FactoryFailed: LuaErrorValueCarrying, CustomStringConvertible {
///     var luaErrorValueID: Int?
///     var description: String { "the factory failed" }
/// }
/// ```
public protocol LuaErrorValueCarrying: Error {
    /// Which value the host keeps for this error (nil: none): the bridge raises that value in Lua in place of the message.
    var luaErrorValueID: Int? { get }
}

/// An error a Swift function raises in Lua exactly as written (no position
/// prefix), for messages that already carry one.
///
/// ```swift
/// throw LuaRaise("config.lua:3: unknown scope 'sesion'")
/// throw LuaRaise("unknown scope 'sesion'", file: "config.lua", line: 3)   // the same, its place known as one
/// ```
public struct LuaRaise: Error, CustomStringConvertible {
    /// The message, raised as it is.
    public let message: String
    /// How many bytes of `message` are its place (`file:line:`), when it was made with one.
    let placeLength: Int
    /// An error raising `message` as it is.
    public init(_ message: String) {
        self.message = message
        placeLength = 0
    }
    /// An error raising `message` at `file:line` (`config.lua:3: message`):
    /// the ``LuaError`` it becomes has that ``LuaError/place``.
    public init(_ message: String, file: String, line: Int) {
        let place = "\(file):\(line):"
        self.message = place + " " + message
        placeLength = place.utf8.count
    }
    /// The message.
    public var description: String { message }
}

extension LuaError {
    /// The innermost `file:line` of a Lua traceback, past the frames
    /// `skipping` excludes (by default `[C]` and other bracketed chunks): where
    /// in a script an error happened whose message has no place, or names a
    /// host's own chunk (a test library, a prompt's environment).
    ///
    /// ```swift
    /// LuaError.innermostPlace(in: "stack traceback:\n\t[C]: in ?\n\tapp.lua:3: in main chunk")   // "app.lua:3"
    /// ```
    public static func innermostPlace(in traceback: String?, skipping: (Substring) -> Bool = { $0.hasPrefix("[") }) -> String? {
        for line in traceback?.split(separator: "\n") ?? [] {
            let frame = line.drop { $0 == "\t" || $0 == " " }
            guard !frame.hasPrefix("stack traceback"), !skipping(frame) else { continue }
            // "file:12: in …": the first colon followed by digits and ": ".
            var index = frame.startIndex
            while let colon = frame[index...].firstIndex(of: ":") {
                var end = frame.index(after: colon)
                while end < frame.endIndex, frame[end].isASCII, frame[end].isNumber { end = frame.index(after: end) }
                if end > frame.index(after: colon), frame[end...].hasPrefix(": ") { return String(frame[..<end]) }
                index = frame.index(after: colon)
            }
        }
        return nil
    }
}
