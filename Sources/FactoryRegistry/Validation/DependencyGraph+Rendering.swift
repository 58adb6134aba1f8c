import FactoryhostSupport

// A dependency graph as text: an indented tree, Graphviz DOT, or JSON.
extension DependencyGraph {
    /// How deep ``renderTree(annotate:)`` draws; a deeper branch ends in a
    /// line saying so (`--format dot` and `json` keep every edge).
    ///
    /// ```swift
    /// DependencyGraph.treeDepthLimit   // 50
    /// ```
    public static let treeDepthLimit = 50

    /// An indented tree from each root. Each node shows its key, scope and
    /// origin; edges show the dependency's label and whether it is a
    /// provider; a node already drawn is marked `(see above)`, a cycle `(cycle)`;
    /// the configuration values a factory reads are leaves (`url: value baseURL`).
    ///
    /// ```text
    /// MovieLoader [transient] app.lua:14
    /// ├── cache: Cache [singleton] app.lua:3
    /// ├── session: HTTPSession [missing]
    /// └── url: value baseURL
    /// ```
    ///
    /// `annotate` may add a note to a node's line (the REPL marks the nodes
    /// alive in its container).
    public func renderTree(annotate: (Node) -> String? = { _ in nil }) -> String {
        var lines: [String] = []
        var drawn: Set<Int> = []
        func describe(_ node: Node) -> String {
            var text = "\(node.key) [\(node.scope)]"
            if !node.arguments.isEmpty { text += " args(\(node.arguments.map(\.description).joined(separator: ", ")))" }
            if !node.parameters.isEmpty { text += " params(\(node.parameters.map(\.description).joined(separator: "; ")))" }
            if let origin = node.origin { text += " \(origin)" }
            if let note = annotate(node) { text += " " + note }
            return text
        }
        // Depth first with a stack of its own (a dependency chain is as deep
        // as a script made it), each node's edges then its values; a branch
        // deeper than `treeDepthLimit` is folded (its lines would grow with
        // the square of the depth: 800 MB for a 20,000-deep chain).
        struct Frame {
            let id: Int
            let prefix: String
            let depth: Int
            let outgoing: [Edge]
            var next = 0
        }
        var onPath: Set<Int> = []
        var stack: [Frame] = []
        for root in roots {
            if drawn.contains(root) && !edges(from: root).isEmpty && roots.count > 1 { continue }
            lines.append(describe(nodes[root]))
            drawn.insert(root)
            stack.append(Frame(id: root, prefix: "", depth: 0, outgoing: edges(from: root)))
            onPath.insert(root)
            while let top = stack.indices.last {
                let frame = stack[top]
                let values = nodes[frame.id].values
                guard frame.next < frame.outgoing.count else {
                    for (position, value) in values.enumerated() {
                        lines.append(frame.prefix + (position == values.count - 1 ? "└── " : "├── ") + value.description)
                    }
                    onPath.remove(frame.id)
                    stack.removeLast()
                    continue
                }
                let position = frame.next
                stack[top].next += 1
                let edge = frame.outgoing[position]
                let last = position == frame.outgoing.count - 1 && values.isEmpty
                let target = nodes[edge.to]
                var label = edge.label.map { "\($0): " } ?? ""
                if edge.kind == .provider { label += "provider of " }
                var line = frame.prefix + (last ? "└── " : "├── ") + label + describe(target)
                let cycle = onPath.contains(edge.to)
                let targetEdges = edges(from: edge.to)
                let repeated = !cycle && drawn.contains(edge.to) && !targetEdges.isEmpty
                if cycle { line += " (cycle)" } else if repeated { line += " (see above)" }
                lines.append(line)
                guard !cycle && !repeated else { continue }
                drawn.insert(edge.to)
                let prefix = frame.prefix + (last ? "    " : "│   ")
                if frame.depth + 1 >= Self.treeDepthLimit && (!targetEdges.isEmpty || !target.values.isEmpty) {
                    lines.append(prefix + "└── … deeper than \(Self.treeDepthLimit) levels (--format dot or json shows every edge)")
                    continue
                }
                stack.append(Frame(id: edge.to, prefix: prefix, depth: frame.depth + 1, outgoing: targetEdges))
                onPath.insert(edge.to)
            }
        }
        // Appended, not lines.joined(separator:): the generic joined cost
        // `graph` 0.19M instructions at its first use, a twentieth of its start.
        var text = lines.first ?? ""
        for line in lines.dropFirst() {
            text += "\n"
            text += line
        }
        return text
    }

