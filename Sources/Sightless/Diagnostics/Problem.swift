extension InjectionError {
    /// One mistake: what it is, as data (``detail``), where it is, and how to fix it.
    ///
    /// ```swift
    /// for problem in error.problems {
    ///     if case .missingBinding(let key, _, _, _) = problem.detail { print("bind \(key)") }
    /// }
    /// ```
    public struct Problem: Sendable, CustomStringConvertible {
        /// What went wrong, with the keys, types and declarations involved. ``message`` and
        /// ``fix`` are written from it.
        ///
        /// ```swift
        /// if case .cycle(let keys) = problem.detail { print(keys.map(\.typeName)) }
        /// ```
        public let detail: Detail
        /// The dependency path from the requested (or bound) key to the key at fault:
        /// `[Screen, FeedService, Api]`.
        ///
        /// ```swift
        /// print(problem.path.map(\.typeName))   // ["Screen", "FeedService", "Api"]
        /// ```
        public internal(set) var path: [AnyKey]
        /// Where the declaration at fault is written, when known.
        ///
        /// ```swift
        /// print(problem.location.map { "\($0)" } ?? "-")   // App/FeedService.swift:14
        /// ```
        public let location: SourceLocation?
        /// The error an initializer, closure or provider threw.
        ///
        /// ```swift
        /// if let cause = problem.underlying as? DecodingError { … }
        /// ```
        public let underlying: (any Error)?
        /// For a key nothing provides, the scope of its consumer when the injector keeps the
        /// consumer for the whole family (`singleton`): the fix then says how a value each child
        /// of a template is made with reaches it.
        let keptConsumerScope: String?
        /// The keys of the other problems of its error, whose types read alike with its own are
        /// written in full in it too: set by ``InjectionError`` when it has several problems.
        var errorKeys: [AnyKey] = []

        init(_ detail: Detail, path: [AnyKey] = [], location: SourceLocation? = nil, underlying: (any Error)? = nil,
             keptConsumerScope: String? = nil) {
            self.detail = detail
            self.path = path
            self.location = location
            self.underlying = underlying
            self.keptConsumerScope = keptConsumerScope
        }

        /// What kind of mistake it is.
        ///
        /// ```swift
        /// let missing = error.problems.filter { $0.kind == .missingBinding }
        /// ```
        public var kind: Kind { detail.kind }

        /// The key at fault, when there is one.
        ///
        /// ```swift
        /// print(problem.key?.description ?? "-")   // String(named: "endpoint")
        /// ```
        public var key: AnyKey? { detail.key }

        /// What went wrong, in a sentence.
        ///
        /// ```swift
        /// print(problem.message)   // Nothing provides Api, needed by FeedService (argument 1).
        /// ```
        public var message: String { ProblemText.naming([self]) { ProblemText.message(self) } }

        /// What to change.
        ///
        /// ```swift
        /// print(problem.fix)   // Bind it in a module: binder.bind(Api.self).to(…).
        /// ```
        public var fix: String { ProblemText.naming([self]) { ProblemText.fix(self) } }

        /// The path written with arrows: `Screen → FeedService → Api`.
        ///
        /// ```swift
        /// print(problem.pathDescription)   // Screen → FeedService → Api
        /// ```
        ///
        /// A long path is shortened: keys that repeat at its end, as when building a value
        /// requests it again and again, are written once with their count
        /// (`Screen → [Tree] × 1262`), and the middle of a long path without repeats is left out
        /// (`… 38 more …`). ``path`` holds every key.
        public var pathDescription: String { ProblemText.naming([self]) { ProblemText.path(path) } }

        /// The problem in four lines: what, the path, where, and the fix.
        ///
        /// ```swift
        /// print(problem)
        /// // missing binding: Nothing provides Api, needed by FeedService (argument 1).
        /// //   path: Screen → FeedService → Api
        /// //   declared at: App/FeedService.swift:14
        /// //   fix: Bind it in a module: binder.bind(Api.self).to(…).
        /// ```
        public var description: String { ProblemText.describe(self) }
    }
}

