import Foundation
import PagingTestSupport
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

@Suite("Fetch policies", .timeLimit(.minutes(HangLimit.minutes(1))))
struct FetchPolicyTests {
    static let launch109 = LaunchQuery.Data(launch: .init(id: "109", site: "Site 109", isBooked: false))

    /// A client with a store, and the backend it talks to.
    static func client(store: GraphQLStore? = GraphQLStore()) -> (GraphQLClient, LaunchBackend) {
        let backend = LaunchBackend()
        return (GraphQLClient(endpoint: testEndpoint, transport: backend.server, store: store), backend)
    }

    @Test("cache-first answers from the store without a request once the store holds the data")
    func cacheFirstHit() async throws {
        let (client, backend) = Self.client()
        let first = try await client.send(LaunchQuery(id: "109"), policy: .cacheFirst)
        #expect(first.source == .network)
        #expect(backend.requestCount == 1)

        let second = try await client.send(LaunchQuery(id: "109"), policy: .cacheFirst)
        #expect(backend.requestCount == 1, "no second request")
        #expect(second.source == .cache)
        #expect(second.isFromCache)
        #expect(second.data == Self.launch109)
        #expect(second.errors.isEmpty)
        #expect(second.statusCode == 200)
    }

    @Test("cache-first sends a request when the store lacks a field, and stores its answer")
    func cacheFirstMiss() async throws {
        let (client, backend) = Self.client()
        _ = try await client.send(LaunchQuery(id: "1"))
        let other = try await client.send(LaunchQuery(id: "2"), policy: .cacheFirst)
        #expect(backend.requestCount == 2, "another launch is a miss")
        #expect(other.source == .network)

        // A query that selects a field no response brought is a miss too.
        let wider = UntypedOperation(
            document: "query Launch($id: ID!) { launch(id: $id) { id site isBooked year } }",
            operationName: "Launch", variables: ["id": "1"])
        _ = try? await client.send(wider, policy: .cacheFirst)
        #expect(backend.requestCount == 3)
        #expect(try await client.send(LaunchQuery(id: "2"), policy: .cacheFirst).source == .cache)
        #expect(backend.requestCount == 3)
    }

