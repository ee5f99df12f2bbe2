public import Paging

/// Pages a connection from its query document alone: no closure to write.
///
/// ```swift
/// let document = try ConnectionDocument("""
///     query Launches($first: Int, $after: String) {
///       launches(first: $first, after: $after) @connection(key: "Launches_launches") {
///         edges { node { id site mission { name } } }
///       }
///     }
///     """)
/// let list = ConnectionSource(client: client, document: document, as: Launch.self).makeList()
/// list.loadNext(count: 20)
/// ```
///
/// See <doc:HowThePagersWork> for how it works in detail.
public struct ConnectionSource<Node: Sendable>: PageSource {
    /// The engine's key: a cursor.
    public typealias Key = String
    /// The engine's item: a node.
    public typealias Item = Node

    /// The client the document is sent with.
    public let client: GraphQLClient
    /// The document that is paged.
    public let document: ConnectionDocument
    /// The document's other variables, sent with every page.
    public let variables: [String: JSONValue]
    private let decode: @Sendable (ConnectionPage) throws -> [Node]
    /// Decodes one node read back from a store; the item it replaces, if
    /// any, gives what the store does not hold (a ``JSONNode``'s cursor).
    let decodeNode: @Sendable (JSONValue, Node?) throws -> Node
    private let onPartialData: (@Sendable (PartialDataReport<String>) -> Void)?
    private let strategy: RelayCursorSource<Node>
    /// What the source's copies share: the follower of the store of each
    /// pager over the source is kept for it.
    private let identity = SourceIdentity()

    /// Hands a loaded page, its nodes as sent and the request, to a follower.
    private typealias Track = @Sendable ([JSONValue], [Node], PageRequest<String>, Int?) -> Void

    init(
        client: GraphQLClient,
        document: ConnectionDocument,
        variables: [String: JSONValue],
        decode: @escaping @Sendable (ConnectionPage) throws -> [Node],
        decodeNode: @escaping @Sendable (JSONValue, Node?) throws -> Node,
        onPartialData: (@Sendable (PartialDataReport<String>) -> Void)?
    ) {
        self.client = client
        self.document = document
        self.variables = variables
        self.decode = decode
        self.decodeNode = decodeNode
        self.onPartialData = onPartialData
        let direction: PagingDirection =
            switch (document.variables.pagesForward, document.variables.pagesBackward) {
            case (true, true): .bidirectional
            case (false, true): .reverse
            default: .forward
            }
        // The strategy is used for its arguments and its keys; `load` sends
        // the request itself so that it sees the response's errors.
        strategy = RelayCursorSource(direction) { arguments in
            try await Self.fetch(
                arguments, client: client, document: document, variables: variables, decode: decode
            ).page
        }
    }

    /// The direction the document pages in: forward when it takes `after:`,
    /// backward when it takes `before:`, both when it takes both.
    public var direction: PagingDirection { strategy.direction }

    /// Loads the page a request asks for.
    /// - Parameter request: the engine's request; its count is sent as
    ///   `first` (or `last`).
    /// - Returns: the page's nodes, with the cursors of its neighbours.
    /// - Throws: ``GraphQLClientError`` when no data came, the connection is
    ///   missing, or a node does not decode; `CancellationError` when
    ///   cancelled.
    /// - Complexity: one request (two for a deep link to the end), plus
    ///   decoding one page.
    public func load(_ request: PageRequest<String>) async throws -> Page<String, Node> {
        // A followed page is written to the store before its follower
        // retains it: until then, no collection may take it.
        let track = tracker(for: request)
        let keeper = track == nil ? nil : client.store?.keepWrites()
        defer { keeper?.cancel() }
        let fetch = { (arguments: RelayArguments) in
            let (page, nodes, errors, written) = try await Self.fetch(
                arguments, client: client, document: document, variables: variables, decode: decode)
            if !errors.isEmpty, let onPartialData {
                onPartialData(PartialDataReport(request: request, errors: errors))
            }
            return (page, nodes, written)
        }
        let (page, nodes, written) = try await fetch(strategy.arguments(for: request))
        // Opened at the end: the connection's last page instead of an empty one.
        if let tail = strategy.tailArguments(for: request, after: page) {
            let (tailPage, tailNodes, tailWritten) = try await fetch(tail)
            track?(tailNodes, tailPage.items, request, tailWritten)
            return strategy.tailPage(from: tailPage)
        }
        track?(nodes, page.items, request, written)
        return strategy.page(from: page, for: request)
    }

