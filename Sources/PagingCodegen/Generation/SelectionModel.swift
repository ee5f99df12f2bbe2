import GraphQL
import PagingGraphQLCore

/// What one selection set asks of one type, fields merged by response key:
/// the shape of one generated struct.
final class SelectionModel {
    /// A field of the struct.
    struct FieldModel {
        /// The field's response key: its alias, or its name.
        let key: String
        /// Its name in the schema.
        let name: String
        /// Its description in the schema.
        let description: String?
        /// Its type in the schema.
        let type: any GraphQLOutputType
        /// Whether `@include` or `@skip` may leave it out.
        var conditional: Bool
        /// The selection of an object field.
        let selection: SelectionModel?
        /// The field's `@connection` key (its `key:` argument, or its
        /// response key), when it carries the directive.
        var connectionKey: String?
        /// The variables its `first`, `after`, `last` and `before` arguments take.
        var paginationVariables: [String] = []
    }

    /// The GraphQL type the selection is on.
    let typeName: String
    /// The fields, in the order they first appear.
    private(set) var fields: [FieldModel] = []
    /// The named fragments spread on the same type, in the order they first appear.
    fileprivate(set) var fragments: [String] = []
    /// What inline fragments and fragment spreads on other types select
    /// (an interface's or a union's members), by their type condition, in
    /// the order they first appear; each applies when `__typename` is one of
    /// its possible types.
    private(set) var typeCases: [(condition: String, possibleTypes: [String], model: SelectionModel)] = []

    init(typeName: String) {
        self.typeName = typeName
    }

    /// The `@connection` fields at any depth, with the models of their nodes
    /// (`edges { node }`, or `nodes`) when those are selected directly.
    func connections() -> [(field: FieldModel, node: SelectionModel?)] {
        var found: [(field: FieldModel, node: SelectionModel?)] = []
        for field in fields {
            if field.connectionKey != nil {
                let edges = field.selection?.fields.first { $0.key == "edges" && $0.name == "edges" }
                let edgeNode = edges?.selection?.fields.first { $0.key == "node" && $0.name == "node" }
                let nodes = field.selection?.fields.first { $0.key == "nodes" && $0.name == "nodes" }
                found.append((field, edgeNode?.selection ?? nodes?.selection))
            }
            found += field.selection?.connections() ?? []
        }
        return found
    }

    /// Builds the model of a selection set on a type.
    /// - Throws: ``CodegenError`` with ``CodegenError/Code/unsupported`` for a
    ///   selection the generator does not turn into Swift yet.
    /// - Parameter fieldMaps: the fields of the types met so far, by type
    ///   name, kept from one call to the next: GraphQLSwift builds a type's
    ///   map anew each time it is asked for it.
    static func make(
        _ selectionSet: SelectionSet, on type: any GraphQLNamedType, documents: OperationDocuments,
        fieldMaps: inout [String: GraphQLFieldMap]
    ) throws(CodegenError) -> SelectionModel {
        let model = SelectionModel(typeName: type.name)
        var builder = Builder(documents: documents, stack: [(model, type, false)], fieldMaps: fieldMaps)
        defer { fieldMaps = builder.fieldMaps }
        _ = try SelectionWalker(fragments: [:]).walk(
            selectionSet, in: SelectionContext(definition: selectionSet), with: &builder)
        return model
    }

    /// Fills the models as the walker goes: fields merged by response key into
    /// the model of the selection they are in, an inline fragment on another
    /// type into that type's case, a fragment spread noted by name (its
    /// fields are its own struct's).
    private struct Builder: SelectionVisitor {
        typealias Failure = CodegenError
        let documents: OperationDocuments
        /// The models being filled, innermost last, with their types and
        /// whether `@include` or `@skip` may leave out what they get now.
        var stack: [(model: SelectionModel, type: any GraphQLNamedType, conditional: Bool)]
        /// The fields of each type met, by name.
        var fieldMaps: [String: GraphQLFieldMap]

        mutating func field(_ field: Field, in context: SelectionContext) throws(CodegenError)
            -> SelectionStep<Field>
        {
            let top = stack[stack.count - 1]
            let conditional = top.conditional || SelectionWalker.isConditional(field.directives)
            let fields: GraphQLFieldMap?
            if let known = fieldMaps[top.type.name] {
                fields = known
            } else {
                fields = SelectionModel.fields(of: top.type)
                fieldMaps[top.type.name] = fields
            }
            guard
                let child = try top.model.add(
                    field, on: top.type, fields: fields, conditional: conditional, documents: documents)
            else {
                return .keep(field)
            }
            // What a selection merged into a field already selected adds is left out when the
            // condition it is under is false; a field's own selections are present with it.
            stack.append((child.model, child.type, child.merged && conditional))
            return .enter(field)
        }

        mutating func leaveField(_ field: Field, in context: SelectionContext) -> Field {
            stack.removeLast()
            return field
        }

        mutating func inlineFragment(_ inline: InlineFragment, in context: SelectionContext)
            throws(CodegenError) -> SelectionStep<InlineFragment>
        {
            let top = stack[stack.count - 1]
            // Under @include or @skip, the case's fields may be left out: each is optional.
            let conditional = top.conditional || SelectionWalker.isConditional(inline.directives)
            if let condition = inline.typeCondition?.name.value, condition != top.type.name {
                let model = try top.model.typeCase(condition, in: documents.schema, at: inline)
                guard let caseType = documents.schema.schema.getType(name: condition) else {
                    return .keep(inline)
                }
                stack.append((model, caseType, conditional))
            } else {
                stack.append((top.model, top.type, conditional))
            }
            return .enter(inline)
        }

