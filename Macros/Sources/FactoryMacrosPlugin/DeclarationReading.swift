import SwiftSyntax
import SwiftSyntaxMacros

/// What an attribute cannot expand, said at the member it is about (at the
/// attribute when `node` is nil).
struct ScriptMacroError: Error, CustomStringConvertible {
    let description: String
    var node: Syntax?
    init(_ description: String, at node: (some SyntaxProtocol)? = Optional<Syntax>.none) {
        self.description = description
        self.node = node.map { Syntax($0) }
    }

    /// This error, said at `node` unless it names a place already.
    func placed(at fallback: some SyntaxProtocol) -> ScriptMacroError {
        var placed = self
        if placed.node == nil { placed.node = Syntax(fallback) }
        return placed
    }
}

/// Lua's reserved words: a type's Lua name may not be one.
let luaKeywords: Set<String> = ["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
                                "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"]

/// `@Scriptable("LuaName")` / `@ScriptValue("LuaName")`: the name, checked to
/// be one scripts can write (`Shop.Item` → `@Scriptable("ShopItem")`).
func nameArgument(_ attribute: AttributeSyntax) throws -> String? {
    guard case .argumentList(let arguments)? = attribute.arguments, let first = arguments.first else { return nil }
    guard let literal = first.expression.as(StringLiteralExprSyntax.self),
          literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) else {
        throw ScriptMacroError("the name must be a string literal, without interpolation (@\(attribute.attributeName.trimmedDescription)(\"Name\"))",
                               at: first.expression)
    }
    let name = literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
    let isIdentifier = name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
        && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    guard isIdentifier, !luaKeywords.contains(name) else {
        throw ScriptMacroError("'\(name)' is not a name scripts can write: use letters, digits and _, not starting with a digit, "
                               + "and not a Lua keyword", at: first.expression)
    }
    return name
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
    /// What cannot be exported, each at its member: every one is reported,
    /// and the rest of the class is still read.
    let problems: [ScriptMacroError]
    /// What is left out that a reader might expect exported (members inside `#if`).
    let warnings: [ScriptMacroError]

    /// Attributes that make a class isolated to an actor other than the main one.
    private static let knownAttributes: Set<String> = [
        "MainActor", "Scriptable", "objc", "objcMembers", "available", "preconcurrency", "Observable", "frozen",
        "dynamicMemberLookup", "dynamicCallable", "propertyWrapper", "resultBuilder", "usableFromInline", "_spi", "Sendable",
        "unchecked", "discardableResult", "inlinable", "nonobjc", "NSApplicationMain", "UIApplicationMain", "main", "testable",
    ]

    init(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax) throws {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            throw ScriptMacroError(declaration.is(StructDeclSyntax.self)
                ? "@Scriptable exports a class (an object scripts hold): a struct is a value, which @ScriptValue lets scripts hold as a table"
                : "@Scriptable applies to a class (an object scripts hold); @ScriptValue to a struct (a value scripts hold as a table)")
        }
        var problems: [ScriptMacroError] = []
        name = classDecl.name.text
        var luaName = name
        do { luaName = try nameArgument(attribute) ?? name } catch let error as ScriptMacroError { problems.append(error) }
        self.luaName = luaName
        access = accessPrefix(of: classDecl.modifiers)
        let classAttributes = classDecl.attributes.compactMap { $0.as(AttributeSyntax.self) }
        isMainActor = classAttributes.contains { $0.attributeName.trimmedDescription == "MainActor" }
        for other in classAttributes where other.attributeName.trimmedDescription.hasSuffix("Actor") && !isMainActor
            && !Self.knownAttributes.contains(other.attributeName.trimmedDescription) {
            problems.append(ScriptMacroError("\(name) is isolated to \(other.trimmedDescription): @Scriptable runs members on the "
                                             + "main actor (@MainActor) or on the thread Lua calls from, not on another actor", at: other))
        }
        if classDecl.genericParameterClause != nil {
            problems.append(ScriptMacroError("\(name) is generic: scripts see one type of a name; export a concrete subclass, "
                                             + "or a class that wraps one specialisation", at: classDecl.name))
        }
        var initializer: ScriptFunction?
        var methods: [ScriptFunction] = []
        var properties: [ScriptProperty] = []
        var warnings: [ScriptMacroError] = []
        for member in classDecl.memberBlock.members {
            let decl = member.decl
            do {
                if let function = decl.as(FunctionDeclSyntax.self) {
                    guard isExported(function.modifiers, function.attributes), !isProtocolWitnessOnly(function) else { continue }
                    try Self.checkIsolation(function.attributes, of: function.name.text, in: name, mainActor: isMainActor)
                    methods.append(try ScriptFunction(function))
                } else if let initDecl = decl.as(InitializerDeclSyntax.self) {
                    // The first initializer scripts may call (a failable one would hand Lua a nil: left out).
                    guard initializer == nil, isExported(initDecl.modifiers, initDecl.attributes), initDecl.optionalMark == nil,
                          !isDecodingInitializer(initDecl) else { continue }
                    try Self.checkIsolation(initDecl.attributes, of: "init", in: name, mainActor: isMainActor)
                    initializer = try ScriptFunction(initDecl)
                } else if let variable = decl.as(VariableDeclSyntax.self) {
                    guard isExported(variable.modifiers, variable.attributes),
                          !variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) else { continue }
                    try Self.checkIsolation(variable.attributes, of: variable.bindings.first?.pattern.trimmedDescription ?? "", in: name,
                                            mainActor: isMainActor)
                    properties += try ScriptProperty.read(variable)
                } else if decl.is(IfConfigDeclSyntax.self) {
                    warnings.append(ScriptMacroError("members inside #if are not exported: the attribute cannot tell which branch "
                                                     + "builds; move them out, or export them with a LuaClass of your own", at: decl))
                }
            } catch let error as ScriptMacroError {
                problems.append(error.placed(at: decl))
            }
        }
        self.warnings = warnings
        // Lua has one member of a name: an overload (or a property of a method's name) would be lost.
        // (A class function and an instance member live in different tables.)
        var seen: Set<String> = [], seenStatic: Set<String> = []
        for method in methods where method.isStatic && !seenStatic.insert(method.name).inserted {
            problems.append(ScriptMacroError("'\(method.name)' is declared more than once: a Lua class has one function of a name; "
                                             + "mark the others @ScriptIgnored", at: method.node))
        }
        for (name, node) in methods.filter({ !$0.isStatic }).map({ ($0.name, $0.node) }) + properties.map({ ($0.name, $0.node) })
            where !seen.insert(name).inserted {
            problems.append(ScriptMacroError("'\(name)' is declared more than once (overloads, or a property and a method): a Lua "
                                             + "object has one member of a name; mark the others @ScriptIgnored", at: node))
        }
        // Names the export itself uses.
        for method in methods where method.name == "new" || (method.isStatic && method.name == "typeName") {
            problems.append(ScriptMacroError("'\(method.name)' is a name scripts use for \(method.name == "new" ? "the initializer (\(luaName).new)" : "the type's name (\(luaName).typeName)"): "
                                             + "rename it, or mark it @ScriptIgnored", at: method.node))
        }
        self.initializer = initializer
        self.methods = methods
        self.properties = properties
        self.problems = problems
    }

    /// A member isolated to the main actor in a class that is not: the
    /// generated code could not call it.
    private static func checkIsolation(_ attributes: AttributeListSyntax, of member: String, in className: String, mainActor: Bool) throws {
        let written = attributes.compactMap { $0.as(AttributeSyntax.self) }
        if let other = written.first(where: { $0.attributeName.trimmedDescription.hasSuffix("Actor")
                                              && $0.attributeName.trimmedDescription != "MainActor" && !knownAttributes.contains($0.attributeName.trimmedDescription) }) {
            throw ScriptMacroError("'\(member.trimmingBackticks)' is isolated to \(other.trimmedDescription): @Scriptable runs members on the main "
                                   + "actor or on the thread Lua calls from, not on another actor; mark it @ScriptIgnored", at: other)
        }
        guard !mainActor, let isolated = written.first(where: { $0.attributeName.trimmedDescription == "MainActor" }) else { return }
        throw ScriptMacroError("'\(member.trimmingBackticks)' is @MainActor but \(className) is not: mark the class @MainActor (then "
                               + "every member runs on the main actor), or mark '\(member.trimmingBackticks)' @ScriptIgnored", at: isolated)
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
    var returnsVoid: Bool { isVoid(resultType) }
    let summary: String?
    /// Where it is declared (for messages).
    let node: Syntax

    /// The call's arguments: `item: __a0, __a1` by the declaration's labels
    /// (a default value where a script left the argument out).
    var arguments: String {
        parameters.enumerated().map { index, parameter in
            (parameter.label.map { "\($0): " } ?? "") + (parameter.defaultValue.map { "__a\(index) ?? (\($0))" } ?? "__a\(index)")
        }.joined(separator: ", ")
    }

    init(_ function: FunctionDeclSyntax) throws {
        name = function.name.text.trimmingBackticks
        swiftName = function.name.text
        node = Syntax(function.name)
        let signature = function.signature
        if signature.effectSpecifiers?.asyncSpecifier != nil {
            throw ScriptMacroError("'\(name)' is async: Lua calls are synchronous; mark it @ScriptIgnored, or export a synchronous method",
                                   at: signature.effectSpecifiers?.asyncSpecifier)
        }
        if function.genericParameterClause != nil {
            throw ScriptMacroError("'\(name)' is generic: Lua needs one signature; mark it @ScriptIgnored", at: function.genericParameterClause)
        }
        if let clause = signature.effectSpecifiers?.throwsClause, clause.type != nil || clause.throwsSpecifier.text == "rethrows" {
            throw ScriptMacroError("'\(name)' \(clause.throwsSpecifier.text == "rethrows" ? "rethrows" : "has a typed throws")"
                                   + "; mark it @ScriptIgnored, or export a method that throws", at: clause)
        }
        let functionName = function.name.text.trimmingBackticks
        parameters = try signature.parameterClause.parameters.map { try ScriptParameter($0, in: functionName) }
        isThrowing = signature.effectSpecifiers?.throwsClause != nil
        isStatic = function.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        resultType = signature.returnClause?.type.trimmedDescription ?? "Void"
        if let result = signature.returnClause?.type, let why = unsupportedType(result) {
            throw ScriptMacroError("'\(name)' returns \(result.trimmedDescription), \(why); mark it @ScriptIgnored", at: result)
        }
        summary = docSummary(function.leadingTrivia)
    }

    init(_ initializer: InitializerDeclSyntax) throws {
        name = "new"
        swiftName = "init"
        node = Syntax(initializer.initKeyword)
        let signature = initializer.signature
        if signature.effectSpecifiers?.asyncSpecifier != nil {
            throw ScriptMacroError("the initializer is async: Lua calls are synchronous; mark it @ScriptIgnored",
                                   at: signature.effectSpecifiers?.asyncSpecifier)
        }
        if initializer.genericParameterClause != nil {
            throw ScriptMacroError("the initializer is generic: Lua needs one signature; mark it @ScriptIgnored",
                                   at: initializer.genericParameterClause)
        }
        parameters = try signature.parameterClause.parameters.map { try ScriptParameter($0, in: "init") }
        isThrowing = signature.effectSpecifiers?.throwsClause != nil
        isStatic = true
        resultType = "Self"
        summary = docSummary(initializer.leadingTrivia)
    }
}

