import BenchmarkSupport
import Foundation
import PagingCodegen

// Issue 17's scale: a schema of 1,000 types (900 objects, 50 enums, 50 input objects) and 500
// operations, each reaching a chain of four nested fragments (2,000 fragments), generated in a
// process of its own. Prints the generation's time, the process's peak resident bytes, and the
// size of the output; with `--write DIR`, writes the Swift files there (for a compile check).
//
// The inputs are made here, the same every run: Apollo's generator hangs or grows to gigabytes
// on many nested fragments (apollo-ios issues 2560 and 3434).

let objects = 900
let enums = 50
let inputs = 50
let operations = 500
let chain = 4

func object(_ index: Int) -> String { "T\(index % objects)" }

func schemaSDL() -> String {
    var sdl = ""
    for index in 0..<enums {
        sdl += "enum E\(index) { \((0..<4).map { "V\($0)_OF_\(index)" }.joined(separator: " ")) }\n"
    }
    for index in 0..<inputs {
        sdl += "input I\(index) { text: String, kind: E\(index % enums), limit: Int = 10 }\n"
    }
    for index in 0..<objects {
        sdl += """
            "Type \(index)."
            type T\(index) {
              id: ID!
              name: String
              score: Float
              kind: E\(index % enums)!
              a: \(object(index * 7 + 1))
              b: \(object(index * 13 + 5))!
              list(filter: I\(index % inputs), first: Int): [\(object(index + 3))!]!
            }

            """
    }
    sdl += "type Query {\n"
    for index in 0..<objects { sdl += "  t\(index)(id: ID!): T\(index)\n" }
    sdl += "}\n"
    return sdl
}

/// The fragment `F<operation>_<depth>` on the type the chain has reached.
func documents() -> [(name: String, text: String)] {
    (0..<operations).map { operation in
        let root = (operation * 37) % objects
        var text = """
            query Op\(operation)($id: ID!, $filter: I\(root % inputs), $first: Int) {
              t\(root)(id: $id) {
                ...F\(operation)_0
                list(filter: $filter, first: $first) { id name kind }
              }
            }

            """
        var type = root
        for depth in 0..<chain {
            let next = depth + 1 < chain ? "a { ...F\(operation)_\(depth + 1) }" : "a { id }"
            text += """
                fragment F\(operation)_\(depth) on T\(type) {
                  id name score kind
                  b { id name }
                  \(next)
                }

                """
            type = (type * 7 + 1) % objects
        }
        return ("Op\(operation).graphql", text)
    }
}

let sdl = schemaSDL()
let inputsMade = documents()
let start = ContinuousClock.now
do {
    let schema = try CodegenSchema(text: sdl, file: "scale.graphqls")
    let files = try Codegen.generate(schema: schema, documents: inputsMade)
    let elapsed = ContinuousClock.now - start
    let bytes = files.reduce(0) { $0 + $1.contents.utf8.count }
    try writeIfAsked(files.map { ($0.name, $0.contents) })
    print(
        "types=\(objects + enums + inputs) operations=\(operations) fragments=\(operations * chain) files=\(files.count) outputBytes=\(bytes) seconds=\(seconds(elapsed)) peakResidentBytes=\(peakResidentBytes())"
    )
} catch {
    FileHandle.standardError.write(Data("generation failed: \(error)\n".utf8))
    exit(1)
}
