import Foundation

/// How a ``GraphQLClient`` with a store sends an operation, and reads and
/// writes its data there.
///
/// The store works on the operation's document as
/// ``GraphQLStore/documentForSending(_:)`` rewrites it (with `__typename`,
/// and `id` given a schema), mutation directives kept; the server gets the
/// same text without the directives only the client understands. Every
/// step is cached by document text, so a plan costs little more than
/// encoding the variables.
struct ClientStorePlan: Sendable {
    /// The document text to send.
    let sentDocument: String
    /// The store's view of the operation, or why the store cannot use it.
    let operation: Result<StoreOperation, GraphQLStoreError>

    /// Plans an operation for a store. Never fails: a document the store
    /// cannot rewrite is sent as written, and its failure kept for later.
    /// - Complexity: O(*v*) for variables of *v* values, once each document
    ///   text was seen.
    init(_ operation: some GraphQLOperation, store: GraphQLStore) {
        var sent = operation.document
        do throws(GraphQLStoreError) {
            let storeDocument = try store.documentForSending(operation.document)
            sent = try store.documents.sendingText(storeDocument)
            let members = try StoreOperation.variables(of: operation)
            do {
                self.operation = .success(
                    try StoreOperation(
                        document: storeDocument, operationName: operation.operationName, variables: members,
                        cache: store.documents))
            } catch {
                // The rewritten document's error points into the rewritten
                // text; the document as written gives the place the user
                // wrote, and it fails the same way.
                _ = try StoreOperation(document: operation.document, operationName: operation.operationName)
                throw error
            }
        } catch {
            self.operation = .failure(error)
        }
        sentDocument = sent
    }

    /// Whether a fetch policy may answer the operation from the store: it
    /// is a query the store can read.
    var isCacheable: Bool {
        if case .success(let operation) = operation { operation.rootKey == .queryRoot } else { false }
    }

    /// Writes a response's data to the store, as one change.
    /// - Parameters:
    ///   - response: the decoded response.
    ///   - body: the HTTP body it was decoded from, to read the data as JSON.
    ///   - store: the store.
    ///   - send: the request it answers, as the store was told of it before
    ///     it was sent: a record deleted since stays deleted.
    /// - Complexity: O(*n*) for a body of *n* values.
    func write<Data>(
        _ response: inout GraphQLResponse<Data>, body: Foundation.Data, to store: GraphQLStore,
        answering send: StoreSend? = nil
    ) {
        do throws(GraphQLStoreError) {
            response.storeCommitCount = try write(response, body: body, to: store, answering: send)
        } catch {
            response.storeError = error
        }
    }

    /// Writes the data, returning the store's commit count right after; `nil` when a record of
    /// the response stays deleted.
    private func write<Data>(
        _ response: GraphQLResponse<Data>, body: Foundation.Data, to store: GraphQLStore,
        answering send: StoreSend?
    ) throws(GraphQLStoreError) -> Int? {
        let operation: StoreOperation
        switch self.operation {
        case .success(let success): operation = success
        case .failure(let error): throw error
        }
        let data: JSONValue
        if let json = response.data as? JSONValue {
            data = json
        } else {
            guard let json = try? JSONValue(json: body)["data"] else {
                throw GraphQLStoreError(.data, "The response body could not be read as JSON for the store.")
            }
            data = json
        }
        return try store.writeCounted(data: data, for: operation, answering: send)
    }

    /// Reads the operation's data from the store, as a response served from
    /// the cache.
    /// - Throws: ``GraphQLClientError/Code/store`` when the store cannot use
    ///   the operation; ``GraphQLClientError/Code/cacheMiss`` when it lacks a
    ///   field; ``GraphQLClientError/Code/undecodableResponse`` when the data
    ///   does not decode into `Data`.
    /// - Complexity: O(*n*) for *n* values read, plus decoding.
    func read<Data: Decodable>(_ type: Data.Type, from store: GraphQLStore) throws(GraphQLClientError)
        -> GraphQLResponse<Data>
    {
        let operation: StoreOperation
        switch self.operation {
        case .success(let success): operation = success
        case .failure(let error): throw .store(error)
        }
        let result = store.read(operation)
        guard let json = result.data else {
            let miss = result.miss ?? StoreMiss(path: [], record: operation.rootKey, field: "")
            throw .cacheMiss(miss, operationName: operation.operationName)
        }
        if let data = json as? Data {
            return GraphQLResponse(data: data, source: .cache)
        }
        do {
            return GraphQLResponse(data: try json.decode(Data.self), source: .cache)
        } catch let error as DecodingError {
            throw .undecodableNode(error, type: Data.self, nodePath: [])
        } catch {
            throw .store(GraphQLStoreError(.data, "The store's data could not be decoded: \(error)."))
        }
    }
}
