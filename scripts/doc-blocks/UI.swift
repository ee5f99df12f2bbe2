// The few SwiftUI and UIKit names the documentation's samples use, declared as small stubs so that
// scripts/check-doc-blocks.py can type-check a sample's calls into the library on Linux, where
// neither framework exists. Only shapes: nothing here runs, and nothing here is what SwiftUI or
// UIKit does.
import Foundation
// SwiftUI re-exports Observation (`withObservationTracking`).
@_exported import Observation

// MARK: SwiftUI

@MainActor protocol View {
    associatedtype Body: View
    @MainActor @ViewBuilder var body: Body { get }
}

extension Never: View {
    var body: Never { return fatalError() }
}

struct AnyStubView: View {
    var body: Never { return fatalError() }
}

@resultBuilder
enum ViewBuilder {
    static func buildBlock(_ parts: any View...) -> AnyStubView { AnyStubView() }
    static func buildExpression(_ view: some View) -> any View { view }
    static func buildOptional(_ view: (any View)?) -> any View { AnyStubView() }
    static func buildEither(first view: any View) -> any View { view }
    static func buildEither(second view: any View) -> any View { view }
    static func buildFinalResult(_ view: AnyStubView) -> AnyStubView { view }
}

@propertyWrapper
struct State<Value> {
    var wrappedValue: Value
    init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    init(initialValue: Value) { self.wrappedValue = initialValue }
}

struct Font { static let headline = Font() }
struct ShapeStyle { static let secondary = ShapeStyle() }
struct RedactionReasons { static let placeholder = RedactionReasons() }
enum UnitPoint { case top, bottom }

extension View {
    func onAppear(perform action: (() -> Void)? = nil) -> AnyStubView { AnyStubView() }
    func task(_ action: @escaping @MainActor () async -> Void) -> AnyStubView { AnyStubView() }
    func refreshable(action: @escaping @MainActor () async -> Void) -> AnyStubView { AnyStubView() }
    func toolbar(@ViewBuilder content: () -> AnyStubView) -> AnyStubView { AnyStubView() }
    func font(_ font: Font) -> AnyStubView { AnyStubView() }
    func foregroundStyle(_ style: ShapeStyle) -> AnyStubView { AnyStubView() }
    func redacted(reason: RedactionReasons) -> AnyStubView { AnyStubView() }
}

struct Text: View {
    init(_ text: String) {}
    var body: Never { return fatalError() }
}

struct Button: View {
    init(_ title: String, action: @escaping () -> Void) {}
    var body: Never { return fatalError() }
}

struct Group: View {
    init(@ViewBuilder content: () -> AnyStubView) {}
    var body: Never { return fatalError() }
}

struct List: View {
    init(@ViewBuilder content: () -> AnyStubView) {}
    init<Data: RandomAccessCollection, ID: Hashable>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder rowContent: (Data.Element) -> AnyStubView
    ) {}
    var body: Never { return fatalError() }
}

struct ForEach: View {
    init<Data: RandomAccessCollection>(
        _ data: Data, @ViewBuilder content: (Data.Element) -> AnyStubView
    ) where Data.Element: Identifiable {}
    init<Data: RandomAccessCollection, ID: Hashable>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: (Data.Element) -> AnyStubView
    ) {}
    var body: Never { return fatalError() }
}

struct ScrollViewProxy {
    func scrollTo(_ id: some Hashable, anchor: UnitPoint? = nil) {}
}

struct ScrollViewReader: View {
    init(@ViewBuilder content: (ScrollViewProxy) -> AnyStubView) {}
    var body: Never { return fatalError() }
}

// MARK: UIKit

struct UIListContentConfiguration { var text: String? }

@MainActor class UITableViewCell {
    var contentConfiguration: UIListContentConfiguration?
    func defaultContentConfiguration() -> UIListContentConfiguration { UIListContentConfiguration() }
}

extension IndexPath {
    init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    var row: Int { self[1] }
}

@MainActor class UITableView {
    enum RowAnimation { case none, fade }
    enum ScrollPosition { case bottom }
    func register(_ cellClass: UITableViewCell.Type, forCellReuseIdentifier identifier: String) {}
    func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell()
    }
    func reloadData() {}
    func performBatchUpdates(_ updates: () -> Void) {}
    func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
    func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
    func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
    func scrollToRow(at indexPath: IndexPath, at position: ScrollPosition, animated: Bool) {}
}

@MainActor final class UIAction {
    init(handler: @escaping (UIAction) -> Void) {}
}

@MainActor final class UIBarButtonItem {
    init(title: String, primaryAction: UIAction) {}
}

@MainActor final class UINavigationItem { var rightBarButtonItem: UIBarButtonItem? }

@MainActor class UITableViewController {
    enum Style { case plain }
    let tableView = UITableView()
    let navigationItem = UINavigationItem()
    init(style: Style) {}
    required init?(coder: NSCoder) {}
    func viewDidLoad() {}
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell()
    }
    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath)
    {}
}
