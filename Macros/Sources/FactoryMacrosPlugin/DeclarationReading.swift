import SwiftSyntax
import SwiftSyntaxMacros

/// What an attribute cannot expand, said at the attribute.
struct ScriptMacroError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A class as `@Scriptable` reads it: its name, access, isolation and the
/// members it exports.
struct ScriptableClass {
    let name: String
    let luaName: String
    /// `public ` / `package ` / `` (internal): what the generated members are.
    let access: String
    let isMainActor: Bool
    let initializer: ScriptFunction?
    let methods: [ScriptFunction]
    let properties: [ScriptProperty]

    init(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax) throws {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            throw ScriptMacroError(declaration.is(StructDeclSyntax.self)
                ? "@Scriptable exports a class (an object scripts hold): a struct is a value, which @ScriptValue lets scripts hold as a table"
                : "@Scriptable applies to a class (an object scripts hold); @ScriptValue to a struct (a value scripts hold as a table)")
        }
        name = classDecl.name.text
        luaName = Self.nameArgument(attribute) ?? name
        access = accessPrefix(of: classDecl.modifiers)
        isMainActor = classDecl.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }
        var initializer: ScriptFunction?
        var methods: [ScriptFunction] = []
        var properties: [ScriptProperty] = []
        for member in classDecl.memberBlock.members {
            let decl = member.decl
            if let function = decl.as(FunctionDeclSyntax.self) {
                guard isExported(function.modifiers, function.attributes) else { continue }
                methods.append(try ScriptFunction(function))
            } else if let initDecl = decl.as(InitializerDeclSyntax.self) {
                // The first initializer scripts may call (a failable one would hand Lua a nil: left out).
                guard initializer == nil, isExported(initDecl.modifiers, initDecl.attributes), initDecl.optionalMark == nil else { continue }
                initializer = try ScriptFunction(initDecl)
            } else if let variable = decl.as(VariableDeclSyntax.self) {
                guard isExported(variable.modifiers, variable.attributes),
                      !variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) else { continue }
                properties += try ScriptProperty.read(variable)
            }
        }
        // Lua has one member of a name: an overload (or a property of a method's name) would be lost.
        var seen: Set<String> = []
        for name in methods.map(\.name) + properties.map(\.name) where !seen.insert(name).inserted {
            throw ScriptMacroError("'\(name)' is declared more than once (overloads, or a property and a method): a Lua object has one "
                                   + "member of a name; mark the others @ScriptIgnored")
        }
        self.initializer = initializer
        self.methods = methods
        self.properties = properties
    }

    /// `@Scriptable("LuaName")`.
    private static func nameArgument(_ attribute: AttributeSyntax) -> String? {
        guard case .argumentList(let arguments)? = attribute.arguments, let first = arguments.first,
              let literal = first.expression.as(StringLiteralExprSyntax.self) else { return nil }
        return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
    }
}

/// A function (or initializer) as it is exported.
struct ScriptFunction {
    /// The name scripts call (`add`).
    let name: String
    /// The name Swift calls (backticked when it must be).
    let swiftName: String
    let parameters: [ScriptParameter]
    let isThrowing: Bool
    let isStatic: Bool
    /// The result type's text (`Void` for none).
    let resultType: String
    var returnsVoid: Bool { ["Void", "()"].contains(resultType) }
    let summary: String?

    /// The call's arguments: `item: a0, a1` by the declaration's labels.
    var arguments: String {
        parameters.enumerated().map { index, parameter in
            (parameter.label.map { "\($0): " } ?? "") + "a\(index)"
        }.joined(separator: ", ")
    }

    init(_ function: FunctionDeclSyntax) throws {
        name = function.name.text.trimmingBackticks
        swiftName = function.name.text
        let signature = function.signature
        if signature.effectSpecifiers?.asyncSpecifier != nil {
            throw ScriptMacroError("'\(name)' is async: Lua calls are synchronous; mark it @ScriptIgnored, or export a synchronous method")
        }
        if function.genericParameterClause != nil {
            throw ScriptMacroError("'\(name)' is generic: Lua needs one signature; mark it @ScriptIgnored")
        }
        let functionName = function.name.text.trimmingBackticks
        parameters = try signature.parameterClause.parameters.map { try ScriptParameter($0, in: functionName) }
        isThrowing = signature.effectSpecifiers?.throwsClause != nil
        isStatic = function.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        resultType = signature.returnClause?.type.trimmedDescription ?? "Void"
        summary = docSummary(function.leadingTrivia)
    }

    init(_ initializer: InitializerDeclSyntax) throws {
        name = "new"
        swiftName = "init"
        let signature = initializer.signature
        if signature.effectSpecifiers?.asyncSpecifier != nil {
            throw ScriptMacroError("the initializer is async: Lua calls are synchronous; mark it @ScriptIgnored")
        }
        parameters = try signature.parameterClause.parameters.map { try ScriptParameter($0, in: "init") }
        isThrowing = signature.effectSpecifiers?.throwsClause != nil
        isStatic = true
        resultType = "Self"
        summary = docSummary(initializer.leadingTrivia)
    }
}