/// A function that only serves a standard protocol, never a script: an
/// operator (`==`, `+`), `encode(to:)` (Encodable), `hash(into:)` (Hashable).
func isProtocolWitnessOnly(_ function: FunctionDeclSyntax) -> Bool {
    let name = function.name.text
    if let first = name.first, !(first.isLetter || first == "_" || first == "`") { return true }
    let labels = function.signature.parameterClause.parameters.map(\.firstName.text)
    return (name == "encode" && labels == ["to"]) || (name == "hash" && labels == ["into"])
}

/// `init(from decoder: Decoder)` (Decodable): not a script's constructor.
func isDecodingInitializer(_ initializer: InitializerDeclSyntax) -> Bool {
    initializer.signature.parameterClause.parameters.map(\.firstName.text) == ["from"]
        && initializer.signature.parameterClause.parameters.first?.type.trimmedDescription.hasSuffix("Decoder") == true
}

/// Whether `type` (as written) is Void.
func isVoid(_ type: String) -> Bool {
    ["Void", "()", "Swift.Void"].contains(type.filter { !$0.isWhitespace })
}

/// Why a type Lua cannot be handed is refused (nil: it may be; the compiler
/// then checks that it converts).
func unsupportedType(_ type: TypeSyntax) -> String? {
    if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count > 1 {
        return "a tuple, which Lua cannot hold as one value (return a @ScriptValue struct, or take its parts as parameters)"
    }
    if type.is(FunctionTypeSyntax.self) || type.as(AttributedTypeSyntax.self)?.baseType.is(FunctionTypeSyntax.self) == true {
        return "a function, which scripts cannot give or be given through an export (take a @ScriptImplementable protocol)"
    }
    if let some = type.as(SomeOrAnyTypeSyntax.self), some.someOrAnySpecifier.text == "some" {
        return "an opaque type, which Lua needs named (take a concrete type, or an `any P` of a @ScriptImplementable protocol)"
    }
    if let some = type.as(SomeOrAnyTypeSyntax.self), some.constraint.is(CompositionTypeSyntax.self) {
        return "a composition, which Lua cannot implement (take one @ScriptImplementable protocol)"
    }
    if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
        return "implicitly unwrapped, which an export cannot promise (write \(unwrapped.wrappedType.trimmedDescription)?)"
    }
    // `(any P)?`, `[any P]`, `[String: any P]`, `Optional<any P>`: an implementation is taken one at a time.
    let generic = type.as(IdentifierTypeSyntax.self)?.genericArgumentClause?.arguments.compactMap { $0.argument.as(TypeSyntax.self) } ?? []
    for wrapped in [type.as(OptionalTypeSyntax.self)?.wrappedType, type.as(ArrayTypeSyntax.self)?.element,
                    type.as(DictionaryTypeSyntax.self)?.key, type.as(DictionaryTypeSyntax.self)?.value].compactMap({ $0 }) + generic {
        let inner = wrapped.as(TupleTypeSyntax.self)?.elements.first?.type ?? wrapped
        if let any = inner.as(SomeOrAnyTypeSyntax.self), any.someOrAnySpecifier.text == "any" {
            return "a container of \(any.trimmedDescription), which is not supported (take `\(any.trimmedDescription)` itself)"
        }
        if let why = unsupportedType(inner) { return why }
    }
    return nil
}

