package import GraphQL

/// The variables selections use, in the arguments of their fields and of
/// the directives of fields, inline fragments and fragment spreads, through
/// the fragments they spread (each followed once), and the names of those
/// fragments in the order first reached.
///
/// ```swift
/// var uses = VariableUses()
/// _ = SelectionWalker(document: document).walk(
///     operation.selectionSet, in: SelectionContext(definition: operation), with: &uses)
/// uses.names     // ["first", "after", "withRocket"]
/// uses.fragments // ["LaunchTile"]
/// ```
package struct VariableUses: SelectionVisitor {
    /// Each use of a variable, in the order walked: its name and where it is.
    package private(set) var uses: [(name: String, variable: Variable)] = []
    /// The fragments spread, in the order first reached (a name the document
    /// does not define too).
    package private(set) var fragments: [String] = []

    /// No use yet.
    package init() {}

    /// The names of the variables used, each once.
    package var names: Set<String> { Set(uses.map(\.name)) }

    /// Notes the variables of a field's arguments and directives, and enters it.
    package mutating func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
        for argument in field.arguments { note(argument.value) }
        note(field.directives)
        return .enter(field)
    }

    /// Notes the variables of an inline fragment's directives, and enters it.
    package mutating func inlineFragment(_ fragment: InlineFragment, in context: SelectionContext)
        -> SelectionStep<InlineFragment>
    {
        note(fragment.directives)
        return .enter(fragment)
    }

    /// Notes the variables of a spread's directives, and follows it the first time.
    package mutating func spread(
        _ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext
    ) -> SelectionStep<FragmentSpread> {
        note(spread.directives)
        guard !fragments.contains(spread.name.value) else { return .keep(spread) }
        fragments.append(spread.name.value)
        return .enter(spread)
    }

    private mutating func note(_ directives: [Directive]) {
        for directive in directives {
            for argument in directive.arguments { note(argument.value) }
        }
    }

    private mutating func note(_ value: any Value) {
        if let variable = value as? Variable {
            uses.append((variable.name.value, variable))
        } else if let list = value as? ListValue {
            for element in list.values { note(element) }
        } else if let object = value as? ObjectValue {
            for field in object.fields { note(field.value) }
        }
    }
}
