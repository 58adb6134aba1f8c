/// A value a scope is opened with — the request a request scope serves, the
/// user a session belongs to — which resolving its key in that scope (and in
/// the scopes nested in it) gives, like an instance the scope built. The key
/// must be registered in that scope (``Configuration/registerGiven(_:name:inScope:file:line:)``).
/// The scope does not close it: whoever opened the scope owns it.
///
/// ```swift
/// try app.registerGiven(Request.self, inScope: "request")
/// try app.register(Handler.self, scope: .custom("request"), dependencies: [.instance(Request.self)]) { r in
///     Handler(request: try r.resolve())
/// }
/// let scope = try container.openScope("request", with: [ScopedValue(request)])
/// let handler = try scope.resolve(Handler.self)     // handler.request === request
/// ```
public struct ScopedValue {
    /// The key it is resolved by.
    public let key: ServiceKey
    let value: Any

    /// `value`, resolved as `type` (named `name`).
    public init<T>(_ value: T, as type: T.Type = T.self, name: String? = nil) {
        key = ServiceKey(type, name: name)
        self.value = value
    }
}

extension ContainerPlan {
    /// Where each of `values` goes in a scope named `scope` being opened:
    /// the index of its registration, which must be in that scope.
    ///
    /// - Throws: `RegistryError`: `.missingRegistration` for a key nothing registers, `.invalidRegistration` for one
    ///   registered with another lifetime, or given twice.
    func places(of values: [ScopedValue], inScope scope: String) throws -> [(index: Int, value: Any)] {
        var places: [(index: Int, value: Any)] = []
        for value in values {
            guard let index = index.find(value.key) else {
                throw RegistryError(.missingRegistration, "cannot open scope '\(scope)' with a \(value.key): nothing registers \(value.key)",
                                    configuration: configuration,
                                    details: ["register it as given in that scope: registerGiven(\(value.key.type.name).self, inScope: \"\(scope)\")"])
            }
            let planned = registrations[index]
            guard planned.lifetime == .custom(scope) else {
                throw RegistryError(.invalidRegistration,
                                    "cannot open scope '\(scope)' with a \(value.key): it is registered \(planned.lifetime.description), "
                                    + "not in scope '\(scope)' (a value given when a scope opens is resolved within that scope only)",
                                    configuration: configuration, details: ["\(value.key) registered at \(planned.registration.origin)"],
                                    origin: planned.registration.origin)
            }
            guard !places.contains(where: { $0.index == index }) else {
                throw RegistryError(.invalidRegistration, "cannot open scope '\(scope)': a \(value.key) is given twice", configuration: configuration)
            }
            places.append((index, value.value))
        }
        return places
    }
}