/// A parameter: its label in Swift calls, its name for scripts, its type.
struct ScriptParameter {
    /// The argument label (nil: `_`).
    let label: String?
    /// The name `types` shows (the label, else the parameter's own name).
    let luaName: String
    /// The type as written (`String?`, `[Item]`, `any PaymentGateway`).
    let type: String
    /// The default value's expression, when it has one: a script may leave the argument out (or pass nil).
    let defaultValue: String?

    init(_ parameter: FunctionParameterSyntax, in function: String) throws {
        let first = parameter.firstName.text
        label = first == "_" ? nil : first.trimmingBackticks
        // The parameter's own name (`member` in `to member: String`): what its doc comment calls it.
        // (`_: String` and `at _: Int` have no name of their own: the label, else "value".)
        let own = parameter.secondName?.text ?? first
        luaName = (own != "_" ? own : label ?? "value").trimmingBackticks
        // `borrowing`/`consuming`/`sending` say how Swift passes it; Lua hands a copy either way.
        var written = parameter.type
        if let attributed = written.as(AttributedTypeSyntax.self), attributed.attributes.isEmpty,
           !attributed.specifiers.isEmpty,
           attributed.specifiers.allSatisfy({ ["borrowing", "consuming", "sending", "__owned", "__shared"].contains($0.trimmedDescription) }) {
            written = attributed.baseType
        }
        type = written.trimmedDescription
        defaultValue = parameter.defaultValue?.value.trimmedDescription
        if parameter.ellipsis != nil {
            throw ScriptMacroError("'\(function)' takes a variadic '\(luaName)': take an array instead, or mark it @ScriptIgnored", at: parameter)
        }
        if type.hasPrefix("inout ") {
            throw ScriptMacroError("'\(function)' takes '\(luaName)' inout, which Lua cannot give; mark it @ScriptIgnored", at: parameter)
        }
        if let why = unsupportedType(written) {
            throw ScriptMacroError("'\(function)' takes '\(luaName)' as \(type), \(why); mark it @ScriptIgnored", at: parameter)
        }
    }

