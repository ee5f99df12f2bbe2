import PagingGraphQLClient
import PagingGraphQLCore
import Testing

// The torture suite's lists: a backward connection over a union told apart by inline fragments, a
// forward one, and a lowerCamelCase @refetchable fragment. What the library sends for each is what
// the generated types were typed from (issue 37).
@Suite("Codegen, names made to break it: the request sent is the document typed")
struct TortureSentDocumentTests {
    @Test("each @connection operation's list asks for the typed document, definition by definition")
    func connectionLists() throws {
        let lists: [(connectionDocument: String, document: String, name: String)] = [
            (IssueTimelineQuery.connectionDocument, IssueTimelineQuery.document, "issueTimeline"),
            (UserRepositoriesQuery.connectionDocument, UserRepositoriesQuery.document, "userRepositories"),
        ]
        for list in lists {
            let sent = try ConnectionDocument(list.connectionDocument, operationName: list.name)
            #expect(
                try DocumentAnalysis.printedDefinitions(sent.text)
                    == DocumentAnalysis.printedDefinitions(list.document), "\(list.name)")
        }
    }

    @Test(
        "the refetch query of a lowerCamelCase @refetchable fragment asks for the fragments as its parent does"
    )
    func refetchQuery() throws {
        let fragment = try PaginationFragmentDocument(RepositoryList_user.paginationDocument)
        let refetch = try DocumentAnalysis.printedDefinitions(fragment.text)
        let parent = try DocumentAnalysis.printedDefinitions(ViewerRepositoriesQuery.document)
        let fragments = parent.keys.filter { $0.hasPrefix("fragment ") }
        #expect(fragments.contains("fragment repositoryList_user"))
        for name in fragments {
            #expect(refetch[name] == parent[name], "\(name)")
        }
    }
}
