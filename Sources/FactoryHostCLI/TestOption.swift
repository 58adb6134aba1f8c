/// The options of `factoryhost test` (and of the worker processes a run
/// starts), and what each does to its settings (both readings apply them
/// through this table: see ``CommandOption``). Values that parse but are out
/// of range (`--jobs 0`) are refused by ``TestSettings/problem``, for both.
///
/// ```swift
/// var settings = TestSettings()
/// _ = TestOption.jobs.apply("4", to: &settings)        // settings.jobs == 4
/// _ = TestOption.named("-j")                           // .jobs
/// ```
enum TestOption: String, CommandOption {
    case filter = "--filter"
    case filterPattern = "--filter-pattern"
    case tag = "--tag"
    case excludeTag = "--exclude-tag"
    case list = "--list"
    case failFast = "--fail-fast"
    case shuffle = "--shuffle"
    case seed = "--seed"
    case timeout = "--timeout"
    case reporter = "--reporter"
    case junit = "--junit"
    case jobs = "--jobs"
    case profile = "--profile"
    case coverage = "--coverage"
    case coverageJSON = "--coverage-json"
    case coverageMin = "--coverage-min"
    case color = "--color"
    case repeatCount = "--repeat"
    case config = "--config"
    case pluginPath = "--plugin-path"
    case set = "--set"
    case values = "--values"
    case workerFile = "--worker-file"
    case workerPosition = "--worker-position"
    case workerSkip = "--worker-skip"

    /// `-j n` (never `-j=n` nor `-jn`: the parser reads those otherwise), and
    /// `--format`, check's and graph's word for the report.
    static var otherNames: [String: TestOption] { ["-j": .jobs, "--format": .reporter] }

    var takesValue: Bool {
        switch self {
        case .list, .failFast, .shuffle, .coverage: return false
        default: return true
        }
    }

    var repeats: Bool {
        switch self {
        case .filter, .filterPattern, .tag, .excludeTag, .pluginPath, .set, .values: return true
        default: return false
        }
    }

    func apply(_ value: String, to settings: inout TestSettings) -> Bool {
        if let shared = ScriptInputOption(rawValue: rawValue) { return shared.apply(value, to: &settings) }
        switch self {
        case .filter: settings.filters.append(value)
        case .filterPattern: settings.filterPatterns.append(value)
        case .tag: settings.tags.append(value)
        case .excludeTag: settings.excludedTags.append(value)
        case .list: settings.list = true
        case .failFast: settings.failFast = true
        case .shuffle: settings.shuffle = true
        case .coverage: settings.coverage = true
        case .timeout: settings.timeout = value
        case .reporter: settings.reporter = value
        case .color: settings.color = value
        case .junit: settings.junit = value
        case .coverageJSON: settings.coverageJSON = value
        case .config: settings.config = value
        case .workerFile: settings.workerFile = value
        case .seed:
            guard let seed = UInt64(value) else { return false }
            settings.seed = seed
        case .coverageMin:
            guard let percent = Double(value) else { return false }
            settings.coverageMin = percent
        case .profile, .jobs, .repeatCount, .workerPosition, .workerSkip:
            guard let number = Int(value) else { return false }
            switch self {
            case .profile: settings.profile = number
            case .jobs: settings.jobs = number
            case .repeatCount: settings.repeatCount = number
            case .workerPosition: settings.workerPosition = number
            default: settings.workerSkip = number
            }
        case .pluginPath, .set, .values: return false        // (shared: applied above)
        }
        return true
    }
}
