/// The names an exported class shows scripts: what completion, generated
/// type files and the plugins' hostile-input sweep enumerate.
///
/// ```swift
/// let members = LuaClass<Cache>().constructor { Cache() }.method("get") { … }.members
/// members.methods        // ["get"]
/// ```
public struct LuaClassMembers: Sendable, Equatable {
    /// The class's Lua name.
    public var name: String
    /// Whether `Type.new(…)` exists.
    public var hasConstructor: Bool
    /// Functions on the class table other than `new` (`LoopbackServer.start`).
    public var classFunctions: [String]
    /// Methods, called `object:name(…)`.
    public var methods: [String]
    /// Properties, read as `object.name`, sorted.
    public var properties: [String]
    /// Properties that can also be set, sorted.
    public var settableProperties: [String]
}

extension LuaClass {
    /// The names this class shows scripts.
    public var members: LuaClassMembers {
        LuaClassMembers(name: name, hasConstructor: constructorBody != nil || namedConstructorBody != nil,
                        classFunctions: classFunctions.map(\.0), methods: methods.map(\.name),
                        properties: getters.keys.sorted(), settableProperties: setters.keys.sorted())
    }

    /// The functions on the class table other than `new`, in the order they
    /// were added (cheaper than ``members``: nothing is sorted).
    ///
    /// ```swift
    /// LuaClass<LoopbackServer>().classFunction("start") { … }.classFunctionNames   // ["start"]
    /// ```
    public var classFunctionNames: [String] { classFunctions.map(\.0) }
}