    /// An existential (`any P`): a protocol Lua implements through `@ScriptImplementable`'s `LuaP`.
    var protocolName: String? {
        guard type.hasPrefix("any ") else { return nil }
        let name = type.dropFirst(4).trimmingCharacters(in: " ")
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } ? name : nil
    }

    private var isOptional: Bool { type.hasSuffix("?") || type.hasPrefix("Optional<") }

    /// The protocol's name as its interface gives it (`Gateway` for `any Shop.Gateway`).
    var interfaceName: String? { protocolName.map { $0.split(separator: ".").last.map(String.init) ?? $0 } }

    /// Its adapter class (`Shop.LuaGateway` for `any Shop.Gateway`).
    var adapterName: String? {
        guard let protocolName, let interfaceName else { return nil }
        return String(protocolName.dropLast(interfaceName.count)) + "Lua" + interfaceName
    }

    /// The expression reading it from the frame at `position` — optional
    /// when it has a default value, which the call then uses where a script
    /// left it out (a non-optional parameter: or passed nil).
    func read(at position: Int) -> String {
        let read = adapterName.map { "(try \($0).interface.argument(__frame, \(position)) as \(type))" }
            ?? "try (\(type)).read(from: __frame, at: \(position))"
        guard defaultValue != nil else { return read }
        let absent = isOptional ? "\(position) > __frame.count" : "__frame.isNoneOrNil(\(position))"
        return "\(absent) ? nil : Optional(\(read))"
    }

    /// `(String?).self`, for the declared argument types (one with a default
    /// is optional to scripts).
    var metatype: String { defaultValue != nil && !isOptional ? "((\(type))?).self" : "(\(type)).self" }
}

