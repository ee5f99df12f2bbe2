// The context of PagingGraphQL.docc/PagingGraphQL.md's samples (scripts/check-doc-blocks.py).
let token: String = placeholder()