/// A parameter: its label in Swift calls, its name for scripts, its type.
struct ScriptParameter {
    /// The argument label (nil: `_`).
    let label: String?
    /// The name `types` shows (the label, else the parameter's own name).
    let luaName: String
    /// The type as written (`String?`, `[Item]`, `any PaymentGateway`).
    let type: String

    init(_ parameter: FunctionParameterSyntax, in function: String) throws {
        let first = parameter.firstName.text
        label = first == "_" ? nil : first.trimmingBackticks
        // The parameter's own name (`member` in `to member: String`): what its doc comment calls it.
        luaName = (parameter.secondName?.text ?? label ?? first).trimmingBackticks
        type = parameter.type.trimmedDescription
        if parameter.ellipsis != nil {
            throw ScriptMacroError("'\(function)' takes a variadic '\(luaName)': take an array instead, or mark it @ScriptIgnored")
        }
        if type.hasPrefix("inout ") {
            throw ScriptMacroError("'\(function)' takes '\(luaName)' inout, which Lua cannot give; mark it @ScriptIgnored")
        }
    }

    /// An existential (`any P`): a protocol Lua implements through `@ScriptImplementable`'s `LuaP`.
    var protocolName: String? {
        guard type.hasPrefix("any ") else { return nil }
        let name = type.dropFirst(4).trimmingCharacters(in: " ")
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? name : nil
    }

    /// The expression reading it from the frame at `position`.
    func read(at position: Int) -> String {
        if let protocolName { return "try Lua\(protocolName).interface.argument(frame, \(position))" }
        return "try (\(type)).read(from: frame, at: \(position))"
    }

    /// `(String?).self`, for the declared argument types.
    var metatype: String { "(\(type)).self" }
}

/// A property as it is exported.
struct ScriptProperty {
    let name: String
    let swiftName: String
    let isSettable: Bool
    let isThrowing: Bool
    let summary: String?

    /// Each exported binding of `variable` (`var a, b: Int` has two).
    static func read(_ variable: VariableDeclSyntax) throws -> [ScriptProperty] {
        let isLet = variable.bindingSpecifier.text == "let"
        // `private(set)` / `fileprivate(set)`: scripts read it only.
        let setterHidden = variable.modifiers.contains { modifier in
            ["private", "fileprivate"].contains(modifier.name.text) && modifier.detail?.detail.text == "set"
        }
        return try variable.bindings.compactMap { binding in
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { return nil }
            if let type = binding.typeAnnotation?.type.trimmedDescription, type.hasPrefix("any ") || type.hasPrefix("some ") {
                throw ScriptMacroError("'\(pattern.identifier.text)' is \(type), which Lua cannot be handed: mark it @ScriptIgnored")
            }
            var settable = !isLet && !setterHidden
            var throwing = false
            if let accessors = binding.accessorBlock?.accessors {
                switch accessors {
                case .getter:
                    settable = false                          // `var x: T { … }`: computed, get only
                case .accessors(let list):
                    let kinds = list.map(\.accessorSpecifier.text)
                    if kinds.contains("get") || kinds.contains("_read") {
                        settable = settable && kinds.contains("set")
                    }
                    throwing = list.contains { $0.effectSpecifiers?.throwsClause != nil }
                }
            }
            return ScriptProperty(name: pattern.identifier.text.trimmingBackticks, swiftName: pattern.identifier.text,
                                  isSettable: settable && !throwing, isThrowing: throwing,
                                  summary: docSummary(variable.leadingTrivia))
        }
    }
}

/// Whether a member is exported: not private or fileprivate, not `@ScriptIgnored`, not an override's duplicate.
func isExported(_ modifiers: DeclModifierListSyntax, _ attributes: AttributeListSyntax) -> Bool {
    let hidden = modifiers.contains { modifier in
        ["private", "fileprivate"].contains(modifier.name.text) && modifier.detail == nil
    }
    let ignored = attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "ScriptIgnored" }
    return !hidden && !ignored
}

/// `public ` for a public declaration (open counts as public), `package ` for a package one, else nothing.
func accessPrefix(of modifiers: DeclModifierListSyntax) -> String {
    for modifier in modifiers {
        switch modifier.name.text {
        case "public", "open": return "public "
        case "package": return "package "
        default: continue
        }
    }
    return ""
}

/// The first paragraph of a `///` doc comment, on one line.
func docSummary(_ trivia: Trivia) -> String? {
    var lines: [String] = []
    for piece in trivia {
        guard case .docLineComment(let text) = piece else { continue }
        let line = text.dropFirst(3).trimmingCharacters(in: " ")
        if line.isEmpty || line.hasPrefix("- ") || line.hasPrefix("```") {
            if !lines.isEmpty { break }
            continue
        }
        lines.append(line)
    }
    return lines.isEmpty ? nil : lines.joined(separator: " ")
}

