extension ConnectionDocument {
    /// Reads the page of the connection out of a response's data.
    ///
    /// ```swift
    /// let response = try await client.send(UntypedOperation(document: document.text, variables: variables))
    /// let page = try document.extractPage(from: response)
    /// let launches = try page.decodeNodes(as: Launch.self)
    /// ```
    /// - Parameter data: the response's `data`.
    /// - Returns: the nodes, cursors, page info and total count.
    /// - Throws: ``GraphQLClientError/Code/undecodableResponse`` when the data
    ///   has no connection object at ``connectionPath`` (or it is `null`) or
    ///   its `edges`, `nodes` or `pageInfo` have the wrong shape.
    /// - Complexity: O(*n*), where *n* is the number of edges.
    public func extractPage(from data: JSONValue) throws(GraphQLClientError) -> ConnectionPage {
        var connection = data
        for (offset, segment) in connectionPath.enumerated() {
            guard let next = connection[path: [segment]], !next.isNull else {
                let reached = Array(connectionPath.prefix(offset + 1))
                throw .undecodableConnection(
                    path: reached,
                    problem:
                        "the response has \(connection[path: [segment]] == nil ? "nothing" : "null") where the connection "
                        + "\"\(connectionKey)\" should be (at \(GraphQLPathSegment.describe(connectionPath)))"
                )
            }
            connection = next
        }
        guard case .object = connection else {
            throw .undecodableConnection(path: connectionPath, problem: "the connection is not a JSON object")
        }

        var nodes: [JSONValue] = []
        var cursors: [String?] = []
        var paths: [[GraphQLPathSegment]] = []
        if let edgesKey, let nodeKey = edgeNodeKey, let edges = connection[edgesKey], !edges.isNull {
            guard let list = edges.arrayValue else {
                throw .undecodableConnection(
                    path: connectionPath + [.key(edgesKey)], problem: "edges is not a list")
            }
            for (index, edge) in list.enumerated() {
                guard let node = edge[nodeKey], !node.isNull else { continue }
                nodes.append(node)
                cursors.append(edge["cursor"]?.stringValue)
                paths.append(connectionPath + [.key(edgesKey), .index(index), .key(nodeKey)])
            }
        } else if let nodesKey, let values = connection[nodesKey], !values.isNull {
            guard let list = values.arrayValue else {
                throw .undecodableConnection(
                    path: connectionPath + [.key(nodesKey)], problem: "nodes is not a list")
            }
            for (index, node) in list.enumerated() where !node.isNull {
                nodes.append(node)
                cursors.append(nil)
                paths.append(connectionPath + [.key(nodesKey), .index(index)])
            }
        }

        let pageInfo: PageInfo
        do {
            pageInfo = try connection["pageInfo"]?.decode(PageInfo.self) ?? PageInfo()
        } catch {
            throw .undecodableConnection(
                path: connectionPath + ["pageInfo"], problem: "pageInfo has the wrong shape: \(error)")
        }
        return ConnectionPage(
            nodes: nodes,
            cursors: cursors,
            pageInfo: pageInfo,
            totalCount: connection["totalCount"]?.intValue,
            nodePaths: paths
        )
    }

    /// Reads the page of the connection out of a response, reporting the
    /// response's GraphQL errors when they are why the connection is
    /// missing.
    /// - Parameter response: a response to ``text``.
    /// - Returns: the page.
    /// - Throws: ``GraphQLClientError/Code/graphQLErrors`` when the
    ///   connection is missing or `null` and the response has errors;
    ///   otherwise as ``extractPage(from:)-(JSONValue)``.
    public func extractPage(from response: GraphQLResponse<JSONValue>) throws(GraphQLClientError)
        -> ConnectionPage
    {
        guard let data = response.data else {
            throw .graphQLErrors(response.errors, statusCode: response.statusCode, url: nil)
        }
        do {
            return try extractPage(from: data)
        } catch {
            if !response.errors.isEmpty, data[path: connectionPath].map({ $0.isNull }) ?? true {
                throw .graphQLErrors(response.errors, statusCode: response.statusCode, url: nil)
            }
            throw error
        }
    }
}
