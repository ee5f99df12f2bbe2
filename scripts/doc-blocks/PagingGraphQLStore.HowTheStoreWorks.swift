// The context of PagingGraphQLStore.docc/HowTheStoreWorks.md's samples (scripts/check-doc-blocks.py).
import PagingGraphQLStore

let store: GraphQLStore = placeholder()
let operation: StoreOperation = placeholder()