extension InjectionError.Problem {
    /// A dependency as a problem names it: the key that needs it, and where the value goes.
    ///
    /// ```swift
    /// print(consumer)   // FeedService (argument 1)
    /// ```
    public struct Consumer: Sendable, Hashable, CustomStringConvertible {
        /// The key whose initializer or properties need the dependency.
        public let key: AnyKey
        /// Where the value goes.
        public let role: DependencyRole

        init(key: AnyKey, role: DependencyRole) {
            self.key = key
            self.role = role
        }

        /// `FeedService (argument 1)`.
        public var description: String { "\(key) (\(role))" }
    }

    /// A dynamic argument slot: where it goes, and the key of its type.
    ///
    /// ```swift
    /// print(slot)   // argument 2: String
    /// ```
    // A role and a key like `Consumer`, yet its own public type: it prints `argument 2: String`.
    public struct Slot: Sendable, Hashable, CustomStringConvertible {
        /// Where the argument goes.
        public let role: DependencyRole
        /// The slot's type, as a key with no name.
        public let key: AnyKey

        init(role: DependencyRole, key: AnyKey) {
            self.role = role
            self.key = key
        }

        /// `argument 2: String`.
        public var description: String { "\(role): \(key.typeName)" }
    }

    /// A type offered as an implementation of a protocol, and where it was offered.
    ///
    /// ```swift
    /// print(candidate)   // HttpApi (App/NetworkModule.swift:4)
    /// ```
    public struct Candidate: Sendable, Hashable, CustomStringConvertible {
        /// The implementing type, as a key with no name.
        public let type: AnyKey
        /// Where a module offered it.
        public let location: SourceLocation

        init(type: AnyKey, location: SourceLocation) {
            self.type = type
            self.location = location
        }

        /// `HttpApi (App/NetworkModule.swift:4)`.
        public var description: String { "\(type) (\(location))" }
    }

    /// One install of modules that install each other: the module installed, and where
    /// `binder.install(…)` installs it.
    ///
    /// ```swift
    /// print(install)   // StorageModule (installed at App/NetworkModule.swift:4)
    /// ```
    public struct Install: Sendable, Hashable, CustomStringConvertible {
        /// The module's type, as a key with no name.
        public let module: AnyKey
        /// Where `binder.install(…)` is written; `nil` for a module the injector was given.
        public let location: SourceLocation?

        init(module: AnyKey, location: SourceLocation?) {
            self.module = module
            self.location = location
        }

        /// `StorageModule (installed at App/NetworkModule.swift:4)`, or the module alone when
        /// the injector was given it.
        public var description: String { location.map { "\(module) (installed at \($0))" } ?? "\(module)" }
    }