    @Test("cache-only answers from the store, and on a miss throws an error naming the missing field")
    func cacheOnly() async throws {
        let (client, backend) = Self.client()
        _ = try await client.send(LaunchQuery(id: "1"))
        let wider = UntypedOperation(
            document: "query Launch($id: ID!) { launch(id: $id) { id site year } }", operationName: "Launch",
            variables: ["id": "1"])
        let error = try await #require(throws: GraphQLClientError.self) {
            try await client.send(wider, policy: .cacheOnly)
        }
        #expect(backend.requestCount == 1)
        #expect(error.code == .cacheMiss)
        #expect(error.storeMiss == StoreMiss(path: ["launch", "year"], record: "Launch:1", field: "year"))
        #expect(
            error.description
                == #"The store does not hold all the data of the operation "Launch", and the fetch policy is cache-only, so nothing was sent. The first missing field: No value for year in record Launch:1, at launch.year. Fetch it with the cacheFirst or networkOnly policy first."#
        )
        let other = try await #require(throws: GraphQLClientError.self) {
            try await client.send(LaunchQuery(id: "109"), policy: .cacheOnly)
        }
        #expect(
            other.storeMiss?.description == #"No value for launch(id:"109") in record QUERY_ROOT, at launch."#
        )

        let cached = try await client.send(LaunchQuery(id: "1"), policy: .cacheOnly)
        #expect(cached.source == .cache)
        #expect(cached.data == .init(launch: .init(id: "1", site: "Site 1", isBooked: false)))
        #expect(backend.requestCount == 1)
    }

    @Test("cache-only with a document the store cannot compile throws the store's problem")
    func cacheOnlyUncompilable() async throws {
        let (client, backend) = Self.client()
        let error = try await #require(throws: GraphQLClientError.self) {
            try await client.send(
                UntypedOperation(document: "{ launch { ...Missing } }"), policy: .cacheOnly)
        }
        #expect(error.code == .store)
        #expect(error.storeError?.code == .document)
        #expect(
            error.description
                == #"The store cannot read the operation, and the fetch policy is cache-only, so nothing was sent: The document spreads the fragment "Missing" (line 1, column 12) but does not define it; add its definition to the document."#
        )
        #expect(backend.requestCount == 0)
    }

    @Test("network-only and cache-and-network send a request even when the store holds the data")
    func networkOnly() async throws {
        let (client, backend) = Self.client()
        _ = try await client.send(LaunchQuery(id: "109"))
        #expect(try await client.send(LaunchQuery(id: "109"), policy: .networkOnly).source == .network)
        #expect(try await client.send(LaunchQuery(id: "109"), policy: .cacheAndNetwork).source == .network)
        #expect(backend.requestCount == 3)
    }

    @Test("without a store every policy sends a request, as network-only does")
    func withoutAStore() async throws {
        let (client, backend) = Self.client(store: nil)
        for policy in [GraphQLFetchPolicy.cacheFirst, .cacheOnly, .cacheAndNetwork, .networkOnly] {
            let response = try await client.send(LaunchQuery(id: "109"), policy: policy)
            #expect(response.source == .network)
        }
        #expect(backend.requestCount == 4)
        var values: [GraphQLResponseSource] = []
        for try await response in client.responses(LaunchQuery(id: "109"), policy: .cacheAndNetwork) {
            values.append(response.source)
        }
        #expect(values == [.network])
        #expect(client.read(LaunchQuery(id: "109")) == nil)
    }

    @Test("a mutation is sent whatever the policy")
    func mutationsAreSent() async throws {
        let (client, backend) = Self.client()
        let mutation = BookTripsMutation(variables: .init(launchIds: ["1"]))
        _ = try await client.send(mutation)
        for policy in [GraphQLFetchPolicy.cacheFirst, .cacheOnly] {
            #expect(try await client.send(mutation, policy: policy).source == .network)
        }
        #expect(backend.requestCount == 3)
    }

    @Test("cache-and-network yields the cached response, then the network's, in that order")
    func cacheAndNetworkYieldsTwice() async throws {
        let (client, backend) = Self.client()
        _ = try await client.send(LaunchQuery(id: "109"))
        _ = try await client.send(BookTripsMutation(variables: .init(launchIds: ["109"])))
        // The store now says booked; make it stale so the two values differ.
        client.store?.modify(record: "Launch:109", fields: ["isBooked": .scalar(false)])
        backend.server.hold()

        var iterator = client.responses(LaunchQuery(id: "109"), policy: .cacheAndNetwork).makeAsyncIterator()
        let cached = try #require(try await iterator.next())
        #expect(cached.source == .cache)
        #expect(cached.data?.launch?.isBooked == false)

        await backend.server.waitForRequests(3)
        backend.server.release()
        let fresh = try #require(try await iterator.next())
        #expect(fresh.source == .network)
        #expect(fresh.data?.launch?.isBooked == true)
        #expect(try await iterator.next() == nil)
        #expect(client.read(LaunchQuery(id: "109"))?.data?.launch?.isBooked == true, "the answer was stored")
    }

    @Test("cache-and-network yields only the network's response when the store lacks the data")
    func cacheAndNetworkMiss() async throws {
        let (client, _) = Self.client()
        var sources: [GraphQLResponseSource] = []
        for try await response in client.responses(LaunchQuery(id: "1"), policy: .cacheAndNetwork) {
            sources.append(response.source)
        }
        #expect(sources == [.network])
    }

    @Test("the other policies' streams hold the one response of send(_:policy:), or its error")
    func streamsOfOtherPolicies() async throws {
        let (client, backend) = Self.client()
        var sources: [GraphQLResponseSource] = []
        for policy in [GraphQLFetchPolicy.networkOnly, .cacheFirst] {
            for try await response in client.responses(LaunchQuery(id: "1"), policy: policy) {
                sources.append(response.source)
            }
        }
        #expect(sources == [.network, .cache])
        #expect(backend.requestCount == 1)

        let error = await #expect(throws: GraphQLClientError.self) {
            for try await _ in client.responses(LaunchQuery(id: "2"), policy: .cacheOnly) {}
        }
        #expect(error?.code == .cacheMiss)
    }

    @Test("ending the iteration of a stream cancels its request")
    func streamCancellation() async throws {
        let (client, backend) = Self.client()
        backend.server.hold()
        let stream = client.responses(LaunchQuery(id: "1"), policy: .cacheAndNetwork)
        let consumer = Task {
            for try await _ in stream {}
        }
        await backend.server.waitForRequests(1)
        consumer.cancel()
        await backend.server.waitForCancellations(1)
        #expect(backend.server.cancellations == 1)
        #expect(client.read(LaunchQuery(id: "1")) == nil, "a cancelled response is not stored")
    }

    @Test("read gives the store's response without a request, or nil on a miss")
    func readHelper() async throws {
        let (client, backend) = Self.client()
        #expect(client.read(LaunchQuery(id: "109")) == nil)
        _ = try await client.send(LaunchQuery(id: "109"))
        let cached = try #require(client.read(LaunchQuery(id: "109")))
        #expect(cached.data == Self.launch109)
        #expect(cached.source == .cache)
        #expect(backend.requestCount == 1)
    }
}
