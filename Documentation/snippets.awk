# Extracts the ```swift blocks of one Markdown file as Swift source, for check-snippets.
#
# - A block whose first line is `// Package.swift`, `// Swinject`, `// Factory`,
#   `// swift-dependencies` or `// Does not compile` is left out: a manifest, another library's
#   code shown for comparison, or a mistake (check-diagnostics compiles that last kind).
# - Each block starts with #sourceLocation, so that errors point into the Markdown.
# - A top-level `print(x)   // text` becomes `expectPrinted(x, expected: "text", …)`, and so
#   does a bare `print(x)` followed by `// line` comments, which give the expected lines.

function quote(text) {
    gsub(/\\/, "\\\\", text)
    gsub(/"/, "\\\"", text)
    gsub(/\n/, "\\n", text)
    return "\"" text "\""
}

function flush() {
    if (pending == "") return
    if (expected_count > 0) {
        printf "expectPrinted(%s, expected: %s, at: %s)\n", pending_args, quote(expected), quote(file ":" pending_line)
    } else {
        print pending
    }
    for (i = 1; i <= comment_count; i++) print comments[i]
    pending = ""; expected = ""; expected_count = 0; comment_count = 0
}

/^```swift[ \t]*$/ { inside = 1; first = 1; start = NR + 1; next }
inside && /^```[ \t]*$/ { flush(); inside = 0; skip = 0; next }
inside && first {
    first = 0
    if ($0 ~ /^\/\/ (Package\.swift|Swinject|Factory$|swift-dependencies$|Does not compile)/) { skip = 1; next }
    printf "#sourceLocation(file: \"%s\", line: %d)\n", file, start
}
inside && !skip {
    if (pending != "" && $0 ~ /^\/\/( |$)/) {
        line = $0; sub(/^\/\/ ?/, "", line)
        expected = expected_count == 0 ? line : expected "\n" line
        expected_count++
        comments[++comment_count] = $0
        next
    }
    flush()
    if (match($0, /^print\(.*\)[ \t]+\/\/ /)) {
        code = $0; sub(/[ \t]+\/\/ .*$/, "", code)
        text = substr($0, RLENGTH + 1)
        args = substr(code, 7, length(code) - 7)
        printf "expectPrinted(%s, expected: %s, at: %s)\n", args, quote(text), quote(file ":" NR)
        next
    }
    if ($0 ~ /^print\(.*\)[ \t]*$/) {
        pending = $0; pending_line = NR
        pending_args = $0; sub(/^print\(/, "", pending_args); sub(/\)[ \t]*$/, "", pending_args)
        next
    }
    print
}
END { flush() }