        mutating func leaveInlineFragment(_ inline: InlineFragment, in context: SelectionContext)
            -> InlineFragment
        {
            stack.removeLast()
            return inline
        }

        func spread(_ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext)
            throws(CodegenError) -> SelectionStep<FragmentSpread>
        {
            let top = stack[stack.count - 1]
            guard let fragment = documents.fragments[spread.name.value] else { return .keep(spread) }
            guard !top.conditional, !SelectionWalker.isConditional(spread.directives) else {
                throw OperationDocuments.error(
                    .unsupported, at: spread,
                    "a fragment spread under @include or @skip is not generated yet; spread \(spread.name.value) without it."
                )
            }
            let condition = fragment.typeCondition.name.value
            if condition == top.type.name {
                if !top.model.fragments.contains(spread.name.value) {
                    top.model.fragments.append(spread.name.value)
                }
            } else {
                let model = try top.model.typeCase(condition, in: documents.schema, at: spread)
                if !model.fragments.contains(spread.name.value) { model.fragments.append(spread.name.value) }
            }
            return .keep(spread)
        }
    }

    /// The model of the case for a type condition, made on first use.
    fileprivate func typeCase(_ condition: String, in schema: CodegenSchema, at node: any Node)
        throws(CodegenError)
        -> SelectionModel
    {
        if let existing = typeCases.first(where: { $0.condition == condition }) { return existing.model }
        let possible: [String]
        switch schema.schema.getType(name: condition) {
        case let object as GraphQLObjectType: possible = [object.name]
        case let abstract as any GraphQLAbstractType:
            possible = schema.schema.getPossibleTypes(abstractType: abstract).map(\.name).sorted()
        default:
            throw OperationDocuments.error(
                .invalidDocument, at: node, "\(condition) is not an object, interface or union.")
        }
        let model = SelectionModel(typeName: condition)
        typeCases.append((condition, possible, model))
        return model
    }

    /// Adds a field: a new one at the end, one of a key already selected
    /// merged into it (present when either selection is).
    /// - Returns: the model its selections go into, and its type, or `nil`
    ///   for a leaf or a selection already taken.
    fileprivate func add(
        _ field: Field, on type: any GraphQLNamedType, fields typeFields: GraphQLFieldMap?, conditional: Bool,
        documents: OperationDocuments
    ) throws(CodegenError) -> (model: SelectionModel, type: any GraphQLNamedType, merged: Bool)? {
        let key = field.responseKey
        if key == "__typename", field.name.value != "__typename" {
            throw OperationDocuments.error(
                .unsupported, at: field,
                "the alias __typename names the field \(field.name.value); the generated types read __typename to tell an object's type, choose another alias."
            )
        }
        let fieldType: any GraphQLOutputType
        var description: String?
        if field.name.value == "__typename" {
            fieldType = GraphQLNonNull(GraphQLString)
            description = "The name of the object's type."
        } else {
            guard let definition = typeFields?[field.name.value] else {
                throw OperationDocuments.error(
                    .unsupported, at: field,
                    "\(type.name) has no field \(field.name.value) the generator can see (selections on a union need inline fragments, which are not generated yet)."
                )
            }
            fieldType = definition.type
            description = definition.description
        }
        if let index = fields.firstIndex(where: { $0.key == key }) {
            // Selected twice: present when either selection is.
            fields[index].conditional = fields[index].conditional && conditional
            guard field.selectionSet != nil, let existing = fields[index].selection,
                let named = Self.namedType(of: fieldType)
            else { return nil }
            return (existing, named, true)
        }
        var child: (model: SelectionModel, type: any GraphQLNamedType, merged: Bool)?
        if field.selectionSet != nil, let named = Self.namedType(of: fieldType) {
            child = (SelectionModel(typeName: named.name), named, false)
        }
        var model = FieldModel(
            key: key, name: field.name.value, description: description, type: fieldType,
            conditional: conditional, selection: child?.model)
        if let directive = field.directives.first(where: { $0.name.value == "connection" }) {
            let keyArgument = directive.arguments.first { $0.name.value == "key" }?.value as? StringValue
            model.connectionKey = keyArgument?.value ?? key
            model.paginationVariables = field.arguments.compactMap { argument in
                ["first", "after", "last", "before"].contains(argument.name.value)
                    ? (argument.value as? Variable)?.name.value : nil
            }
        }
        fields.append(model)
        return child
    }

    /// The fields of an object or interface type.
    static func fields(of type: any GraphQLNamedType) -> GraphQLFieldMap? {
        if let object = type as? GraphQLObjectType { return try? object.fields() }
        if let interface = type as? GraphQLInterfaceType { return try? interface.fields() }
        return nil
    }

    /// The named type inside lists and non-nulls.
    static func namedType(of type: any GraphQLType) -> (any GraphQLNamedType)? {
        if let list = type as? GraphQLList { return namedType(of: list.ofType) }
        if let nonNull = type as? GraphQLNonNull { return namedType(of: nonNull.ofType) }
        return type as? any GraphQLNamedType
    }
}
