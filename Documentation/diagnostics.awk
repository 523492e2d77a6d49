# Extracts the code blocks of one Markdown file that must not compile, for check-diagnostics.
#
# A ```swift block whose first line starts with `// Does not compile` is a mistake shown on
# purpose. The first fenced block after it with no language holds what the compiler prints, one
# diagnostic a line (`error: …`, `note: …`). A first line of
# `// Does not compile, with default main-actor isolation` builds the block in a target whose
# default isolation is the main actor.
#
# Variables: file (the Markdown path printed in errors), prefix (target names start with it),
# sources (a folder to write <target>/main.swift into), expectations (a folder to write
# <target> files of expected lines into).
# Prints one line per block: target, Markdown file:line, and `MainActor` or `-` for the
# default isolation, separated by tabs. A block without its expected output is an error.

/^```swift[ \t]*$/ {
    if (waiting) missing()
    inside = 1; first = 1; start = NR + 1; next
}
inside && /^```[ \t]*$/ { inside = 0; failing = 0; next }
inside && first {
    first = 0
    if ($0 !~ /^\/\/ Does not compile/) next
    failing = 1
    count++
    target = prefix count
    isolation = ($0 ~ /default main-actor isolation/) ? "MainActor" : "-"
    system("mkdir -p '" sources "/" target "'")
    main = sources "/" target "/main.swift"
    print "import Sightless" > main
    printf "#sourceLocation(file: \"%s\", line: %d)\n", file, start > main
    print > main
    waiting = 1; origin = file ":" start
    printf "%s\t%s\t%s\n", target, origin, isolation
    next
}
inside && failing { print > main; next }
inside { next }
waiting && /^```[ \t]*$/ { expecting = 1; waiting = 0; close(main); next }
waiting && /^```/ { missing() }
expecting && /^```[ \t]*$/ { expecting = 0; close(expectations "/" target); next }
expecting && NF > 0 { print > (expectations "/" target) }
END { if (!broken && (waiting || expecting)) missing() }

function missing() {
    printf "%s: a block that does not compile needs the compiler's output in a plain ``` block after it.\n", origin > "/dev/stderr"
    broken = 1
    exit 1
}
