/// A registration's factory, type-erased. Typed Swift factories subclass it
/// as ``TypedFactory`` so resolving them needs no dynamic cast of the result;
/// script factories return `Any`, which the registry checks against the
/// registered type.
open class AnyFactory: @unchecked Sendable {
    public init() {}

    /// Builds one instance. Subclasses override it; the base class has nothing to build.
    open func make(_ resolver: Resolver, _ arguments: Arguments) throws -> Any {
        throw RegistryError(.factoryFailed, "this factory has no body (AnyFactory.make was not overridden)")
    }

    /// Whether `make`'s result is statically of the registered type.
    open var isTyped: Bool { false }
}

/// A Swift closure producing `T`.
public final class TypedFactory<T>: AnyFactory, @unchecked Sendable {
    public let body: @Sendable (Resolver, Arguments) throws -> T

    public init(_ body: @escaping @Sendable (Resolver, Arguments) throws -> T) {
        self.body = body
    }

    @inline(__always)
    public func makeTyped(_ resolver: Resolver, _ arguments: Arguments) throws -> T {
        try body(resolver, arguments)
    }

    public override func make(_ resolver: Resolver, _ arguments: Arguments) throws -> Any {
        try body(resolver, arguments)
    }

    public override var isTyped: Bool { true }
}

/// A closure producing any value, checked against the registered type
/// after each call (for script-defined factories).
public final class UntypedFactory: AnyFactory, @unchecked Sendable {
    public let body: @Sendable (Resolver, Arguments) throws -> Any

    public init(_ body: @escaping @Sendable (Resolver, Arguments) throws -> Any) {
        self.body = body
    }

    public override func make(_ resolver: Resolver, _ arguments: Arguments) throws -> Any {
        try body(resolver, arguments)
    }
}
