import Sightless
import Swinject

// The `app-launch` case: building the injector of an App Store app's wiring (`AppLaunch.swift`,
// about 100 types), by Sightless (`Injector(modules:)`, which discovers, validates and links the
// whole graph) and by Swinject (registering every key in a new `Container`: all it does before
// its first request). Measured by instructions only, in two ways (`Benchmarks/instructions
// app-launch`):
//
// - the first build of a fresh process: a run that builds once less a run that builds nothing
//   (`--profile app-launch CONTENDER 1` and `… 0`), so the runtime's first conformance lookups,
//   metadata instantiations and one-time initializations the build causes are counted;
// - a later build in the same process: (I(N2) − I(N1)) ÷ (N2 − N1) over N1, N2 ≥ 1 builds;
// - `app-launch-screen`: the first build and the first screen's requests in a fresh process
//   (`--profile app-launch-screen CONTENDER 1` less `… 0`).
//
// The profile mode runs this case before anything else of the benchmark is made, so that
// nothing has warmed the runtime's caches for it. Every injector or container built is kept
// until the process exits: tearing down is not building.

/// The injectors and containers the app-launch case built, never freed.
nonisolated(unsafe) var launchKept: [AnyObject] = []

/// Builds the app-launch graph `n` times, on the main actor, as an app's launch does; each
/// build kept until the process exits (`keep`), or freed as the next one is built.
/// With `screen`, each build is followed by the first screen's requests: the app's coordinator
/// (its router, launch tasks and badge counter, all singletons) and the home screen's model.
@MainActor
func appLaunch(_ contender: Contender, _ n: Int, _ sink: Sink, keep: Bool = true, screen: Bool = false) throws {
    switch contender {
    case .sightless:
        for _ in 0..<n {
            let injector = try Injector(modules: appLaunchModules)
            sink.take(injector)
            if keep { launchKept.append(injector) }
            if screen {
                sink.take(try injector.getInstance(AppCoordinator.self))
                sink.take(try injector.getInstance(HomeViewModel.self))
            }
        }
    case .swinject:
        for _ in 0..<n {
            let container = makeLaunchSwinjectContainer()
            sink.take(container)
            if keep { launchKept.append(container) }
            if screen {
                sink.take(try unwrap(container.resolve(AppCoordinator.self), "AppCoordinator"))
                sink.take(try unwrap(container.resolve(HomeViewModel.self), "HomeViewModel"))
            }
        }
    case .handWired:
        // An app wired by hand builds nothing before its first screen: there is no such case.
        throw BenchmarkFailure(description: "app-launch has no hand-wired build")
    }
}

/// Checks that both wirings of the app-launch graph serve its screens, and what they share:
/// `--profile app-launch-check Sightless 1`. Not measured.
@MainActor
func appLaunchCheck() throws {
    let injector = try Injector(modules: appLaunchModules)
    let container = makeLaunchSwinjectContainer()
    let coordinator = try injector.getInstance(AppCoordinator.self)
    let swinjectCoordinator = try unwrap(container.resolve(AppCoordinator.self), "AppCoordinator")
    for home in [try injector.getInstance(HomeViewModel.self), try unwrap(container.resolve(HomeViewModel.self), "home")] {
        guard home.tracking != nil, home.analytics != nil else {
            throw BenchmarkFailure(description: "a view model's properties were not injected")
        }
    }
    let detail = try injector.getInstance(ProductDetailViewModel.self)
    let swinjectDetail = try unwrap(container.resolve(ProductDetailViewModel.self), "detail")
    guard coordinator.routing === detail.routing, swinjectCoordinator.routing === swinjectDetail.routing else {
        throw BenchmarkFailure(description: "the router is not one singleton")
    }
    let pushes = try injector.getInstance((any NotificationService).self) as! PushNotificationService
    let swinjectPushes = try unwrap(container.resolve((any NotificationService).self), "push") as! PushNotificationService
    guard try pushes.lazyDeepLinkRouter.get().deepLinkHandlers.count == 4,
          try swinjectPushes.lazyDeepLinkRouter.get().deepLinkHandlers.count == 4,
          try injector.getInstance(LaunchTaskRunner.self).launchTasks.count == 6,
          try unwrap(container.resolve(LaunchTaskRunner.self), "runner").launchTasks.count == 6 else {
        throw BenchmarkFailure(description: "a collection lacks contributions")
    }
    print("app-launch: \(appLaunchTypes) types; both wirings serve the coordinator and the screens")
}

/// The line the benchmark prints for `--cases app-launch` (only when named: the first builds
/// are timed before anything else of the benchmark is made). By wall clock: the first build of
/// each in this process, Swinject's first, then the median of later builds, each freed as the
/// next one is built (so a later build's time includes freeing the one before it).
@MainActor
func launchReport(_ settings: Settings) throws -> String {
    let sink = Sink()
    var start = now()
    try appLaunch(.swinject, 1, sink, keep: false)
    let firstSwinject = Double(now() - start) / 1_000_000
    start = now()
    try appLaunch(.sightless, 1, sink, keep: false)
    let firstSightless = Double(now() - start) / 1_000_000
    let samples = try measure(settings, [
        { n in try appLaunch(.swinject, n, sink, keep: false) },
        { n in try appLaunch(.sightless, n, sink, keep: false) },
    ])
    sink.clear()
    let laterSwinject = samples[0].median / 1_000_000, laterSightless = samples[1].median / 1_000_000
    return String(format: "app-launch: %d types; the first build in this process: Sightless %.2f ms, Swinject %.2f ms "
                  + "(%.0f ×); a later build, median of %d rounds: Sightless %.3f ms, Swinject %.3f ms (%.1f ×)",
                  appLaunchTypes, firstSightless, firstSwinject, firstSightless / firstSwinject, settings.rounds,
                  laterSightless, laterSwinject, laterSightless / laterSwinject)
}