/// A property as it is exported.
struct ScriptProperty {
    let name: String
    let swiftName: String
    let isSettable: Bool
    let isThrowing: Bool
    let summary: String?
    let node: Syntax

    /// Each exported binding of `variable` (`var a, b: Int` has two).
    static func read(_ variable: VariableDeclSyntax) throws -> [ScriptProperty] {
        let isLet = variable.bindingSpecifier.text == "let"
        // `private(set)` / `fileprivate(set)`: scripts read it only.
        let setterHidden = variable.modifiers.contains { modifier in
            ["private", "fileprivate"].contains(modifier.name.text) && modifier.detail?.detail.text == "set"
        }
        return try variable.bindings.compactMap { binding in
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { return nil }
            if let type = binding.typeAnnotation?.type {
                let text = type.trimmedDescription
                if text.hasPrefix("any ") || text.hasPrefix("some ") {
                    throw ScriptMacroError("'\(pattern.identifier.text)' is \(text), which Lua cannot be handed: mark it @ScriptIgnored", at: binding)
                }
                if let why = unsupportedType(type) {
                    throw ScriptMacroError("'\(pattern.identifier.text)' is \(text), \(why); mark it @ScriptIgnored", at: binding)
                }
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
                    if list.contains(where: { $0.effectSpecifiers?.asyncSpecifier != nil }) {
                        throw ScriptMacroError("'\(pattern.identifier.text)' is read async: Lua reads are synchronous; mark it @ScriptIgnored",
                                               at: binding)
                    }
                }
            }
            return ScriptProperty(name: pattern.identifier.text.trimmingBackticks, swiftName: pattern.identifier.text,
                                  isSettable: settable && !throwing, isThrowing: throwing,
                                  summary: docSummary(variable.leadingTrivia), node: Syntax(binding))
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
    /// The stored properties scripts give and get, in order: name, type,
    /// and the default value's expression when it has one.
    let fields: [(name: String, type: String, defaultValue: String?)]
    /// What cannot be converted, each at its field (all are reported).
    let problems: [ScriptMacroError]

    init(_ structDecl: StructDeclSyntax, attribute: AttributeSyntax) throws {
        name = structDecl.name.text
        luaName = try nameArgument(attribute) ?? name
        access = accessPrefix(of: structDecl.modifiers)
        var fields: [(String, String, String?)] = []
        var problems: [ScriptMacroError] = []
        var hasInitializer = false
        for member in structDecl.memberBlock.members {
            if member.decl.is(InitializerDeclSyntax.self) { hasInitializer = true }
            if member.decl.is(IfConfigDeclSyntax.self) {
                problems.append(ScriptMacroError("a field inside #if: the table could not say which fields \(name) has; move it out, "
                                                 + "or give it a default value in a private var outside #if", at: member.decl))
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) }) else { continue }
            let hidden = !isExported(variable.modifiers, variable.attributes)    // private, or @ScriptIgnored
            // `var x, y, z: Double`: each binding's type is the next one written.
            let bindings = Array(variable.bindings)
            for (index, binding) in bindings.enumerated() {
                do {
                    guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                        throw ScriptMacroError("'\(binding.pattern.trimmedDescription)' binds a pattern: give each field its own var", at: binding)
                    }
                    let fieldName = pattern.identifier.text
                    if let accessors = binding.accessorBlock?.accessors {
                        if case .getter = accessors { continue }                       // computed: not part of the value
                        if case .accessors(let list) = accessors, list.contains(where: { ["get", "_read"].contains($0.accessorSpecifier.text) }) { continue }
                    }
                    if hidden {
                        // Left to Swift: the memberwise initializer must not need it.
                        let impliedNil = variable.bindingSpecifier.text == "var" && binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) == true
                        guard binding.initializer != nil || impliedNil else {
                            throw ScriptMacroError("'\(fieldName)' is left out of the table (private or @ScriptIgnored), so it needs a default "
                                                   + "value: the memberwise initializer that builds \(name) from a table cannot give it", at: binding)
                        }
                        continue
                    }
                    guard let type = bindings[index...].lazy.compactMap({ $0.typeAnnotation?.type.trimmedDescription }).first else {
                        throw ScriptMacroError("'\(fieldName)' needs its type written (var \(fieldName): Type): "
                                               + "scripts give it as a table field, checked against that type", at: binding)
                    }
                    if variable.bindingSpecifier.text == "let", binding.initializer != nil {
                        throw ScriptMacroError("'\(fieldName)' is a let with a value, which the memberwise initializer cannot take: "
                                               + "make it a var, a static, or a computed property", at: binding)
                    }
                    if let annotated = bindings[index...].lazy.compactMap({ $0.typeAnnotation?.type }).first, let why = unsupportedType(annotated) {
                        throw ScriptMacroError("'\(fieldName)' is \(type), \(why); make it private with a default value to keep it out", at: binding)
                    }
                    fields.append((fieldName, type, binding.initializer?.value.trimmedDescription))
                } catch let error as ScriptMacroError {
                    problems.append(error)
                }
            }
        }
        if hasInitializer {
            problems.append(ScriptMacroError("@ScriptValue builds \(name) through its memberwise initializer: move its own initializers "
                                             + "to an extension (the memberwise one stays)"))
        }
        self.fields = fields
        self.problems = problems
    }

    /// The extension converting it to and from a table.
    func conversion(of type: String) throws -> [ExtensionDeclSyntax] {
        // The generated names start with `__`: a field's default may name a global `table`.
        let reads = fields.map { field in
            "\(field.name): try LuaBridge.LuaStructFields.read(__table, \(quoted(field.name.trimmingBackticks)), as: (\(field.type)).self, "
                + "of: \(quoted(luaName))\(field.defaultValue.map { ", default: (\($0))" } ?? ""))"
        }.joined(separator: ", ")
        // `self.`: a field may be called `table` or `state`.
        let writes = fields.map { field in
            "try __table.rawSet(LuaBridge.LuaValue(\(quoted(field.name.trimmingBackticks))), self.\(field.name).toLua(in: __state))"
        }.joined(separator: "; ")
        let build = fields.isEmpty ? "_ = try LuaBridge.LuaStructFields.table(__value, of: \(quoted(luaName)))\n        return \(type)()"
            : "let __table = try LuaBridge.LuaStructFields.table(__value, of: \(quoted(luaName)))\n        return \(type)(\(reads))"
        let make = "let __table = try LuaBridge.LuaStructFields.newTable(in: __state, fields: \(fields.count), of: \(quoted(luaName)))\n        "
            + (writes.isEmpty ? "" : writes + "\n        ") + "return .table(__table)"
        let decl: DeclSyntax = """
            extension \(raw: type): LuaBridge.LuaConvertible, LuaBridge.LuaArgument, LuaBridge.LuaResult {
                /// The name scripts and messages use.
                \(raw: access)nonisolated static var luaTypeName: String { \(literal: luaName) }
                \(raw: access)nonisolated static var luaArgumentName: String { \(literal: luaName) }
                /// A table of the stored properties, each checked (generated by `@ScriptValue`).
                \(raw: access)nonisolated static func fromLua(_ __value: LuaBridge.LuaValue) throws -> \(raw: type) {
                    \(raw: build)
                }
                /// The value as a table of its stored properties.
                \(raw: access)nonisolated func toLua(in __state: LuaBridge.LuaState) throws -> LuaBridge.LuaValue {
                    \(raw: make)
                }
                \(raw: access)nonisolated static func read(from __frame: LuaBridge.LuaFrame, at __position: Int32) throws -> \(raw: type) {
                    do { return try fromLua(__frame.value(__position)) }
                    catch let __error as LuaBridge.LuaError where __error.kind == .typeMismatch { throw __frame.argumentError(__position, __error.message) }
                }
                \(raw: access)nonisolated func push(to __frame: LuaBridge.LuaFrame) throws {
                    try __frame.push(toLua(in: __frame.state))
                }
            }
            """
        guard let extensionDecl = decl.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }
}
