#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Added to every snippet target by Documentation/check-snippets: prints like `print`, and
// stops the run when the text differs from what the documentation says it prints.
func expectPrinted(_ items: Any..., expected: String, at place: String) {
    var text = items.map { String(describing: $0) }.joined(separator: " ")
    print(text)
    while text.hasSuffix("\n") { text.removeLast() }
    guard text == expected else {
        let message = "\(place): the documentation says this prints\n\(expected)\nbut it printed\n\(text)\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(1)
    }
}
