import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin: the macros `FactoryMacros` declares.
@main
struct FactoryMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ScriptableMacro.self, ScriptValueMacro.self, ScriptIgnoredMacro.self, ScriptImplementableMacro.self]
}
