import Foundation
import Sightless
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The task list in a JSON file.
///
/// - A missing file is an empty list. A file that cannot be read, is not a regular file, or is
///   not a task list (one whose IDs are not positive, too) is reported and never written over.
/// - Every read-modify-write holds an exclusive lock on a lock file beside the store (`flock`),
///   and every read a shared one, so concurrent processes queue rather than lose updates.
/// - A save writes a temporary file beside the store, with the store's permissions, flushes it
///   to disk, renames it over the store and flushes the directory: the store is always the old
///   list or the new one, whole, even after a crash. A temporary file left by a process that
///   died is removed by the next save. A store that is a symbolic link stays one: the file it
///   points to is replaced.
/// - The lock file and the temporary file are named from the store's name, shortened (with a
///   hash of the whole name) when it leaves no room for their suffixes, so a store may have any
///   name a file may have.
final class FileTaskStore: TaskStore, Injectable {
    let path: String

    init(path: String) { self.path = path }

    static let initializer = Initializer(FileTaskStore.init(path:), .named("storePath"))

    func load() throws(SampleFailure) -> [TaskItem] {
        let target = try resolvedTarget()
        return try withLock(on: target, exclusive: false) { () throws(SampleFailure) in try read(target) }
    }

    func update<Result>(_ change: (inout [TaskItem]) throws(SampleFailure) -> Result) throws(SampleFailure) -> Result {
        let target = try resolvedTarget()
        return try withLock(on: target, exclusive: true) { () throws(SampleFailure) -> Result in
            let before = try read(target)
            var tasks = before
            let result = try change(&tasks)
            if tasks != before { try write(tasks, to: target) }
            return result
        }
    }

    // MARK: - Reading

