import CLuaShim

/// A Swift class that Lua holds as an exported object of type
/// ``luaTypeName``: it can be an argument and a result of exported
/// functions, checked by type.
///
/// ```swift
/// final class Cache: LuaExportable {
///     static let luaTypeName = "Cache"
/// }
/// ```
public protocol LuaExportable: AnyObject, LuaArgument, LuaResult, LuaConvertible {
    /// The name scripts and messages use (`Cache expected, got string`).
    static var luaTypeName: String { get }
}

extension LuaExportable {
    /// The object inside a userdata of this type (or of a subclass's exported type).
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when `value` is not a userdata holding a `Self`, or its
    ///   object was already released.
    public static func fromLua(_ value: LuaValue) throws -> Self {
        guard case .userdata(let userdata) = value, let object = userdata.object(as: Self.self) else {
            throw LuaError.typeMismatch(expected: luaTypeName, got: value.typeName)
        }
        return object
    }

    /// A userdata holding the object, with its exported type's metatable.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when `state` is closed.
    public func toLua(in state: LuaState) throws -> LuaValue {
        .userdata(try state.pushObject(self, type: Self.luaTypeName))
    }
}

extension LuaExportable {
    /// The exported type's ``LuaExportable/luaTypeName``.
    public static var luaArgumentName: String { luaTypeName }

    /// The object at `position`.
    ///
    /// - Throws: a bad-argument error naming `position` when it is not a `Self`.
    public static func read(from frame: LuaFrame, at position: Int32) throws -> Self {
        try frame.object(position, as: Self.self, typeName: luaTypeName)
    }

    /// Pushes the object as a userdata of its ``LuaExportable/luaTypeName``.
    ///
    /// - Throws: nothing: pushing an object cannot fail.
    public func push(to frame: LuaFrame) throws {
        frame.pushObject(self, type: Self.luaTypeName)
    }
}

extension LuaFrame {
    /// Pushes `object` as a userdata of exported type `type`.
    public func pushObject(_ object: AnyObject, type: String) {
        state.pushObject(object, type: type, in: L)
    }
}

extension LuaFrame {
    /// Pushes `object` as a userdata with the metatable `metatable` refers to
    /// (the fastest way: no lookup at all).
    ///
    /// ```swift
    /// let cacheType = try lua.metatableReference(for: "Cache")
    /// frame.pushObject(Cache(), metatable: cacheType)
    /// ```
    public func pushObject(_ object: AnyObject, metatable: LuaMetatableReference) {
        guard metatable.state == state.serial else {
            state.pushObject(object, type: metatable.typeName, in: L)
            return
        }
        fh_push_object_with(L, Unmanaged.passRetained(object).toOpaque(),
                            swiftTypeIdentity(Swift.type(of: object)), metatable.reference)
    }
}

/// A reference to the metatable of one userdata type in one state, for
/// pushing objects of that type without looking the metatable up.
public struct LuaMetatableReference {
    /// The type's name (its metatable's `__name`).
    public let typeName: String
    let reference: Int32
    /// The state's serial number, never reused (an address can be, once a
    /// state is freed: a reference would then point into another state's registry).
    let state: UInt64
}

extension LuaState {
    /// A reference to the metatable of userdata type `type` (created if
    /// needed), for ``LuaFrame/pushObject(_:metatable:)``.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func metatableReference(for type: String) throws -> LuaMetatableReference {
        let L = try thread()
        try reserve(4, in: L)
        return LuaMetatableReference(typeName: type, reference: metatableReference(type, in: L),
                                     state: serial)
    }

    func metatableReference(_ type: String, in L: OpaquePointer) -> Int32 {
        if let reference = metatableReferences[type] { return reference }
        let reference = fh_object_metatable_ref(L, type)
        metatableReferences[type] = reference
        return reference
    }

    /// Pushes `object` as a userdata of type `type`, finding the metatable by
    /// a registry reference kept per type name (no lookup by name in Lua, no
    /// C string made).
    func pushObject(_ object: AnyObject, type: String, in L: OpaquePointer) {
        let reference = metatableReference(type, in: L)
        fh_push_object_with(L, Unmanaged.passRetained(object).toOpaque(), swiftTypeIdentity(Swift.type(of: object)), reference)
    }
}
