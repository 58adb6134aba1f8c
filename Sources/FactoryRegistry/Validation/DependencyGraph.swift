/// A configuration's object graph as data — nodes are registrations, edges
/// are declared dependencies — for rendering as a tree, DOT or JSON.
///
/// ```swift
/// let graph = try registry.graph(of: "app", root: ServiceKey(MainViewModel.self))
/// for edge in graph.edges { print(graph.nodes[edge.from].key, "→", graph.nodes[edge.to].key) }
/// ```
public struct DependencyGraph: Sendable {
    /// A registration, or a dependency nothing provides.
    public struct Node: Sendable, Hashable {
        /// Its index in ``DependencyGraph/nodes``.
        public let id: Int
        /// `Type` or `Type#name`.
        public let key: String
        /// The type it provides.
        public let typeName: String
        /// The registration's name, if it has one.
        public let name: String?
        /// The scope, or `missing` for a dependency nothing provides.
        public let scope: String
        /// Where it was registered (nil: missing).
        public let origin: Origin?
        /// The runtime arguments it takes.
        public let arguments: [ArgumentSpec]
        /// The parameters a configuration extending it may change, and where changed.
        public var parameters: [RegistrationParameter] = []
        /// The configuration values its factory reads.
        public var values: [ValueDependency] = []
        /// Whether it is a dependency that nothing provides.
        public var isMissing: Bool { origin == nil }
    }

    /// A declared dependency: `from` depends on `to`.
    public struct Edge: Sendable, Hashable {
        /// The dependent node's id.
        public let from: Int
        /// The id of the node it depends on.
        public let to: Int
        /// The dependency's label (`cache` in `deps = { cache = "Cache" }`), if any.
        public let label: String?
        /// An instance or a provider dependency.
        public let kind: Dependency.Kind
    }

    /// The configuration drawn.
    public let configuration: String
    /// Every node, by id.
    public let nodes: [Node]
    /// Every declared dependency between them.
    public let edges: [Edge]
    /// The nodes the graph was drawn from.
    public let roots: [Int]
    /// The edges leaving each node, by node id (looked up for every node a
    /// rendering draws: filtering every edge each time was quadratic).
    private let outgoing: [[Edge]]

    /// A graph of `nodes` and `edges` drawn from `roots`.
    public init(configuration: String, nodes: [Node], edges: [Edge], roots: [Int]) {
        self.configuration = configuration
        self.nodes = nodes
        self.edges = edges
        self.roots = roots
        var outgoing = [[Edge]](repeating: [], count: nodes.count)
        for edge in edges where edge.from >= 0 && edge.from < outgoing.count { outgoing[edge.from].append(edge) }
        self.outgoing = outgoing
    }

    /// The edges leaving `node`, in the order they were declared.
    public func edges(from node: Int) -> [Edge] { node >= 0 && node < outgoing.count ? outgoing[node] : [] }
}

extension Registry {
    /// The graph of configuration `name`: everything reachable from `root`,
    /// or every registration when `root` is nil. Missing dependencies are
    /// nodes too (scope `missing`).
    ///
    /// - Throws: `RegistryError`: `.unknownConfiguration`, or `.missingRegistration` when nothing in it provides `root`.
    public func graph(of name: String, root: ServiceKey? = nil) throws -> DependencyGraph {
        let plan = try self.plan(name, caching: false)      // drawing every configuration kept every plan (4,000 chained: 1.9 GB)
        var nodes: [DependencyGraph.Node] = []
        var edges: [DependencyGraph.Edge] = []
        var nodeForIndex: [Int: Int] = [:]
        var nodeForMissing: [ServiceKey: Int] = [:]

        func node(for index: Int) -> Int {
            if let id = nodeForIndex[index] { return id }
            let planned = plan.registrations[index]
            let id = nodes.count
            nodes.append(.init(id: id, key: planned.name, typeName: planned.key.type.name, name: planned.key.name,
                               scope: planned.registration.scope.description, origin: planned.registration.origin,
                               arguments: planned.arguments, parameters: planned.registration.parameters,
                               values: planned.registration.values))
            nodeForIndex[index] = id
            return id
        }
        func missingNode(_ key: ServiceKey) -> Int {
            if let id = nodeForMissing[key] { return id }
            let id = nodes.count
            nodes.append(.init(id: id, key: key.description, typeName: key.type.name, name: key.name, scope: "missing",
                               origin: nil, arguments: []))
            nodeForMissing[key] = id
            return id
        }

        var starts: [Int]
        if let root {
            guard let index = plan.index.find(root) else {
                let hint = NameSuggestion.hint(for: root.description, among: plan.registrations.lazy.map(\.name))
                throw RegistryError(.missingRegistration, "no registration for \(root)", configuration: name, details: hint.map { [$0] } ?? [])
            }
            starts = [index]
        } else {
            starts = Array(plan.registrations.indices)
        }
        let roots = starts.map(node(for:))
        var expanded: Set<Int> = []
        while let index = starts.popLast() {
            guard expanded.insert(index).inserted else { continue }
            let from = node(for: index)
            for dependency in plan.registrations[index].registration.dependencies {
                if let target = plan.index.find(dependency.key) {
                    edges.append(.init(from: from, to: node(for: target), label: dependency.label, kind: dependency.kind))
                    starts.append(target)
                } else {
                    edges.append(.init(from: from, to: missingNode(dependency.key), label: dependency.label, kind: dependency.kind))
                }
            }
        }
        return DependencyGraph(configuration: name, nodes: nodes, edges: edges, roots: roots)
    }
}