    private func read(_ target: String) throws(SampleFailure) -> [TaskItem] {
        var status = stat()
        guard stat(target, &status) == 0 else {
            if errno == ENOENT { return [] }
            throw .storeAccess("cannot read the task store \(path): \(Self.lastError()). Check its permissions, or pass another file with --store PATH.")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw .storeAccess("cannot read the task store \(path): it is a directory. Pass a file with --store PATH.")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .storeAccess("the task store \(path) is not a regular file (a device or a pipe, say), so tasks cannot be kept in it. Pass a file with --store PATH.")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: target))
        } catch {
            throw .storeAccess("cannot read the task store \(path): \(Self.reason(error)). Check its permissions, or pass another file with --store PATH.")
        }
        let tasks: [TaskItem]
        do {
            tasks = try Self.decoder.decode([TaskItem].self, from: data)
        } catch {
            throw .corruptStore("the task store \(path) is not a task list (\(Self.reason(error))); it was left untouched. Repair or move it, or pass another file with --store PATH.")
        }
        let invalid = tasks.filter { $0.id <= 0 }.map { String($0.id) }
        guard invalid.isEmpty else {
            throw .corruptStore("the task store \(path) has task IDs that are not positive (\(invalid.joined(separator: ", "))); it was left untouched. Repair or move it, or pass another file with --store PATH.")
        }
        return tasks
    }

    // MARK: - Writing

    private func write(_ tasks: [TaskItem], to target: String) throws(SampleFailure) {
        let data: Data
        do {
            data = try Self.encoder.encode(tasks)
        } catch {
            throw .software("cannot encode the tasks: \(error)")
        }
        let directory = (target as NSString).deletingLastPathComponent.isEmpty ? "." : (target as NSString).deletingLastPathComponent
        let stem = Self.temporaryStem(of: (target as NSString).lastPathComponent)
        removeStaleTemporaryFiles(of: stem, in: directory)
        let temporary = (directory as NSString).appendingPathComponent(".\(stem).\(getpid()).tmp")

        var existing = stat()
        let exists = stat(target, &existing) == 0
        let mode = exists ? existing.st_mode & 0o7777 : 0o600
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw .storeAccess("cannot write next to the task store \(path): \(Self.lastError()).")
        }
        var written = false
        defer {
            close(descriptor)
            if !written { unlink(temporary) }
        }
        // The replacement keeps the store's permissions (the umask would narrow or widen them)
        // and, where the process may, its owner.
        if exists {
            fchmod(descriptor, mode)
            if existing.st_uid != getuid() || existing.st_gid != getgid() {
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            }
        }
        let complete = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let count = systemWrite(descriptor, base + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        guard complete, fsync(descriptor) == 0 else {
            throw .storeAccess("cannot write next to the task store \(path): \(Self.lastError()). The store was left as it was.")
        }
        // rename(2) replaces the store in one step: a reader sees the old file or the new one.
        guard rename(temporary, target) == 0 else {
            throw .storeAccess("cannot replace the task store \(path): \(Self.lastError()). The store was left as it was.")
        }
        written = true
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Removes the temporary files that processes which died while saving left beside the
    /// store (named from `stem`, see `temporaryStem(of:)`). Called under the exclusive lock, so
    /// no live process is writing one.
    private func removeStaleTemporaryFiles(of stem: String, in directory: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let prefix = ".\(stem)."
        for entry in entries where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
            let pid = entry.dropFirst(prefix.count).dropLast(".tmp".count)
            guard !pid.isEmpty, pid.allSatisfy(\.isNumber) else { continue }
            unlink((directory as NSString).appendingPathComponent(entry))
        }
    }

    // MARK: - Locking

    /// Runs `body` holding a lock on the lock file beside the store's target.
    private func withLock<Result>(
        on target: String, exclusive: Bool, _ body: () throws(SampleFailure) -> Result
    ) throws(SampleFailure) -> Result {
        var status = stat()
        if stat(target, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            // Nothing to lock beside a directory or a device: reading reports what it is.
            return try body()
        }
        let lockPath = ((target as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent(Self.stem(of: (target as NSString).lastPathComponent, reserving: ".lock".utf8.count) + ".lock")
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .storeAccess("cannot lock the task store \(path) (\(lockPath)): \(Self.lastError()).")
        }
        defer { close(descriptor) }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else {
                throw .storeAccess("cannot lock the task store \(path): \(Self.lastError()).")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// The file the store's path names, following symbolic links, so that a save replaces the
    /// file a link points to rather than the link.
    private func resolvedTarget() throws(SampleFailure) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let destination = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = destination.hasPrefix("/")
                ? destination
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
        }
        throw .storeAccess("the task store \(path) is a chain of too many symbolic links.")
    }

    // MARK: - Names of the files beside the store

    /// The longest file name, in bytes, that file systems take (`NAME_MAX`).
    private static let longestName = 255

    /// What names the store in its temporary files' names, `.STEM.PID.tmp`: room is left for
    /// the longest process ID, so that a file left by any process is found again.
    static func temporaryStem(of name: String) -> String {
        stem(of: name, reserving: ".".utf8.count * 2 + String(Int32.max).utf8.count + ".tmp".utf8.count)
    }

    /// What names the store in the name of a file beside it whose other parts take `reserved`
    /// bytes: the store's own name when it fits with them within the longest file name; else as
    /// much of it as fits, whole characters, with `~` and a hash of the whole name, so that two
    /// long names that start alike do not share their files. Any valid name of a store then
    /// leaves room for the files beside it.
    static func stem(of name: String, reserving reserved: Int) -> String {
        let room = longestName - reserved
        guard name.utf8.count > room else { return name }
        // FNV-1a, 64 bits: the same on every run and every platform, unlike `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let digits = String(hash, radix: 16)
        let tag = "~" + String(repeating: "0", count: 16 - digits.count) + digits
        var kept = ""
        var used = tag.utf8.count
        for character in name {
            used += character.utf8.count
            guard used <= room else { break }
            kept.append(character)
        }
        return kept + tag
    }

    // MARK: - Coding

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    private static func lastError() -> String { String(cString: strerror(errno)) }

    private static func reason(_ error: any Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .dataCorrupted(let context): return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
            case .keyNotFound(let key, _): return "a task has no \"\(key.stringValue)\""
            case .typeMismatch(_, let context), .valueNotFound(_, let context): return context.debugDescription
            @unknown default: return "\(decoding)"
            }
        }
        let described = (error as NSError).localizedDescription
        return described.hasSuffix(".") ? String(described.dropLast()) : described
    }
}

/// Writes bytes to a file descriptor: the C library's `write`, which the store's own `write`
/// method would hide.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
