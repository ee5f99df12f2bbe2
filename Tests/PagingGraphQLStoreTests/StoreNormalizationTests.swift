import Testing

@testable import PagingGraphQLStore

@Suite("GraphQLStore, normalization")
struct StoreNormalizationTests {
    static let launches = """
        query Launches($first: Int, $after: String) {
          launches(first: $first, after: $after) {
            __typename
            edges {
              cursor
              node {
                __typename
                id
                site
                rocket { name type }
                patches
              }
            }
            pageInfo { endCursor hasNextPage }
          }
        }
        """

    static let launchesData = launchesData(site: "KSC")

    static func launchesData(site: String) -> JSONValue {
        [
            "launches": [
                "__typename": "LaunchConnection",
                "edges": [
                    [
                        "cursor": "c1",
                        "node": [
                            "__typename": "Launch", "id": "1", "site": .string(site),
                            "rocket": ["name": "Falcon 9", "type": "FT"],
                            "patches": ["small.png", "large.png"],
                        ],
                    ],
                    [
                        "cursor": "c2",
                        "node": [
                            "__typename": "Launch", "id": "2", "site": nil, "rocket": nil, "patches": nil,
                        ],
                    ],
                ],
                "pageInfo": ["endCursor": "c2", "hasNextPage": true],
            ]
        ]
    }