    /// The page a request asks for, made of data already fetched (a parent
    /// query's) instead of a response: no request is sent. The page is
    /// followed in the client's store as a loaded one is.
    /// - Parameters:
    ///   - data: data shaped as the document's response data.
    ///   - request: the engine's request.
    /// - Returns: the page's nodes, with the cursors of its neighbours.
    /// - Throws: ``GraphQLClientError`` when the data has no connection where
    ///   the document has it, or a node does not decode.
    /// - Complexity: decoding one page.
    func page(fromFetched data: JSONValue, for request: PageRequest<String>) throws -> Page<String, Node> {
        let connection = try document.extractPage(from: data)
        let page = try Self.relayPage(of: connection, decode: decode)
        tracker(for: request)?(connection.nodes, page.items, request, nil)
        return strategy.page(from: page, for: request)
    }

    /// The variables sent for a page's pagination arguments: each of the
    /// document's `first`, `after`, `last` and `before` variables is set,
    /// to `null` when the arguments leave it out.
    /// - Parameters:
    ///   - arguments: the pagination arguments.
    ///   - document: the document.
    ///   - base: the other variables.
    /// - Returns: the variables to send.
    static func variables(
        for arguments: RelayArguments, document: ConnectionDocument, merging base: [String: JSONValue]
    ) -> [String: JSONValue] {
        var values = base
        let names = document.variables
        if let name = names.first { values[name] = arguments.first.map(JSONValue.int) ?? .null }
        if let name = names.after { values[name] = arguments.after.map(JSONValue.string) ?? .null }
        if let name = names.last { values[name] = arguments.last.map(JSONValue.int) ?? .null }
        if let name = names.before { values[name] = arguments.before.map(JSONValue.string) ?? .null }
        return values
    }

    private static func fetch(
        _ arguments: RelayArguments,
        client: GraphQLClient,
        document: ConnectionDocument,
        variables: [String: JSONValue],
        decode: @Sendable (ConnectionPage) throws -> [Node]
    ) async throws -> (
        page: RelayPage<Node>, nodes: [JSONValue], errors: [GraphQLResponseError], written: Int?
    ) {
        let request = UntypedOperation(
            document: document.text,
            operationName: document.operationName,
            variables: Self.variables(for: arguments, document: document, merging: variables))
        let response = try await client.send(request)
        let connection = try document.extractPage(from: response)
        let page = try relayPage(of: connection, decode: decode)
        return (page, connection.nodes, response.errors, response.storeCommitCount)
    }

    /// The strategy's page of a connection read from data: its nodes
    /// decoded, its page info.
    private static func relayPage(
        of connection: ConnectionPage, decode: @Sendable (ConnectionPage) throws -> [Node]
    ) throws -> RelayPage<Node> {
        let info = connection.pageInfo
        return RelayPage(
            items: try decode(connection),
            pageInfo: PageInfo(
                hasNextPage: info.hasNextPage, hasPreviousPage: info.hasPreviousPage,
                startCursor: info.startCursor, endCursor: info.endCursor))
    }
}

extension ConnectionSource where Node: Decodable {
    /// Creates a source whose nodes decode into a type of your own.
    /// - Parameters:
    ///   - client: the client to send the document with.
    ///   - document: the analysed document.
    ///   - variables: the document's other variables, sent with every page;
    ///     the pagination variables are set by the source.
    ///   - type: the type of a node.
    ///   - onPartialData: called with the errors of a page that came with
    ///     data and errors; the page is delivered either way.
    public init(
        client: GraphQLClient,
        document: ConnectionDocument,
        variables: [String: JSONValue] = [:],
        as type: Node.Type = Node.self,
        onPartialData: (@Sendable (PartialDataReport<String>) -> Void)? = nil
    ) {
        self.init(
            client: client, document: document, variables: variables,
            decode: { try $0.decodeNodes(as: Node.self) },
            decodeNode: { value, _ in try value.decode(Node.self) }, onPartialData: onPartialData)
    }
}

