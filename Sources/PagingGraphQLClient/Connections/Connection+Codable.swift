private enum ConnectionCodingKeys: String, CodingKey {
    case edges, nodes, pageInfo, totalCount
}

extension Connection: Decodable where Node: Decodable {
    /// Decodes a Relay connection. `edges`, `nodes`, `pageInfo` and
    /// `totalCount` may each be missing or `null`; null edges and nodes
    /// are kept in ``edges`` and ``nodes`` and skipped by the collection.
    /// - Throws: `DecodingError` when a present field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ConnectionCodingKeys.self)
        self.init(
            edges: try container.decodeIfPresent([Edge<Node>?].self, forKey: .edges),
            nodes: try container.decodeIfPresent([Node?].self, forKey: .nodes),
            pageInfo: try container.decodeIfPresent(PageInfo.self, forKey: .pageInfo) ?? PageInfo(),
            totalCount: try container.decodeIfPresent(Int.self, forKey: .totalCount)
        )
    }
}

extension Connection: Encodable where Node: Encodable {
    /// Encodes the connection's fields; absent `edges`, `nodes` and
    /// `totalCount` are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ConnectionCodingKeys.self)
        try container.encodeIfPresent(edges, forKey: .edges)
        try container.encodeIfPresent(nodes, forKey: .nodes)
        try container.encode(pageInfo, forKey: .pageInfo)
        try container.encodeIfPresent(totalCount, forKey: .totalCount)
    }
}