    /// What went wrong, as data: one case per mistake, with the keys, types and declarations
    /// involved. Each case belongs to one ``InjectionError/Kind``.
    ///
    /// ```swift
    /// switch problem.detail {
    /// case .missingBinding(let key, let consumer, _, _): print(key, consumer?.key as Any)
    /// case .cycle(let keys): print(keys)
    /// default: print(problem.message)
    /// }
    /// ```
    public enum Detail: Sendable {
        /// Nothing provides `key`; `consumer` needs it (`nil` for a request); `nearMisses` are
        /// bound keys of the same type under other names; `canConform` is `true` when making
        /// the key's type ``Injectable`` could fix it (a key with no name, of a type that is not
        /// `Injectable`, an `Optional`, a `Lazy` or a `Factory`).
        case missingBinding(key: AnyKey, consumer: Consumer?, nearMisses: [AnyKey], canConform: Bool)
        /// Nothing in the injector provides `key`, which `consumer` needs (`nil` for a request):
        /// it is a value each child of the template declared at `template` is made with.
        case providedByTemplate(key: AnyKey, consumer: Consumer?, template: SourceLocation)
        /// Nothing in the injector provides `key`, which `consumer` needs (`nil` for a request):
        /// the modules of the template declared at `template` bind it, for that template's
        /// children only.
        case boundInTemplate(key: AnyKey, consumer: Consumer?, template: SourceLocation)
        /// `key` is bound with no target, and its type is not ``Injectable``; `canConform` is
        /// `true` when making it `Injectable` could fix that (it is not an `Optional`, a `Lazy`
        /// or a `Factory`).
        case bindingWithoutTarget(key: AnyKey, canConform: Bool)
        /// These keys need each other through initializers or properties; the first key is
        /// repeated at the end.
        case cycle([AnyKey])
        /// `consumer` needs `dependency`, and that one dependency closes each of `cycles`: keys
        /// that need each other, each cycle written from `consumer` through `dependency` and
        /// back to `consumer`.
        case cyclesThrough(consumer: AnyKey, dependency: AnyKey, cycles: [[AnyKey]])
        /// These modules install each other (or one installs itself), each while it is being
        /// installed, so that installing them would never end; the first module is repeated at the
        /// end, and each install says where it is written. A module is the same one again when
        /// it is of the same type and, if its type is `Equatable`, equal; a module of a type that
        /// is not `Equatable` is the same one when the same `install` call (file, line and
        /// column) installs it.
        case installCycle([Install])
        /// Modules install new modules inside each other without end (each a new value of an
        /// `Equatable` type, say, that installs a larger one): `depth` installs were nested when
        /// the injector stopped; `installs` are the outermost ones, the first module given first.
        case endlessInstalls([Install], depth: Int)
        /// `key` was asked for again while it was being built, through a closure or provider
        /// binding, or through a `Lazy`, `Factory` or the injector inside its own initializer.
        case reentered(key: AnyKey, through: Reentry)
        /// `key` is bound twice, at `first` and at `second`.
        case boundTwice(key: AnyKey, first: SourceLocation?, second: SourceLocation?, amongOverrides: Bool)
        /// Two contributions to the map `collection` have the same key, `entry` (as Swift writes
        /// it), at `first` and at `second`.
        case contributedTwice(collection: AnyKey, entry: String, first: SourceLocation?, second: SourceLocation?)
        /// `key` is bound by the injector itself (`Injector`) and cannot be bound again.
        case reservedKey(AnyKey)
        /// A child injector's module binds `key` (at `location`), which its parent binds: a
        /// child replaces a parent's binding only as an override.
        case boundByParent(key: AnyKey, location: SourceLocation?)
        /// The template declared at `template` provides `key` to each child it makes, and the
        /// parent injector binds `key` too: a provided value cannot be overridden.
        case providedBoundByParent(key: AnyKey, template: SourceLocation?)
        /// `target` takes dynamic arguments and is injected into `consumer`, where
        /// nothing could fill them.
        case creationTimeArgumentsInjected(target: AnyKey, consumer: Consumer, slots: [Slot])
        /// A `Factory` in `consumer` makes `target` from argument types that differ from its
        /// dynamic slots.
        case factoryArguments(factory: AnyKey, consumer: Consumer, target: AnyKey, passed: [AnyKey], slots: [Slot])
        /// `key` is kept in a scope (`scope`) but takes dynamic arguments.
        case scopedWithArguments(key: AnyKey, scope: String, slots: [Slot])
        /// `key`, kept in `scope`, holds `dependency`, kept in a shorter-lived `dependencyScope`.
        case captiveDependency(key: AnyKey, scope: String, dependency: AnyKey, dependencyScope: String)
        /// `key`'s type declares `scope`, one value for the whole family, but reached through a
        /// child it needs `needs`, which the child binds (or, when `provided`, which each child
        /// of a template is made with): each child would keep its own.
        case keptByEachChild(key: AnyKey, scope: String, needs: AnyKey, provided: Bool)
        /// A request for `key` passed `passed` dynamic arguments (their types, as keys with no name), but
        /// `key` takes `slots` (`[]` when it takes none).
        case argumentCount(key: AnyKey, slots: [Slot], passed: [AnyKey])
        /// Dynamic argument `position` of a request for `key` is a `passed`, not of its
        /// slot's type.
        case argumentType(key: AnyKey, position: Int, slot: Slot, passed: AnyKey, slots: [Slot])
        /// A raw ``Initializer`` read the argument at `index`, but it has `count` (`0..<count`).
        case rawArgumentIndex(index: Int, count: Int)
        /// A raw ``Initializer`` read the argument at `index` as `requested`, but its slot holds
        /// a `actual`.
        case rawArgumentType(index: Int, requested: AnyKey, actual: AnyKey)
        /// `key` is bound to `target`, whose value (of type `actual`) is not a value of `key`'s
        /// type.
        case aliasTarget(key: AnyKey, target: AnyKey, actual: AnyKey)
        /// `key` inherits the initializer of `base`, which built a `built`, not a value of
        /// `key`'s type.
        case inheritedInitializer(key: AnyKey, base: AnyKey, built: AnyKey)
        /// The `initializer` of `key`'s type builds a `builds`, which is not a value of `key`'s
        /// type.
        case initializerOfOtherType(key: AnyKey, builds: AnyKey)
        /// `key`'s type declares a property (`role`) of a subclass it is not.
        case subclassProperty(key: AnyKey, role: DependencyRole)
        /// The `properties` of `key`'s type fill a `fills`, not a value of `key`'s type.
        case propertiesOfOtherType(key: AnyKey, fills: AnyKey)
        /// Building `key` threw `error` (written with `String(describing:)`; the error itself is
        /// ``InjectionError/Problem/underlying``).
        case initializerFailed(key: AnyKey, error: String)
        /// Building nested `depth` levels, more than the thread's stack (`stackSize` bytes) holds;
        /// or, with `stackSize` `nil`, more builds that await than one request may nest
        /// (10,000).
        case tooDeep(depth: Int, stackSize: Int?)
        /// A `Lazy` or `Factory` of `key` (`wrapper` is its type, as written) was used after
        /// its injector was released.
        case injectorReleased(key: AnyKey, wrapper: String)
        /// `key` was requested from an injector after ``Injector/shutDown()``.
        case injectorShutDown(key: AnyKey)
        /// `key`, a dependency read where it stands, was resolved with no injector current for
        /// the task and none chosen for the process.
        case noInjector(key: AnyKey)
        /// An injector was chosen for the process again; `earlier` is where the first was
        /// chosen.
        case processInjectorChosen(earlier: SourceLocation)
        /// `key`, a child, was asked for by a `withChild` while a draining shutdown
        /// (``Injector/awaitShutDown(draining:)``) of its parent, or of one of its parent's
        /// parents, waited for the bodies in flight to end.
        case shuttingDown(key: AnyKey)
        /// Closing `key`'s value at shutdown threw `error` (the error itself is
        /// ``InjectionError/Problem/underlying``).
        case closeFailed(key: AnyKey, error: String)
        /// `session` (an ``InjectorSession``, written with its values' types) was used while it
        /// had no session: before its first `replace(_:)`, or after `end()`.
        case noSession(session: AnyKey)
        /// `key` was requested synchronously (or must be built when the injector is built
        /// synchronously), but building it awaits `awaited`'s `async` initializer, closure or
        /// provider.
        case needsAwait(key: AnyKey, awaited: AnyKey)
        /// `key`, kept in `scope` (a singleton, say) and built with `await` (because of
        /// `awaited`), was requested synchronously before an awaited request built it: a kept
        /// value whose own build is `async` is built by an awaited request only; one whose build
        /// is synchronous is built by a synchronous request once what it awaits is stored, unless
        /// an awaited request is building it then (`awaitedIsBuilt`). Read by any request once
        /// it is stored.
        case keptNotBuilt(key: AnyKey, scope: String, awaited: AnyKey, awaitedIsBuilt: Bool)
        /// `key` is built with `await` (because of `awaited`) and kept in `scope`, which keeps
        /// only values built synchronously: an awaited value can be unscoped, a singleton or
        /// an eager singleton.
        case awaitedInScope(key: AnyKey, scope: String, awaited: AnyKey)
        /// `key`'s binding closes its value at shutdown (`onShutdown`), but `scope` keeps no
        /// value until then: there is nothing for the closer to close.
        case closerNotKept(key: AnyKey, scope: String)
        /// `key`'s type is ``Closable`` (or ``AsyncClosable``), and the injector builds it, but
        /// `scope` keeps no value until shutdown: its `close()` would never run.
        case closableNotKept(key: AnyKey, scope: String)
        /// `key`, isolated to `actor` (`MainActor`), was requested synchronously by code that
        /// does not run there.
        case offActor(key: AnyKey, actor: String)
        /// The descriptors of `key`'s type, isolated to `actor`, were needed by an injector
        /// compiling its graph on another actor or thread, synchronously.
        case descriptorsOffActor(key: AnyKey, actor: String)
        /// An override of `key` (at `location`) replaces no binding: neither the modules nor a
        /// parent bind `key`, and it is no ``Injectable`` type; `nearMisses` are bound keys of
        /// the same type under other names.
        case overrideReplacesNothing(key: AnyKey, location: SourceLocation?, nearMisses: [AnyKey])
        /// A decorator of `key` (at `location`) wraps nothing: this injector does not bind
        /// `key`, and it is no ``Injectable`` type; `nearMisses` are bound keys of the same type
        /// under other names.
        case decoratorWithoutBinding(key: AnyKey, location: SourceLocation?, nearMisses: [AnyKey])
        /// A child's decorator of `key` (at `location`) wraps nothing the child builds: `key` is
        /// bound by its parent, whose value is the whole family's, and a child decorates only
        /// what it builds.
        case decoratorOfParentKey(key: AnyKey, location: SourceLocation?)
        /// The binding of `key` for `consumer` (at `location`) serves nothing: `consumer` has no
        /// argument or property of `key`.
        case unusedContextualBinding(key: AnyKey, consumer: AnyKey, location: SourceLocation?)
        /// Nothing binds `key`, and modules offer several `candidates` to implement it.
        case severalCandidates(key: AnyKey, candidates: [Candidate])
        /// A check inside Sightless failed: a bug in Sightless, reported instead of acting on
        /// wrong assumptions.
        case internalInconsistency(Inconsistency)
    }

