/// The help text, printed by `help` and after a command line the router cannot read.
enum Usage {
    static let defaultStore = "~/.sightless-tasks.json"

    /// The line printed under a command-line mistake.
    static let reminder = "USAGE: SightlessSample [--store PATH | --in-memory] <command>; see: SightlessSample help"

    static let text = """
        USAGE: SightlessSample [--store PATH | --in-memory] <command>

        A small task tracker whose every object is built by a Sightless injector.

        COMMANDS:
          add "TEXT"       Add a task and print its ID.
          list             List the tasks; [x] marks those done.
          done ID          Mark task ID done.
          remove ID        Remove task ID.
          graph [--format dot|mermaid|text]
                           Print the app's object graph (default: text).
          explain TYPE     Print what building TYPE takes, e.g. explain AddCommand.
          help             Print this help.

        OPTIONS:
          --store PATH     The JSON file that keeps the tasks (default: \(defaultStore),
                           or $SIGHTLESS_TASKS when set). A file that cannot be read is
                           reported and never written over.
          --in-memory      Keep the tasks in memory for this run only; no file is touched.
          --               Treat every later word as an argument: add -- "--not an option"

        EXIT STATUS:
          0 success, 1 no task with that ID, 64 wrong command line,
          65 the store file is not a task list, 74 the store file cannot be read or written.
        """
}
