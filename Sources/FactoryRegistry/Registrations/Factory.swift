/// A registration's factory, type-erased. Typed Swift factories subclass it
/// as ``TypedFactory`` so resolving them needs no dynamic cast of the result;
/// script factories return `Any`, which the registry checks against the
/// registered type.
// @unchecked Sendable (an open class cannot be checked): its one field is a let. `make` runs on every thread
// that resolves, so a subclass must keep its own state immutable or locked — as TypedFactory/UntypedFactory do.
open class AnyFactory: @unchecked Sendable {
    /// The type a TypedFactory produces; nil for every other factory. Set
    /// only by TypedFactory's initializer and never overridable: the resolve
    /// path trusts it to downcast without checking.
    let typedID: ObjectIdentifier?

    /// A factory of no type in particular: subclasses override ``make(_:_:)``.
    public init() { typedID = nil }

    init(typedID: ObjectIdentifier) { self.typedID = typedID }

    /// Builds one instance. Subclasses override it; the base class has nothing to build.
    ///
    /// - Throws: `RegistryError` (`.factoryFailed`) from the base class; a subclass throws what building failed with.
    open func make(_ resolver: Resolver, _ arguments: Arguments) throws -> Any {
        throw RegistryError(.factoryFailed, "this factory has no body (AnyFactory.make was not overridden)")
    }

    /// Whether `make`'s result is statically of one type (a TypedFactory).
    public final var isTyped: Bool { typedID != nil }
}

/// A Swift closure producing `T`.
// @unchecked Sendable restated as AnyFactory's subclasses must: both fields are lets holding @Sendable closures.
public final class TypedFactory<T>: AnyFactory, @unchecked Sendable {
    @usableFromInline let withArguments: (@Sendable (Resolver, Arguments) throws -> T)?
    @usableFromInline let withoutArguments: (@Sendable (Resolver) throws -> T)?

    /// A factory that reads runtime arguments.
    public init(_ body: @escaping @Sendable (Resolver, Arguments) throws -> T) {
        withArguments = body
        withoutArguments = nil
        super.init(typedID: ObjectIdentifier(T.self))
    }

    /// A factory without runtime arguments (one closure call less per resolve).
    public init(_ body: @escaping @Sendable (Resolver) throws -> T) {
        withArguments = nil
        withoutArguments = body
        super.init(typedID: ObjectIdentifier(T.self))
    }

    /// Builds one `T` with `resolver` (for its declared dependencies) and `arguments`.
    ///
    /// - Throws: what the closure throws (a ``RegistryError`` from a resolve inside it, or the factory's own error).
    @inlinable @inline(__always)
    public func makeTyped(_ resolver: Resolver, _ arguments: Arguments) throws -> T {
        if let withoutArguments { return try withoutArguments(resolver) }
        if let withArguments { return try withArguments(resolver, arguments) }
        throw RegistryError(.factoryFailed, "this factory has no body")
    }

    /// Calls the closure (``makeTyped(_:_:)``).
    ///
    /// - Throws: what the closure throws.
    public override func make(_ resolver: Resolver, _ arguments: Arguments) throws -> Any {
        try makeTyped(resolver, arguments)
    }

}

/// A closure producing any value, checked against the registered type
/// after each call (for script-defined factories).
// @unchecked Sendable restated as AnyFactory's subclasses must: all fields are lets; `body` is @Sendable and
// `source` is only handed back to the layer that made it (FactoryScripting's LuaFactory, itself Sendable).
public final class UntypedFactory: AnyFactory, @unchecked Sendable {
    /// The closure that builds an instance.
    public let body: @Sendable (Resolver, Arguments) throws -> Any
    /// The body checks its results against the registered type itself (a
    /// script layer that converts them to that type), so the registry does
    /// not check them again.
    public let checksResults: Bool
    /// What made the body (a script layer's own factory object), for that
    /// layer to find again — to remake it with other parameters, say.
    public let source: AnyObject?

    /// A factory calling `body`; see ``checksResults`` and ``source``.
    public init(checksResults: Bool = false, source: AnyObject? = nil,
                _ body: @escaping @Sendable (Resolver, Arguments) throws -> Any) {
        self.body = body
        self.checksResults = checksResults
        self.source = source
        super.init()
    }

    /// Calls ``body``.
    ///
    /// - Throws: what ``body`` throws.
    public override func make(_ resolver: Resolver, _ arguments: Arguments) throws -> Any {
        try body(resolver, arguments)
    }
}