    /// What led back to a key while it was being built.
    public enum Reentry: Sendable, Hashable {
        /// A closure or provider binding asked for its own key.
        case closure
        /// A singleton was asked for on the thread that is building it.
        case singleton
        /// A singleton was asked for while another thread (or, built with `await`, another
        /// task) builds it, and that one waits (directly or through others) for something this
        /// one is building: the two need each other.
        case otherThread
        /// An unscoped key asked for itself again through a `Lazy`, a `Factory` or the
        /// injector, on the same thread, while it was being built.
        case request
        /// A type's `initializer`, `properties` or `scope`, read while the injector compiled
        /// the type on its first request, asked the injector for a key it had not compiled:
        /// compiling it would wait for the compile under way.
        case descriptor
    }

    /// A check inside Sightless that failed.
    public enum Inconsistency: Sendable, Hashable {
        /// The compiled node of `key` does not produce `expected`.
        case nodeType(key: AnyKey, expected: String)
        /// An initializer's argument plan is not of the argument's type `expected`.
        case argumentPlanType(expected: String)
        /// `key`'s plan read dynamic arguments laid out for another key.
        case argumentLayout(key: AnyKey)
        /// `key` was compiled but no node was linked for it.
        case notLinked(key: AnyKey)
        /// A singleton of `key` was built but not stored.
        case notStored(key: AnyKey)
        /// `key`, compiled for the children of a template (a value it provides, or one its scopes
        /// keep per child), was built where no child made from that template runs.
        case outsideTemplateChild(key: AnyKey)
    }
}

