import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ScriptImplementable` on a protocol: generates `LuaP`, the class through
/// which a Lua table implements `P` — each requirement a checked call into
/// the table (arguments converted, the result's type checked, a missing
/// method named) — and `LuaP.interface`, the `LuaInterface` a plugin exports
/// so that scripts can register, implement and check it.
///
/// Every method must be `throws` (a Lua implementation can fail, and its
/// failure must reach the caller), and every property `{ get throws }`.
public struct ScriptImplementableMacro: PeerMacro {
    /// What a protocol may inherit: the adapter is a class, and may be Sendable.
    private static let allowedInheritance: Set<String> = ["AnyObject", "Sendable", "Swift.Sendable", "class"]

    public static func expansion(of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        guard let proto = declaration.as(ProtocolDeclSyntax.self) else {
            throw ScriptMacroError("@ScriptImplementable applies to a protocol")
        }
        let name = proto.name.text
        // A private protocol's adapter is fileprivate (a peer cannot be private to a scope it is not in).
        let isPrivate = proto.modifiers.contains { ["private", "fileprivate"].contains($0.name.text) }
        let access = isPrivate ? "fileprivate " : accessPrefix(of: proto.modifiers)
        let inherited = proto.inheritanceClause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
        var problems: [ScriptMacroError] = []
        for (type, syntax) in zip(inherited, proto.inheritanceClause?.inheritedTypes.map(\.type) ?? []) where !allowedInheritance.contains(type) {
            problems.append(ScriptMacroError("\(name) inherits \(type), whose requirements @ScriptImplementable cannot see: declare "
                                             + "what a Lua table implements in \(name) itself", at: syntax))
        }
        var requirements: [String] = []
        var shape: [String] = []
        var methodNames: [String] = []
        var seen: Set<String> = []
        /// Lua cannot implement it: the advice for a protocol (an adapter must implement every requirement).
        func refused(_ member: String, _ why: String, at node: some SyntaxProtocol) -> ScriptMacroError {
            ScriptMacroError("'\(member)' \(why): a Lua table cannot implement it, and \(name)'s adapter must implement every "
                             + "requirement; move it to another protocol, or leave \(name) without @ScriptImplementable", at: node)
        }
        for member in proto.memberBlock.members {
            let decl = member.decl
            do {
                if let attributes = decl.asProtocol(WithAttributesSyntax.self)?.attributes,
                   let ignored = attributes.compactMap({ $0.as(AttributeSyntax.self) }).first(where: { $0.attributeName.trimmedDescription == "ScriptIgnored" }) {
                    throw ScriptMacroError("@ScriptIgnored cannot leave out a requirement: \(name)'s adapter must implement every one "
                                           + "(move it to another protocol)", at: ignored)
                }
                if let function = decl.as(FunctionDeclSyntax.self) {
                    let method: ScriptFunction
                    do { method = try ScriptFunction(function) } catch let error as ScriptMacroError {
                        // Said for a protocol: "mark it @ScriptIgnored" does not apply to a requirement.
                        var text = error.description
                        for advice in ["; mark it @ScriptIgnored, or export a synchronous method", ", or mark it @ScriptIgnored",
                                       "; mark it @ScriptIgnored, or export a method that throws", "; mark it @ScriptIgnored"] {
                            text = text.replacing(advice, with: "")
                        }
                        throw ScriptMacroError(text + ": a Lua table cannot implement that; move it to another protocol, or leave "
                                               + "\(name) without @ScriptImplementable", at: error.node ?? Syntax(function))
                    }
                    guard method.isThrowing else {
                        throw ScriptMacroError("'\(method.name)' must be throws: a Lua implementation can fail, and its failure must "
                                               + "reach the caller (func \(method.swiftName)(…) throws)", at: function.name)
                    }
                    if method.isStatic { throw refused(method.name, "is static", at: function.name) }
                    if method.name == "implementation" { throw refused(method.name, "is the adapter's own name", at: function.name) }
                    if !seen.insert(method.name).inserted {
                        throw ScriptMacroError("'\(method.name)' is declared more than once: a Lua table has one method of a name, "
                                               + "which could not tell the overloads apart", at: function.name)
                    }
                    for parameter in function.signature.parameterClause.parameters {
                        if let any = parameter.type.as(SomeOrAnyTypeSyntax.self) {
                            throw refused(method.name, "takes \(any.trimmedDescription), which Swift cannot hand to Lua", at: parameter)
                        }
                        if let why = unsupportedType(parameter.type) {
                            throw refused(method.name, "takes \(parameter.type.trimmedDescription), \(why)", at: parameter)
                        }
                    }
                    if let result = function.signature.returnClause?.type, result.is(SomeOrAnyTypeSyntax.self) {
                        throw refused(method.name, "returns \(result.trimmedDescription), which Lua cannot give back", at: result)
                    }
                    methodNames.append(method.name)
                    // Each parameter named inside (`_: String` has no name to pass on).
                    var clause: [String] = []
                    var passed: [String] = []
                    for (index, parameter) in function.signature.parameterClause.parameters.enumerated() {
                        // Named by place inside: a requirement's own names may be `_`, or `implementation`.
                        let label = parameter.firstName.text
                        let inner = "argument\(index)"
                        clause.append("\(label) \(inner): \(parameter.type.trimmedDescription)")
                        passed.append(inner)
                    }
                    let call = "try implementation.call(" + ([quoted(method.name)] + passed).joined(separator: ", ")
                    let body = method.returnsVoid ? call + ")" : call + ", returning: (\(method.resultType)).self)"
                    let result = method.returnsVoid ? "" : " -> \(method.resultType)"
                    requirements.append("\(access)func \(method.swiftName)(\(clause.joined(separator: ", "))) throws\(result) { \(body) }")
                    let declared = method.parameters.map { "(\(quoted($0.luaName)), (\($0.type)).self)" }
                    shape.append(".method(" + ([quoted(method.name)] + declared).joined(separator: ", ")
                                 + ", returning: (\(method.returnsVoid ? "Void" : method.resultType)).self)")
                } else if let variable = decl.as(VariableDeclSyntax.self) {
                    for binding in variable.bindings {
                        guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self),
                              let type = binding.typeAnnotation?.type.trimmedDescription else { continue }
                        let propertyName = pattern.identifier.text.trimmingBackticks
                        if variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) {
                            throw refused(propertyName, "is static", at: binding)
                        }
                        if propertyName == "implementation" { throw refused(propertyName, "is the adapter's own name", at: binding) }
                        if let annotated = binding.typeAnnotation?.type, annotated.is(SomeOrAnyTypeSyntax.self) || unsupportedType(annotated) != nil {
                            throw refused(propertyName, "is \(type), which Lua cannot give back", at: annotated)
                        }
                        if !seen.insert(propertyName).inserted {
                            throw ScriptMacroError("'\(propertyName)' is declared more than once", at: binding)
                        }
                        guard case .accessors(let list)? = binding.accessorBlock?.accessors,
                              list.allSatisfy({ $0.accessorSpecifier.text == "get" && $0.effectSpecifiers?.throwsClause != nil
                                                && $0.effectSpecifiers?.asyncSpecifier == nil }) else {
                            throw ScriptMacroError("'\(propertyName)' must be { get throws }: a Lua implementation can lack it or hold "
                                                   + "the wrong type, and reading it must say so", at: binding)
                        }
                        requirements.append("\(access)var \(pattern.identifier.text): \(type) { get throws { try implementation.property(\(quoted(propertyName)), as: (\(type)).self) } }")
                        shape.append(".property(\(quoted(propertyName)), (\(type)).self)")
                    }
                } else if decl.is(AssociatedTypeDeclSyntax.self) {
                    throw ScriptMacroError("\(name) has an associated type: Lua implements protocols used as `any \(name)`", at: decl)
                } else if decl.is(InitializerDeclSyntax.self) {
                    throw refused("init", "is an initializer requirement", at: decl)
                } else if decl.is(SubscriptDeclSyntax.self) {
                    throw refused("subscript", "is a subscript", at: decl)
                }
            } catch let error as ScriptMacroError {
                problems.append(error.placed(at: decl))
            }
        }
        if !problems.isEmpty {
            for problem in problems {
                context.diagnose(Diagnostic(node: problem.node ?? Syntax(node), message: ScriptMacroDiagnostic(problem.description)))
            }
            return []
        }
        // A Sendable protocol's adapter may cross threads: the implementation refuses calls off its state's thread.
        let sendable = inherited.contains("Sendable") || inherited.contains("Swift.Sendable") ? ", @unchecked Sendable" : ""
        let lines = requirements.map { "    " + $0 }.joined(separator: "\n")
        let interfaceChain = shape.map { "        " + $0 }.joined(separator: "\n")
        return ["""
            /// A Lua table implementing ``\(raw: name)`` (generated by `@ScriptImplementable`): each call is
            /// checked — its result's type, a missing method — and a failure in Lua is thrown.
            \(raw: access)final class Lua\(raw: name): \(raw: name), LuaBridge.LuaImplemented\(raw: sendable) {
                \(raw: access)let implementation: LuaBridge.LuaImplementation
                \(raw: access)init(_ implementation: LuaBridge.LuaImplementation) { self.implementation = implementation }

                /// The interface a plugin exports (`context.export(Lua\(raw: name).interface)`): scripts register,
                /// implement and check `\(raw: name)` through it.
                \(raw: access)static let interface = LuaBridge.LuaInterface<any \(raw: name)>(\(literal: name), requires: [\(raw: methodNames.map(quoted).joined(separator: ", "))]) { Lua\(raw: name)($0) }
            \(raw: interfaceChain)

            \(raw: lines)
            }
            """]
    }
}