    /// Graphviz DOT: boxes for registrations (key, scope, origin), dashed
    /// edges for providers, red dashed boxes for missing dependencies.
    public func renderDOT() -> String {
        var lines = ["digraph \(dotString(configuration)) {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for node in nodes {
            // Each part escaped on its own, joined by DOT's line break (a key
            // with a backslash or a quote must not end the string early).
            var parts = ["\(node.key)", "\(node.scope)"]
            if !node.arguments.isEmpty { parts.append("args: " + node.arguments.map(\.description).joined(separator: ", ")) }
            if !node.values.isEmpty { parts.append(node.values.map(\.description).joined(separator: ", ")) }
            if let origin = node.origin { parts.append("\(origin)") }
            let label = "\"" + parts.map { String(dotString($0).dropFirst().dropLast()) }.joined(separator: "\\n") + "\""
            let style = node.isMissing ? ", style=dashed, color=red" : ""
            lines.append("  n\(node.id) [label=\(label)\(style)];")
        }
        for edge in edges {
            var attributes: [String] = []
            let label = (edge.label ?? "") + (edge.kind == .provider ? " (provider)" : "")
            if !label.isEmpty { attributes.append("label=\(dotString(label.trimmingSpaces()))") }
            if edge.kind == .provider { attributes.append("style=dashed") }
            lines.append("  n\(edge.from) -> n\(edge.to)" + (attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]") + ";")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// Mermaid (renders on GitHub and in most documentation tools): a
    /// flowchart with a box per registration (key, scope, origin), labelled
    /// edges, dotted ones for providers, missing dependencies in red.
    ///
    /// ```text
    /// flowchart LR
    ///   n0["MovieLoader<br/>transient<br/>app.lua:14"]
    ///   n0 -->|"cache"| n1
    /// ```
    public func renderMermaid() -> String {
        var lines = ["flowchart LR"]
        for node in nodes {
            var parts = [node.key, node.scope]
            if !node.arguments.isEmpty { parts.append("args: " + node.arguments.map(\.description).joined(separator: ", ")) }
            if !node.values.isEmpty { parts.append(node.values.map(\.description).joined(separator: ", ")) }
            if let origin = node.origin { parts.append(origin.description) }
            lines.append("  n\(node.id)[\"" + parts.map(mermaidText).joined(separator: "<br/>") + "\"]" + (node.isMissing ? ":::missing" : ""))
        }
        for edge in edges {
            let label = (edge.label ?? "") + (edge.kind == .provider ? " (provider)" : "")
            let arrow = edge.kind == .provider ? "-.->" : "-->"
            let text = label.trimmingSpaces()
            lines.append("  n\(edge.from) \(arrow)" + (text.isEmpty ? "" : "|\"\(mermaidText(text))\"|") + " n\(edge.to)")
        }
        if nodes.contains(where: \.isMissing) { lines.append("  classDef missing stroke:#c00,stroke-dasharray:4 4,color:#c00") }
        return lines.joined(separator: "\n")
    }

    /// JSON: `{ "configuration", "roots", "nodes": [{ id, key, type, name,
    /// scope, origin, arguments, parameters and values (when it has any) }], "edges":
    /// [{ from, to, label, kind }] }`.
    public func renderJSON() -> String {
        func string(_ text: String?) -> String { text.map(jsonString) ?? "null" }
        let nodeLines = nodes.map { node in
            let arguments = node.arguments.map { "{\"name\": \(jsonString($0.name)), \"type\": \(jsonString($0.type.name))}" }
            return "    {\"id\": \(node.id), \"key\": \(jsonString(node.key)), \"type\": \(jsonString(node.typeName)), "
                + "\"name\": \(string(node.name)), \"scope\": \(jsonString(node.scope)), "
                + "\"origin\": \(string(node.origin?.description)), \"arguments\": [\(arguments.joined(separator: ", "))]"
                + (node.parameters.isEmpty ? "" : ", \"parameters\": [" + node.parameters.map { parameter in
                    "{\"name\": \(jsonString(parameter.name)), \"type\": \(jsonString(parameter.type)), "
                        + "\"changedAt\": \(string(parameter.changedAt?.description))}"
                  }.joined(separator: ", ") + "]")
                + (node.values.isEmpty ? "" : ", \"values\": [" + node.values.map {
                    "{\"label\": \(jsonString($0.label)), \"name\": \(jsonString($0.name))}"
                  }.joined(separator: ", ") + "]")
                + "}"
        }
        let edgeLines = edges.map { edge in
            "    {\"from\": \(edge.from), \"to\": \(edge.to), \"label\": \(string(edge.label)), \"kind\": \(jsonString(edge.kind.rawValue))}"
        }
        return """
            {
              "configuration": \(jsonString(configuration)),
              "roots": [\(roots.map(String.init).joined(separator: ", "))],
              "nodes": [
            \(nodeLines.joined(separator: ",\n"))
              ],
              "edges": [
            \(edgeLines.joined(separator: ",\n"))
              ]
            }
            """
    }
}

/// Text inside a quoted Mermaid label: quotes, `#`, `<`, `>` and `&` as
/// Mermaid's entity codes, line breaks as spaces.
func mermaidText(_ text: String) -> String {
    TextEscaping.mermaid.escaped(text.replacing("\r\n", with: "\n"))    // a Windows line break is one break too
}

/// A JSON string literal: `jsonString("a\"b")` is `"a\"b"` with its quotes.
public func jsonString(_ text: String) -> String { TextEscaping.json.quoted(text) }

/// A DOT string literal: quotes and backslashes escaped, a newline as DOT's `\n`.
private func dotString(_ text: String) -> String { TextEscaping.dot.quoted(text) }

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