extension InjectionError.Problem.Detail {
    /// The kind of mistake this detail is.
    ///
    /// ```swift
    /// print(InjectionError.Problem.Detail.cycle([]).kind)   // dependency cycle
    /// ```
    public var kind: InjectionError.Kind {
        switch self {
        case .missingBinding, .providedByTemplate, .boundInTemplate: .missingBinding
        case .bindingWithoutTarget: .incompleteBinding
        case .cycle, .cyclesThrough, .reentered: .cyclicDependency
        case .installCycle, .endlessInstalls: .cyclicInstall
        case .boundTwice, .reservedKey, .boundByParent, .providedBoundByParent, .contributedTwice: .duplicateBinding
        case .creationTimeArgumentsInjected: .dynamicDependency
        case .factoryArguments: .factoryArguments
        case .scopedWithArguments, .captiveDependency, .keptByEachChild, .awaitedInScope, .closerNotKept, .closableNotKept:
            .scopeConflict
        case .argumentCount: .argumentCount
        case .argumentType: .argumentType
        case .rawArgumentIndex, .rawArgumentType: .rawArguments
        case .aliasTarget, .inheritedInitializer, .initializerOfOtherType, .subclassProperty, .propertiesOfOtherType:
            .typeMismatch
        case .initializerFailed: .initializerFailed
        case .tooDeep: .tooDeep
        case .injectorReleased: .injectorReleased
        case .injectorShutDown, .shuttingDown: .injectorShutDown
        case .noInjector: .noInjector
        case .processInjectorChosen: .processInjectorChosen
        case .closeFailed: .closeFailed
        case .noSession: .noSession
        case .needsAwait, .keptNotBuilt: .needsAwait
        case .offActor, .descriptorsOffActor: .offActor
        case .overrideReplacesNothing, .decoratorWithoutBinding, .decoratorOfParentKey, .unusedContextualBinding:
            .unusedDeclaration
        case .severalCandidates: .ambiguousBinding
        case .internalInconsistency: .internalInconsistency
        }
    }