extension StringProtocol {
    /// Without surrounding backticks (`` `default` `` → `default`).
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count > 1 ? String(dropFirst().dropLast()) : String(self)
    }

    /// Without leading and trailing `character`s.
    func trimmingCharacters(in character: Character) -> String {
        var slice = self[...]
        while slice.first == character { slice = slice.dropFirst() }
        while slice.last == character { slice = slice.dropLast() }
        return String(slice)
    }
}

/// A struct as `@Scriptable` reads it: a value, which scripts hold as a table
/// of its stored properties and give back the same way (through its
/// memberwise initializer).
struct ScriptableStruct {
    let name: String
    let luaName: String
    let access: String
    /// The stored properties, in order: name and type.
    let fields: [(name: String, type: String)]

    init(_ structDecl: StructDeclSyntax, attribute: AttributeSyntax) throws {
        name = structDecl.name.text
        luaName = ScriptableStruct.nameArgument(attribute) ?? name
        access = accessPrefix(of: structDecl.modifiers)
        var fields: [(String, String)] = []
        var hasInitializer = false
        for member in structDecl.memberBlock.members {
            if member.decl.is(InitializerDeclSyntax.self) { hasInitializer = true }
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) else { continue }
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                if let accessors = binding.accessorBlock?.accessors {
                    if case .getter = accessors { continue }                       // computed: not part of the value
                    if case .accessors(let list) = accessors, list.contains(where: { ["get", "_read"].contains($0.accessorSpecifier.text) }) { continue }
                }
                guard let type = binding.typeAnnotation?.type.trimmedDescription else {
                    throw ScriptMacroError("'\(pattern.identifier.text)' needs its type written (var \(pattern.identifier.text): Type): "
                                           + "scripts give it as a table field, checked against that type")
                }
                if variable.bindingSpecifier.text == "let", binding.initializer != nil {
                    throw ScriptMacroError("'\(pattern.identifier.text)' is a let with a value, which the memberwise initializer cannot take: "
                                           + "make it a var, or a computed property")
                }
                fields.append((pattern.identifier.text, type))
            }
        }
        if hasInitializer {
            throw ScriptMacroError("@ScriptValue builds \(name) through its memberwise initializer: move its own initializers "
                                   + "to an extension (the memberwise one stays)")
        }
        self.fields = fields
    }

    private static func nameArgument(_ attribute: AttributeSyntax) -> String? {
        guard case .argumentList(let arguments)? = attribute.arguments, let first = arguments.first,
              let literal = first.expression.as(StringLiteralExprSyntax.self) else { return nil }
        return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
    }

    /// The extension converting it to and from a table.
    func conversion(of type: String) throws -> [ExtensionDeclSyntax] {
        let reads = fields.map { field in
            "\(field.name): try LuaBridge.LuaStructFields.read(table, \(quoted(field.name.trimmingBackticks)), as: (\(field.type)).self, of: \(quoted(luaName)))"
        }.joined(separator: ", ")
        let writes = fields.map { field in
            "try table.rawSet(LuaBridge.LuaValue(\(quoted(field.name.trimmingBackticks))), \(field.name).toLua(in: state))"
        }.joined(separator: "; ")
        let decl: DeclSyntax = """
            extension \(raw: type): LuaBridge.LuaConvertible, LuaBridge.LuaArgument, LuaBridge.LuaResult {
                /// The name scripts and messages use.
                \(raw: access)nonisolated static var luaTypeName: String { \(literal: luaName) }
                \(raw: access)nonisolated static var luaArgumentName: String { \(literal: luaName) }
                /// A table of the stored properties, each checked (generated by `@Scriptable`).
                \(raw: access)nonisolated static func fromLua(_ value: LuaBridge.LuaValue) throws -> \(raw: type) {
                    let table = try LuaBridge.LuaStructFields.table(value, of: \(literal: luaName))
                    return \(raw: type)(\(raw: reads))
                }
                /// The value as a table of its stored properties.
                \(raw: access)nonisolated func toLua(in state: LuaBridge.LuaState) throws -> LuaBridge.LuaValue {
                    let table = try state.newTable(hashCapacity: \(raw: fields.count))
                    \(raw: writes)
                    return .table(table)
                }
                \(raw: access)nonisolated static func read(from frame: LuaBridge.LuaFrame, at position: Int32) throws -> \(raw: type) {
                    do { return try fromLua(frame.value(position)) }
                    catch let error as LuaBridge.LuaError where error.kind == .typeMismatch { throw frame.argumentError(position, error.message) }
                }
                \(raw: access)nonisolated func push(to frame: LuaBridge.LuaFrame) throws {
                    try frame.push(toLua(in: frame.state))
                }
            }
            """
        guard let extensionDecl = decl.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }
}
