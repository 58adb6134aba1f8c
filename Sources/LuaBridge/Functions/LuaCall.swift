import CLua
import CLuaShim

/// The body of a Swift function callable from Lua: reads its arguments from
/// the ``LuaCall`` and returns its results. Throwing raises a Lua error at the
/// caller's position (`script.lua:4: <description>`).
///
/// - Throws: any error, which is raised in Lua for the caller: with the caller's position in front, unless it
///   is a `LuaRaise` or an error Lua code raised.
public typealias LuaFunctionBody = (LuaCall) throws -> [LuaValue]

/// One call of a Swift function from Lua: its arguments, and the state to
/// work with while it runs.
///
/// ```swift
/// try lua.register("repeat") { call in
///     let text = try call.argument(1, as: String.self)
///     let times = try call.argument(2, as: Int.self)
///     return [LuaValue(String(repeating: text, count: times))]
/// }
/// // repeat("ab", "x")  →  bad argument #2 to 'repeat' (integer expected, got string)
/// ```
public struct LuaCall {
    /// The state the call runs in.
    public let state: LuaState
    /// The name the function reports in argument errors.
    public let name: String
    let L: OpaquePointer

    /// How many arguments Lua passed.
    public var count: Int { Int(lua_gettop(L)) }

    /// Argument `position` (1-based); `.nil` past the last one.
    public func value(_ position: Int) -> LuaValue {
        guard position >= 1, position <= count else { return .nil }
        return state.value(at: Int32(position), in: L)
    }

    /// Every argument.
    public var arguments: [LuaValue] { (0..<count).map { value($0 + 1) } }

    /// Argument `position` converted to `T`, or Lua's `bad argument` error:
    /// `bad argument #2 to 'name' (integer expected, got string)`.
    ///
    /// - Throws: a `LuaError` (`bad argument #n to 'name' (…)`, with ``LuaError/argument`` set) of kind
    ///   `.typeMismatch` when the argument is missing or not a `T`, `.encoding` when a string is not UTF-8;
    ///   any other error of the conversion as it is.
    public func argument<T: LuaConvertible>(_ position: Int, as type: T.Type = T.self) throws -> T {
        let v = position <= count ? value(position) : nil
        do {
            return try T.fromLua(v)
        } catch let error as LuaError where error.kind == .typeMismatch || error.kind == .encoding {
            // A limit reached or a closed state stays what it is; a value that
            // is not a `T` is a bad argument, named by its position.
            var problem = error.problem
            var detail = error.message
            if position > count && error.kind == .typeMismatch {
                problem = .wrongType(expected: T.luaTypeName, got: "no value")
                detail = "\(T.luaTypeName) expected, got no value"
            }
            throw LuaError.badArgument(error.kind, "bad argument #\(position) to '\(name)' (\(detail))", function: name,
                                       position: position, detail: detail, problem: problem)
        }
    }
}

/// What the state keeps for a Swift function pushed into Lua: its name
/// (for messages) and its body, as a ``LuaFrameFunction`` either way.
final class SwiftFunctionBox {
    let name: String
    let frame: LuaFrameFunction
    init(name: String, body: @escaping LuaFunctionBody) {
        self.name = name
        self.frame = { f in
            let results = try body(LuaCall(state: f.state, name: name, L: f.L))
            try f.state.reserve(results.count, in: f.L)
            for result in results { try f.state.push(result, in: f.L) }
            return Int32(results.count)
        }
    }
    init(name: String, frame: @escaping LuaFrameFunction) {
        self.name = name
        self.frame = frame
    }
}