    /// The key at fault, when there is one.
    ///
    /// ```swift
    /// print(InjectionError.Problem.Detail.reservedKey(AnyKey(Key<Injector>())).key as Any)
    /// ```
    public var key: AnyKey? {
        switch self {
        case .missingBinding(let key, _, _, _), .providedByTemplate(let key, _, _), .boundInTemplate(let key, _, _),
             .bindingWithoutTarget(let key, _), .reentered(let key, _),
             .boundTwice(let key, _, _, _), .reservedKey(let key), .boundByParent(let key, _), .providedBoundByParent(let key, _),
             .scopedWithArguments(let key, _, _),
             .captiveDependency(let key, _, _, _), .keptByEachChild(let key, _, _, _),
             .argumentCount(let key, _, _), .argumentType(let key, _, _, _, _), .aliasTarget(let key, _, _),
             .inheritedInitializer(let key, _, _), .initializerOfOtherType(let key, _), .subclassProperty(let key, _),
             .propertiesOfOtherType(let key, _), .initializerFailed(let key, _), .injectorReleased(let key, _),
             .injectorShutDown(let key), .shuttingDown(let key), .noInjector(let key), .closeFailed(let key, _), .noSession(let key), .needsAwait(let key, _), .keptNotBuilt(let key, _, _, _),
             .awaitedInScope(let key, _, _), .closerNotKept(let key, _), .closableNotKept(let key, _), .overrideReplacesNothing(let key, _, _),
             .offActor(let key, _), .descriptorsOffActor(let key, _),
             .decoratorWithoutBinding(let key, _, _), .decoratorOfParentKey(let key, _), .unusedContextualBinding(let key, _, _),
             .severalCandidates(let key, _):
            key
        case .cycle(let keys): keys.first
        case .processInjectorChosen, .installCycle, .endlessInstalls: nil
        case .cyclesThrough(let consumer, _, _): consumer
        case .contributedTwice(let collection, _, _, _): collection
        case .creationTimeArgumentsInjected(let target, _, _), .factoryArguments(_, _, let target, _, _): target
        case .internalInconsistency(let inconsistency):
            switch inconsistency {
            case .nodeType(let key, _), .argumentLayout(let key), .notLinked(let key), .notStored(let key),
                 .outsideTemplateChild(let key): key
            case .argumentPlanType: nil
            }
        case .rawArgumentIndex, .rawArgumentType, .tooDeep: nil
        }
    }
}
