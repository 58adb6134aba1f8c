/// A parameter of a registration: a value its factory reads that a
/// configuration extending this one may change alone — the entity models or
/// the store descriptions of a persistent container, say.
///
/// ```swift
/// RegistrationParameter("stores", type: "function")
/// ```
public struct RegistrationParameter: Hashable, Sendable, CustomStringConvertible {
    /// The parameter's name (`stores`).
    public let name: String
    /// What kind of value it holds, as the layer that made it names it
    /// ("table", "function"); a refinement must give the same kind.
    public let type: String
    /// Where its value was changed, when a configuration extending the
    /// registration's changed it (nil: it is the registration's own).
    public var changedAt: Origin?

    /// A parameter `name` holding a `type` value, changed at `changedAt` (nil: not changed).
    public init(_ name: String, type: String, changedAt: Origin? = nil) {
        self.name = name
        self.type = type
        self.changedAt = changedAt
    }

    /// `stores: function`, and where it was changed (`stores: function, changed at tests.lua:9`).
    public var description: String { "\(name): \(type)" + (changedAt.map { ", changed at \($0)" } ?? "") }
}

/// What an override that changes only parameters carries: the parameters it
/// sets, and how to make the inherited factory with them. The registration
/// it refines keeps its key, scope, dependencies and arguments.
///
/// ```swift
/// var tests = Registration(key: ServiceKey(Store.self), origin: .here(), overrides: true, factory: AnyFactory())
/// tests.refinement = Refinement(parameters: [RegistrationParameter("stores", type: "function")]) { inherited in
///     inherited            // a factory like the inherited one, reading the new stores
/// }
/// ```
public struct Refinement: Sendable {
    /// The parameters it sets.
    public let parameters: [RegistrationParameter]
    /// The inherited factory, remade with those parameters.
    public let remake: @Sendable (AnyFactory) throws -> AnyFactory

    /// A refinement setting `parameters`, whose `remake` makes the inherited factory with them.
    public init(parameters: [RegistrationParameter], remake: @escaping @Sendable (AnyFactory) throws -> AnyFactory) {
        self.parameters = parameters
        self.remake = remake
    }
}

extension Registration {
    /// This registration with `override`'s parameters: its factory remade,
    /// everything else kept. A parameter this registration does not have,
    /// or one of another kind, is an error naming both places.
    func refined(by override: Registration, configuration: String) throws -> Registration {
        guard let refinement = override.refinement else { return override }
        var problems: [String] = []
        for parameter in refinement.parameters {
            guard let inherited = parameters.first(where: { $0.name == parameter.name }) else {
                problems.append("it has no parameter '\(parameter.name)'"
                                + NameSuggestion.didYouMean(parameter.name, among: parameters.map(\.name)))
                continue
            }
            if inherited.type != parameter.type {
                problems.append("parameter '\(parameter.name)' is a \(inherited.type), not a \(parameter.type)")
            }
        }
        guard problems.isEmpty else {
            throw RegistryError(
                .invalidRegistration,
                "\(key) changes parameters of the registration it overrides, and " + problems.joined(separator: "; "),
                configuration: configuration,
                details: ["\(key) registered at \(origin)" + (parameters.isEmpty ? " (no parameters)"
                                                                : " (parameters: " + parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"),
                          "changed at \(override.origin)"],
                origin: override.origin)
        }
        var refined = self
        refined.parameters = parameters.map { parameter in
            var parameter = parameter
            if refinement.parameters.contains(where: { $0.name == parameter.name }) { parameter.changedAt = override.origin }
            return parameter
        }
        do {
            refined.factory = try refinement.remake(factory)
        } catch let error as RegistryError {
            throw error
        } catch {
            throw RegistryError(.invalidRegistration, "\(key) cannot be refined: \(error)", configuration: configuration,
                                details: ["changed at \(override.origin)"], origin: override.origin)
        }
        return refined
    }
}
