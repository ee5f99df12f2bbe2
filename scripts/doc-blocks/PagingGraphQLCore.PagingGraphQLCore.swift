// The context of PagingGraphQLCore.docc/PagingGraphQLCore.md's samples (scripts/check-doc-blocks.py).
import GraphQL

let document: Document = placeholder()
let definition: OperationDefinition = placeholder()