extension ConnectionSource where Node == JSONNode {
    /// Creates a source that keeps the nodes as JSON, for tools.
    /// - Parameters:
    ///   - client: the client to send the document with.
    ///   - document: the analysed document.
    ///   - variables: the document's other variables.
    ///   - idKey: the node member the list tells nodes apart by.
    ///   - onPartialData: called with the errors of a page that came with
    ///     data and errors.
    public init(
        client: GraphQLClient,
        document: ConnectionDocument,
        variables: [String: JSONValue] = [:],
        idKey: String = "id",
        onPartialData: (@Sendable (PartialDataReport<String>) -> Void)? = nil
    ) {
        self.init(
            client: client, document: document, variables: variables,
            decode: { page in zip(page.nodes, page.cursors).map { JSONNode($0, cursor: $1, idKey: idKey) } },
            decodeNode: { value, old in JSONNode(value, cursor: old?.cursor, idKey: idKey) },
            onPartialData: onPartialData)
    }
}

extension ConnectionSource {
    /// The follower of the client's store kept for the pager of a load,
    /// told of each page: `nil` without a store, without a pager (a load
    /// called directly), or when the pager's rows are not this source's
    /// nodes (a transform between that cannot be followed).
    ///
    /// Every pager over the source follows the store, through any wrapper
    /// that passes the request on. When a response, a mutation or an edit
    /// changes a record that an item was read from (its node's record, or
    /// one the node's selection reaches), the item is read again from the
    /// store and replaced, with no request. A deleted record removes its
    /// item; a mutation's `@appendNode` / `@prependNode` / `@appendEdge` /
    /// `@prependEdge` / `@deleteEdge` naming this connection's key (or,
    /// without a key, its field name) inserts or removes an item. What one
    /// store change does is one batch edit (`Pager.apply(_:)`): one
    /// snapshot. A change while a refresh is in flight reaches the rows on
    /// screen, and the rows the refresh swaps in. The follower lives as
    /// long as the pager.
    /// - Complexity: O(1); following costs O(*k* (*m* + log *p*)) and *k*
    ///   reads per change for the *k* items it touches, in pages of *m*
    ///   items out of *p*, whatever the number held, and one read of each
    ///   node of a page that loads (two when the node's selection reaches
    ///   other records).
    private func tracker(for request: PageRequest<String>) -> Track? {
        guard client.store != nil, let rows = request.load?.rows as? any FollowedRows else { return nil }
        return tracker(for: request, rowsOf: rows)
    }

    /// The tracker of a load, with the type of the pager's rows opened: the
    /// nodes are followed when they are those rows' items, which the type
    /// of this source cannot state (nodes need not be `Identifiable`).
    private func tracker<Rows: FollowedRows>(for request: PageRequest<String>, rowsOf _: Rows) -> Track? {
        guard let source = self as? ConnectionSource<Rows.Item> else { return nil }
        return source.tracker(for: request, owner: identity) as? Track
    }
}

extension ConnectionSource where Node: Identifiable, Node.ID: Sendable {
    /// Tells the follower of the client's store kept for the pager of a
    /// load, made the first time, of each page; `nil` when there is nothing
    /// to follow.
    fileprivate func tracker(for request: PageRequest<String>, owner: SourceIdentity)
        -> (@Sendable ([JSONValue], [Node], PageRequest<String>, Int?) -> Void)?
    {
        guard let store = client.store, let selection = document.nodeSelection,
            let follower = StoreFollower.forLoad(
                request, owner: owner, store: store,
                tracking: {
                    RecordTracking<Node>(
                        query: StoreQuery(rootKey: .queryRoot, sets: selection.sets, variables: variables),
                        connections: [document.connectionKey], decode: decodeNode,
                        membership: FollowedMembership(
                            rules: store.configuration.membershipRules,
                            connections: [document.connectionKey, document.connectionFieldName],
                            arguments: document.filterArguments.resolved(variables)))
                })
        else { return nil }
        return { nodes, items, request, written in
            follower.track(nodes, as: items, for: request, written: written)
        }
    }
}

/// A connection's page asked for again with its cursor is the page after (or
/// before) that cursor now: an anchored refresh (`Pager.refresh(around:)`)
/// can reload the page where the user is.
extension ConnectionSource: ReloadablePageSource {}
