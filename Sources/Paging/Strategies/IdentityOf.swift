/// The identity of an item type that may be `Identifiable`, found at run
/// time: a source generic over any item checks its keys against the held
/// items' identities only when its items have one.
enum IdentityOf<Item: Sendable> {
    /// The item's `id`, as `AnyHashable`, when `Item` is `Identifiable`;
    /// `nil` otherwise.
    static var function: (@Sendable (Item) -> AnyHashable)? {
        guard Item.self is any Identifiable.Type else { return nil }
        return { item in
            // Always identifiable: the type was checked above.
            guard let identifiable = item as? any Identifiable else { return AnyHashable(0) }
            return id(of: identifiable)
        }
    }

    private static func id<Value: Identifiable>(of value: Value) -> AnyHashable {
        AnyHashable(value.id)
    }
}