extension LuaState {
    /// A Lua function that runs `body`. `name` is used in argument errors.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func function(_ name: String, _ body: @escaping LuaFunctionBody) throws -> LuaFunction {
        try pushSwiftFunction(SwiftFunctionBox(name: name, body: body))
    }

    func pushSwiftFunction(_ box: SwiftFunctionBox, receiverType: UnsafeRawPointer? = nil) throws -> LuaFunction {
        let L = try thread()
        try reserve(4, in: L)
        fh_push_closure(L, Unmanaged.passRetained(box).toOpaque(), receiverType)
        defer { fh_pop(L, 1) }
        return try value(at: -1, in: L).function()
    }

    /// Makes `body` callable from Lua as the global `name`.
    ///
    /// The closure should not capture the state strongly (use `call.state`):
    /// Lua holds the closure, so that would keep the state open forever.
    ///
    /// - Throws: a `LuaError` when the state is closed, or when the state is
    ///   out of memory (or over its limit) and cannot make the function.
    public func register(_ name: String, _ body: @escaping LuaFunctionBody) throws {
        try setGlobal(name, .function(function(name, body)))
    }

    /// Runs a Swift function for the trampoline. Never raises: an error is
    /// pushed and reported with a marker for the C side to raise.
    @inline(__always)
    func invoke(_ box: SwiftFunctionBox, on L: OpaquePointer, receiver: UnsafeMutableRawPointer?, count: Int32) -> Int32 {
        let saved = current
        current = L
        defer { current = saved }
        do {
            let pushed = try box.frame(LuaFrame(state: self, L: L, count: count, receiver: receiver))
            guard pushed >= 0, pushed <= lua_gettop(L) - count else {
                throw LuaError(.typeMismatch, "'\(box.name)' reported \(pushed) results but pushed \(lua_gettop(L) - count)")
            }
            return pushed
        } catch let error as LuaError where error.raisedByLua {
            // From Lua code run by the function: the message already says where,
            // and a value that was not text goes on as it was raised. Its place goes on as data.
            if let placeText = error.placeText { expectPlace(placeText, in: L) }
            if let id = error.errorValueID {
                pushValueID(id, in: L)
                pushMessage(error.message, in: L)
                return FH_RAISE_VALUE
            }
            pushMessage(error.message, in: L)
            return FH_RAISE
        } catch let error as LuaRaise {
            if error.placeLength > 0 { expectPlace(String(decoding: error.message.utf8.prefix(error.placeLength), as: UTF8.self), in: L) }
            pushMessage(error.message, in: L)
            return FH_RAISE
        } catch let error as LuaError {
            pushMessage(error.message, in: L)
            return FH_RAISE_WHERE
        } catch let error as any LuaErrorValueCarrying where error.luaErrorValueID != nil {
            pushValueID(error.luaErrorValueID ?? 0, in: L)
            pushMessage(textOfRaised(error), in: L)
            return FH_RAISE_CAUSE
        } catch {
            pushMessage(textOfRaised(error), in: L)
            return FH_RAISE_WHERE
        }
    }

    /// The error about to be raised begins with `place` (`file:line:`): its place, as data (``LuaError/place``).
    private func expectPlace(_ place: String, in L: OpaquePointer) {
        var bytes = Array(place.utf8)
        let count = bytes.count
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { fh_expect_place(L, $0.baseAddress, count) }
        }
    }

    private func pushValueID(_ id: Int, in L: OpaquePointer) {
        _ = lua_checkstack(L, 2)
        lua_pushinteger(L, lua_Integer(id))
    }

    private func pushMessage(_ message: String, in L: OpaquePointer) {
        _ = lua_checkstack(L, 1)
        pushBytes(Array(message.utf8), in: L)
    }
}

/// The trampoline's way into Swift (see CLuaShim's fh_trampoline).
/// Neither the state nor the box is retained for the call: the state runs
/// it, and Lua holds the box in the function being called.
let swiftFunctionDispatch: fh_call_fn = { L, owner, raw, receiver, count in
    guard let L else { return FH_RAISE }
    guard let raw, let owner else {
        lua_pushstring(L, "a Swift function was called after its state was closed")
        return FH_RAISE_WHERE
    }
    // _withUnsafeGuaranteedRef: both live for the call — the state runs it, Lua holds the box (see above).
    return Unmanaged<LuaState>.fromOpaque(owner)._withUnsafeGuaranteedRef { state in
        Unmanaged<SwiftFunctionBox>.fromOpaque(raw)._withUnsafeGuaranteedRef { box in
            state.invoke(box, on: L, receiver: receiver, count: count)
        }
    }
}