    @Test("a query's data reads back exactly as written, with references and objects held in place")
    func roundTrip() throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.launches, variables: ["first": 2])
        let change = try store.write(data: Self.launchesData, for: operation)
        let result = store.read(operation)
        #expect(result.data == Self.launchesData)
        #expect(result.miss == nil)

        // The connection, its edges and its page info have no identity: they
        // stay in the root's field; the launches are records of their own.
        let root = try #require(store.record(for: .queryRoot))
        guard case .object(let connection)? = root["launches(first:2)"] else {
            Issue.record(
                "the connection is not held in place: \(String(describing: root["launches(first:2)"]))")
            return
        }
        guard case .list(let edges)? = connection["edges"], edges.count == 2,
            case .object(let edge) = edges[0]
        else {
            Issue.record(
                "the edges are not objects held in place: \(String(describing: connection["edges"]))")
            return
        }
        #expect(edge["node"] == .reference("Launch:1"))
        #expect(edge["cursor"] == .scalar("c1"))
        #expect(
            connection["pageInfo"]
                == .object(StoreObject(["endCursor": .scalar("c2"), "hasNextPage": .scalar(true)])))
        guard case .object(let rocket)? = store.record(for: "Launch:1")?["rocket"] else {
            Issue.record("the rocket is not held in place")
            return
        }
        #expect(rocket["name"] == .scalar("Falcon 9"))
        #expect(store.record(for: "Launch:1")?["patches"] == .scalar(["small.png", "large.png"]))
        #expect(store.record(for: "Launch:2")?["rocket"] == .scalar(nil))
        #expect(change.records == [.queryRoot, "Launch:1", "Launch:2"])
        #expect(change.contains(record: .queryRoot, field: "launches(first:2)"))
        #expect(store.recordKeys == [.queryRoot, "Launch:1", "Launch:2"])
    }

    @Test("lists of lists of objects keep their shape and nulls")
    func listsOfLists() throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(
            document: "{ board { rows: cells { __typename id mark } corners { x y } } }")
        let data: JSONValue = [
            "board": [
                "rows": [
                    [["__typename": "Cell", "id": "a", "mark": "X"], nil],
                    [],
                    [
                        ["__typename": "Cell", "id": "b", "mark": nil],
                        ["__typename": "Cell", "id": "a", "mark": "X"],
                    ],
                ],
                "corners": [[["x": 0, "y": 0]], [["x": 2, "y": 2], ["x": 2.5, "y": -1]]],
            ]
        ]
        try store.write(data: data, for: operation)
        #expect(store.read(operation).data == data)
        guard case .object(let board)? = store.record(for: .queryRoot)?["board"] else {
            Issue.record("the board is not held in place")
            return
        }
        #expect(
            board["cells"]
                == .list([
                    .list([.reference("Cell:a"), .scalar(nil)]), .list([]),
                    .list([.reference("Cell:b"), .reference("Cell:a")]),
                ]))
        guard case .list(let corners)? = board["corners"], corners.count == 2,
            case .list(let second) = corners[1],
            case .object(let corner) = second.first
        else {
            Issue.record("the corners are not lists of objects: \(String(describing: board["corners"]))")
            return
        }
        #expect(corner["x"] == .scalar(2))
    }

    @Test("two aliases of one field with different arguments are two fields of the record")
    func aliasesWithArguments() throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(
            document: """
                query($big: Int = 100) {
                  launch(id: "1") { __typename id small: patch(size: 10) big: patch(size: $big) patch(size: 10) }
                }
                """)
        let data: JSONValue = [
            "launch": ["__typename": "Launch", "id": "1", "small": "s.png", "big": "b.png", "patch": "s.png"]
        ]
        try store.write(data: data, for: operation)
        #expect(store.read(operation).data == data)
        let launch = try #require(store.record(for: "Launch:1"))
        #expect(launch["patch(size:10)"] == .scalar("s.png"))
        #expect(launch["patch(size:100)"] == .scalar("b.png"))
        #expect(store.record(for: .queryRoot)?["launch(id:\"1\")"] == .reference("Launch:1"))
    }

    @Test(
        "arguments make the storage key: sorted, variables resolved, objects, lists and enums printed as JSON"
    )
    func argumentsInStorageKeys() throws {
        let store = GraphQLStore()
        let document = """
            query Search($tag: String, $limit: Int, $unused: String) {
              search(order: ASC, filter: { name: "x", tags: ["a", $tag], nested: { deep: $limit } }, limit: $limit, after: $unused) {
                __typename id
              }
              plain { count }
            }
            """
        let operation = try StoreOperation(document: document, variables: ["tag": "b", "limit": 5])
        let data: JSONValue = ["search": [["__typename": "Item", "id": 7]], "plain": ["count": 1]]
        try store.write(data: data, for: operation)
        let root = try #require(store.record(for: .queryRoot))
        #expect(
            root[#"search(filter:{"name":"x","nested":{"deep":5},"tags":["a","b"]},limit:5,order:"ASC")"#]
                == .list([.reference("Item:7")]))
        #expect(root["plain"] == .object(StoreObject(["count": .scalar(1)])))
        #expect(store.read(operation).data == data)

        let other = try StoreOperation(document: document, variables: ["tag": "c", "limit": 5])
        let miss = try #require(store.read(other).miss)
        #expect(
            miss.field
                == #"search(filter:{"name":"x","nested":{"deep":5},"tags":["a","c"]},limit:5,order:"ASC")"#)
        #expect(miss.record == .queryRoot)
        #expect(miss.path == ["search"])
    }

    @Test("fragments and inline fragments apply by type condition, possible types and unknown types")
    func fragmentsAndTypeConditions() throws {
        let store = GraphQLStore(configuration: .init(possibleTypes: ["Node": ["Launch", "Rocket"]]))
        let document = """
            query {
              search {
                __typename
                ...LaunchFields
                ... on Rocket { id name }
                ... on Node { id }
              }
            }
            fragment LaunchFields on Launch { id site ... on Launch { year } }
            """
        let operation = try StoreOperation(document: document)
        let data: JSONValue = [
            "search": [
                ["__typename": "Launch", "id": "1", "site": "KSC", "year": 2020],
                ["__typename": "Rocket", "id": "r", "name": "Falcon"],
                ["__typename": "Mission", "name": "ignored by every fragment"],
            ]
        ]
        try store.write(data: data, for: operation)
        #expect(
            store.record(for: "Launch:1")?.fields == [
                "__typename": .scalar("Launch"), "id": .scalar("1"), "site": .scalar("KSC"),
                "year": .scalar(2020),
            ])
        #expect(
            store.record(for: "Rocket:r")?.fields == [
                "__typename": .scalar("Rocket"), "id": .scalar("r"), "name": .scalar("Falcon"),
            ])
        if case .list(let results)? = store.record(for: .queryRoot)?["search"] {
            #expect(results.last == .object(StoreObject(["__typename": .scalar("Mission")])))
        } else {
            Issue.record("search is not a list")
        }
        let expected: JSONValue = [
            "search": [
                ["__typename": "Launch", "id": "1", "site": "KSC", "year": 2020],
                ["__typename": "Rocket", "id": "r", "name": "Falcon"],
                ["__typename": "Mission"],
            ]
        ]
        #expect(store.read(operation).data == expected)
    }

    @Test(
        "without __typename every fragment applies: fields the data lacks are skipped, and read back as a miss"
    )
    func unknownTypename() throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(
            document: "{ node { id ... on Launch { site } ... on Rocket { name } } }")
        try store.write(data: ["node": ["id": "1", "site": "KSC"]], for: operation)
        #expect(store.record(for: "1")?.fields == ["id": .scalar("1"), "site": .scalar("KSC")])
        let miss = try #require(store.read(operation).miss)
        #expect(miss.path == ["node", "name"])
        #expect(miss.record == "1")
    }

    @Test("@include and @skip follow their variables, and variables take their defaults")
    func conditionsAndDefaults() throws {
        let store = GraphQLStore()
        let document = """
            query($withSite: Boolean = false, $noName: Boolean!, $id: ID = "1") {
              launch(id: $id) { __typename id site @include(if: $withSite) name @skip(if: $noName) ... @include(if: $withSite) { year } }
            }
            """
        let bare = try StoreOperation(document: document, variables: ["noName": true])
        try store.write(data: ["launch": ["__typename": "Launch", "id": "1"]], for: bare)
        #expect(store.read(bare).data == ["launch": ["__typename": "Launch", "id": "1"]])
        #expect(store.record(for: .queryRoot)?[#"launch(id:"1")"#] == .reference("Launch:1"))

        let full = try StoreOperation(document: document, variables: ["withSite": true, "noName": false])
        #expect(store.read(full).miss?.field == "site")
        let data: JSONValue = [
            "launch": ["__typename": "Launch", "id": "1", "site": "KSC", "name": "A", "year": 2006]
        ]
        try store.write(data: data, for: full)
        #expect(store.read(full).data == data)
        #expect(store.read(bare).data == ["launch": ["__typename": "Launch", "id": "1"]])
    }

    @Test("a field never written makes the read a miss that names it, never a partial value")
    func missNamesTheField() throws {
        let store = GraphQLStore()
        let small = try StoreOperation(document: "{ launch(id: 1) { __typename id site } }")
        let large = try StoreOperation(
            document: "{ launch(id: 1) { __typename id site mission { name patch } } other }")
        try store.write(data: ["launch": ["__typename": "Launch", "id": "1", "site": "KSC"]], for: small)
        let result = store.read(large)
        #expect(result.data == nil)
        #expect(!result.isComplete)
        let miss = try #require(result.miss)
        #expect(miss.path == ["launch", "mission"])
        #expect(miss.record == "Launch:1")
        #expect(miss.field == "mission")
        #expect(!miss.recordIsMissing)
        #expect(miss.description == "No value for mission in record Launch:1, at launch.mission.")
        #expect(result.dependenciesByRecord["Launch:1"]?.contains("mission") == true)

        let never = try StoreOperation(document: "{ nothing }")
        #expect(store.read(never).miss == StoreMiss(path: ["nothing"], record: .queryRoot, field: "nothing"))
        #expect(GraphQLStore().read(small).miss?.recordIsMissing == true)
    }

    @Test("two queries share a record: writing one changes what the other reads")
    func sharedRecords() throws {
        let store = GraphQLStore()
        let list = try StoreOperation(document: "{ launches { __typename id site } }")
        let detail = try StoreOperation(
            document: "query($id: ID!) { launch(id: $id) { __typename id site year } }",
            variables: ["id": "2"])
        try store.write(
            data: [
                "launches": [
                    ["__typename": "Launch", "id": "1", "site": "A"],
                    ["__typename": "Launch", "id": "2", "site": "B"],
                ]
            ],
            for: list)
        let change = try store.write(
            data: ["launch": ["__typename": "Launch", "id": "2", "site": "B2", "year": 2010]], for: detail)
        #expect(
            store.read(list).data
                == [
                    "launches": [
                        ["__typename": "Launch", "id": "1", "site": "A"],
                        ["__typename": "Launch", "id": "2", "site": "B2"],
                    ]
                ])
        #expect(change.fieldsByRecord == ["Launch:2": ["site", "year"], .queryRoot: [#"launch(id:"2")"#]])
    }

    @Test("a write reports only the fields whose value changed")
    func onlyChangedFields() throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.launches, variables: ["first": 2])
        #expect(!(try store.write(data: Self.launchesData, for: operation)).isEmpty)
        #expect(try store.write(data: Self.launchesData, for: operation).isEmpty)
        let change = try store.write(data: Self.launchesData(site: "VSFB"), for: operation)
        #expect(change.fieldsByRecord == ["Launch:1": ["site"]])
        #expect(change.fields == [StoreFieldKey(record: "Launch:1", field: "site")])
        #expect(change.description == "[Launch:1.site]")
    }

    @Test("key fields per type, an interface's key fields and a key closure decide identity")
    func customKeys() throws {
        let configuration = GraphQLStore.Configuration(
            keyFields: ["Rocket": ["name"], "Node": ["uuid"], "Pad": ["site", "number"]],
            possibleTypes: ["Node": ["Mission"]],
            cacheKey: { typename, object in
                typename == "Ship" ? object["registry"]?.stringValue.map { "ship/\($0)" } : nil
            })
        let store = GraphQLStore(configuration: configuration)
        let operation = try StoreOperation(
            document: """
                { rocket { __typename name } mission { __typename uuid } pad { __typename site number }
                  ship { __typename registry } launch { __typename id } anonymous { uuid } }
                """)
        let data: JSONValue = [
            "rocket": ["__typename": "Rocket", "name": "Falcon 9"],
            "mission": ["__typename": "Mission", "uuid": "m-1"],
            "pad": ["__typename": "Pad", "site": "KSC", "number": 39],
            "ship": ["__typename": "Ship", "registry": "NCC-1701"],
            "launch": ["__typename": "Launch", "id": "1"],
            "anonymous": ["uuid": "x"],
        ]
        try store.write(data: data, for: operation)
        let root = try #require(store.record(for: .queryRoot))
        #expect(root["rocket"] == .reference("Rocket:Falcon 9"))
        #expect(root["mission"] == .reference("Mission:m-1"))
        #expect(root["pad"] == .reference("Pad:KSC/39"))
        #expect(root["ship"] == .reference("ship/NCC-1701"))
        #expect(
            root["launch"] == .object(StoreObject(["__typename": .scalar("Launch"), "id": .scalar("1")])),
            "the closure decides: no identity")
        #expect(root["anonymous"] == .object(StoreObject(["uuid": .scalar("x")])))
        #expect(store.read(operation).data == data)
    }

    @Test("a mutation's data goes under MUTATION_ROOT and shares records with queries")
    func mutationRoot() throws {
        let store = GraphQLStore()
        let query = try StoreOperation(document: "{ launch(id: 1) { __typename id isBooked } }")
        try store.write(data: ["launch": ["__typename": "Launch", "id": "1", "isBooked": false]], for: query)
        let mutation = try StoreOperation(
            document:
                "mutation Book($id: ID!) { bookTrip(id: $id) { success launch { __typename id isBooked } } }",
            variables: ["id": "1"])
        #expect(mutation.rootKey == .mutationRoot)
        try store.write(
            data: [
                "bookTrip": [
                    "success": true, "launch": ["__typename": "Launch", "id": "1", "isBooked": true],
                ]
            ],
            for: mutation)
        #expect(
            store.record(for: .mutationRoot)?[#"bookTrip(id:"1")"#]
                == .object(StoreObject(["success": .scalar(true), "launch": .reference("Launch:1")])))
        #expect(store.read(query).data == ["launch": ["__typename": "Launch", "id": "1", "isBooked": true]])
    }

    @Test("fragments are written and read at any record")
    func fragmentsAtRecords() throws {
        let store = GraphQLStore()
        let document = """
            fragment Row on Launch { id site rocket { name } ...Extra }
            fragment Extra on Launch { year }
            """
        let data: JSONValue = ["id": "9", "site": "KSC", "rocket": ["name": "F9"], "year": 2001]
        try store.writeFragment(data, document: document, fragmentName: "Row", at: "Launch:9")
        #expect(try store.readFragment(document: document, fragmentName: "Row", at: "Launch:9").data == data)
        #expect(try store.readFragment(document: document, at: "Launch:9").data == data, "the first fragment")
        #expect(
            try store.readFragment(document: document, fragmentName: "Extra", at: "Launch:9").data == [
                "year": 2001
            ])
        #expect(store.record(for: "Launch:9")?["rocket"] == .object(StoreObject(["name": .scalar("F9")])))
        #expect(try store.readFragment(document: document, at: "Launch:10").miss?.recordIsMissing == true)
        let fragment = try StoreFragment(document: document, fragmentName: "Extra")
        #expect(fragment.typeCondition == "Launch")
    }

    @Test("data that does not match the document is refused with its path, and nothing is written")
    func mismatchedData() throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: "{ a { __typename id } launch { __typename id site } }")
        let wrongShape = #expect(throws: GraphQLStoreError.self) {
            try store.write(data: ["a": ["__typename": "A", "id": "1"], "launch": "oops"], for: operation)
        }
        #expect(wrongShape?.code == .data)
        #expect(wrongShape?.path == ["launch"])
        #expect(wrongShape?.message.contains("not \"oops\"") == true)
        let missing = #expect(throws: GraphQLStoreError.self) {
            try store.write(data: ["a": nil, "launch": ["__typename": "Launch", "id": "1"]], for: operation)
        }
        #expect(missing?.path == ["launch", "site"])
        #expect(store.recordCount == 0)
        #expect(throws: GraphQLStoreError.self) { try store.write(data: [1, 2], for: operation) }
    }

    @Test("broken documents are refused with a clear message")
    func brokenDocuments() {
        let syntax = #expect(throws: GraphQLStoreError.self) { try StoreOperation(document: "{ launches { ") }
        #expect(syntax?.code == .document)
        #expect(syntax?.message.contains("syntax error") == true)
        let unknown = #expect(throws: GraphQLStoreError.self) {
            try StoreOperation(document: "{ a { ...Missing } }")
        }
        #expect(unknown?.message.contains("\"Missing\"") == true)
        let cycle = #expect(throws: GraphQLStoreError.self) {
            try StoreOperation(
                document: "{ a { ...A } } fragment A on T { b { ...B } } fragment B on T { ...A }")
        }
        #expect(cycle?.message.contains("cycle (A → B → A)") == true)
        let named = #expect(throws: GraphQLStoreError.self) {
            try StoreOperation(document: "query A { a } query B { b }", operationName: "C")
        }
        #expect(named?.message.contains("no operation named \"C\"") == true)
        #expect(throws: GraphQLStoreError.self) {
            try StoreOperation(document: "query A { a } query B { b }")
        }
        #expect(throws: GraphQLStoreError.self) { try StoreFragment(document: "{ a }") }
    }

    @Test("an operation made from a client request carries its document and variables")
    func fromClientRequest() throws {
        struct Variables: Encodable, Sendable { var id: String }
        struct Data: Decodable, Sendable {}
        let request = InlineOperation(
            document: "query L($id: ID!) { launch(id: $id) { __typename id } }", operationName: "L",
            variables: Variables(id: "5"), as: Data.self)
        let operation = try StoreOperation(request)
        #expect(operation.variables == ["id": "5"])
        #expect(
            operation
                == (try StoreOperation(document: request.document, operationName: "L", variables: ["id": "5"]))
        )
        let store = GraphQLStore()
        try store.write(data: ["launch": ["__typename": "Launch", "id": "5"]], for: operation)
        #expect(store.record(for: .queryRoot)?[#"launch(id:"5")"#] == .reference("Launch:5"))
    }

    @Test("a record with many fields, such as a root with many pages, keeps and reports each of them")
    func manyFields() throws {
        let store = GraphQLStore()
        let document = "query($n: Int) { page(n: $n) { __typename id } }"
        for n in 0..<40 {
            let operation = try StoreOperation(document: document, variables: ["n": .int(n)])
            let change = try store.write(
                data: ["page": ["__typename": "Page", "id": .string("p\(n)")]], for: operation)
            #expect(change.contains(record: .queryRoot, field: "page(n:\(n))"))
        }
        #expect(store.record(for: .queryRoot)?.fields.count == 40)
        for n in [0, 12, 13, 39] {
            let operation = try StoreOperation(document: document, variables: ["n": .int(n)])
            #expect(store.read(operation).data == ["page": ["__typename": "Page", "id": .string("p\(n)")]])
        }
        let removed = store.modify(record: .queryRoot, fields: ["page(n:5)": nil, "page(n:7)": .scalar(nil)])
        #expect(removed.fieldsByRecord == [.queryRoot: ["page(n:5)", "page(n:7)"]])
        #expect(store.record(for: .queryRoot)?.fields.count == 39)
        let seven = try StoreOperation(document: document, variables: ["n": 7])
        #expect(store.read(seven).data == ["page": nil])
    }

    @Test("an object held in place takes a second write field by field, from the same document or another")
    func objectsHeldInPlaceMerge() throws {
        let store = GraphQLStore()
        let first = try StoreOperation(document: "{ stats { total pages { size count } } }")
        try store.write(data: ["stats": ["total": 3, "pages": ["size": 10, "count": 1]]], for: first)
        // The same selection again: every field pairs up with the one it replaces.
        try store.write(data: ["stats": ["total": 4, "pages": ["size": 10, "count": 2]]], for: first)
        #expect(store.read(first).data == ["stats": ["total": 4, "pages": ["size": 10, "count": 2]]])
        // Another document adds a field to the object and one to the object inside it, in
        // another order: what the first wrote is kept, what both wrote takes the later value.
        let second = try StoreOperation(document: "{ stats { pages { last count } updated } }")
        try store.write(
            data: ["stats": ["pages": ["last": "p4", "count": 5], "updated": "today"]], for: second)
        #expect(store.read(first).data == ["stats": ["total": 4, "pages": ["size": 10, "count": 5]]])
        #expect(
            store.read(second).data == ["stats": ["pages": ["last": "p4", "count": 5], "updated": "today"]])
        let stats = try #require(store.record(for: .queryRoot)?["stats"])
        #expect(
            stats
                == .object(
                    StoreObject([
                        "total": .scalar(4), "updated": .scalar("today"),
                        "pages": .object(
                            StoreObject(["size": .scalar(10), "count": .scalar(5), "last": .scalar("p4")])),
                    ])))
    }

    @Test("an object held in place with more fields than a record keeps inline finds each of them")
    func wideObjectsHeldInPlace() throws {
        let store = GraphQLStore()
        let names = (0..<30).map { "f\($0)" }
        let operation = try StoreOperation(document: "{ wide { \(names.joined(separator: " ")) } }")
        let fields = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, JSONValue.int($0)) })
        try store.write(data: ["wide": .object(fields)], for: operation)
        #expect(store.read(operation).data == ["wide": .object(fields)])
        guard case .object(let wide)? = store.record(for: .queryRoot)?["wide"] else {
            Issue.record("the object is not held in place")
            return
        }
        #expect(wide.count == 30)
        for (index, name) in names.enumerated() { #expect(wide[name] == .scalar(.int(index))) }
        #expect(wide["f30"] == nil)
        #expect(wide == StoreObject(fields.mapValues { StoreValue.scalar($0) }))
    }

    @Test("a subscription's data goes under SUBSCRIPTION_ROOT")
    func subscriptionRoot() throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(
            document: "subscription { launchUpdated { __typename id site } }")
        #expect(operation.rootKey == .subscriptionRoot)
        try store.write(
            data: ["launchUpdated": ["__typename": "Launch", "id": "1", "site": "KSC"]], for: operation)
        #expect(store.record(for: .subscriptionRoot)?["launchUpdated"] == .reference("Launch:1"))
        #expect(CacheKey.subscriptionRoot.description == "SUBSCRIPTION_ROOT")
    }
}
