package lockstep.nes.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lockstep.nes.farm.Farm;
import lockstep.nes.farm.job.CanaryJob;
import lockstep.nes.roms.Manifest;
import lockstep.nes.roms.RomEntry;
import lockstep.nes.roms.RomSelection;
import lockstep.nes.roms.RomsDir;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lockstep farm}: test-suite and canary jobs spread over worker processes and machines. */
@Command(name = "farm", mixinStandardHelpOptions = true,
        description = {"Run test-roms and canary jobs on many workers sharing one store: PostgreSQL "
                + "(postgresql://user:pass@host:port/db, for many machines) or a SQLite file (one machine).",
            "Workers claim jobs with a lease and a fencing token; a result commits only with the newest token."},
        subcommands = {
            FarmCommand.Submit.class,
            FarmCommand.WorkerCmd.class,
            FarmCommand.CoordinatorCmd.class,
            FarmCommand.Status.class,
            FarmCommand.Report.class,
            FarmCommand.Requeue.class,
            FarmCommand.Cancel.class,
        },
        footerHeading = "%nExamples:%n", footer = {"  lockstep farm submit test-roms --store farm.db nes-test-roms", "  lockstep farm worker --store farm.db --exit-when-idle", "  lockstep farm status --store farm.db"})
public final class FarmCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Without a subcommand: the usage, on stderr, and exit code 2 (bad input). */
    @Override
    public Integer call() {
        return Main.usageError(spec);
    }

    @Command(name = "submit", mixinStandardHelpOptions = true, description = "Add jobs to the store.",
            subcommands = {SubmitTestRoms.class, SubmitCanary.class},
            footerHeading = "%nExamples:%n", footer = {"  lockstep farm submit test-roms --store farm.db nes-test-roms", "  lockstep farm submit canary --store farm.db --rom game.nes \\", "      --baseline a.jar --candidate b.jar"})
    static final class Submit implements Callable<Integer> {
        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @picocli.CommandLine.Mixin
        FarmUrls urls = new FarmUrls();

        @Option(names = "--run", paramLabel = "NAME", description = "the run (batch) the jobs belong to (default: today's UTC date, the nightly run)")
        String run;

        /** The store given after the job kind, else before it, else by file or environment. */
        static String store(Submit parent, FarmUrls own) throws BadInput {
            String s = own.storeOrNull();
            if (s == null && parent != null) {
                s = parent.urls.storeOrNull();
            }
            if (s == null) {
                throw new BadInput("--store URL is required (lockstep farm submit --store URL test-roms|canary ...; "
                        + "or --store-file FILE, or the environment variable LOCKSTEP_STORE)");
            }
            return s;
        }

        /** Without a job kind: one line naming the kinds, exit code 2 (bad input). */
        @Override
        public Integer call() throws BadInput {
            throw new BadInput("farm submit needs a job kind: test-roms or canary (lockstep farm submit test-roms --help)");
        }
    }

    @Command(name = "test-roms", mixinStandardHelpOptions = true,
            description = "One job per ROM (files or folders, as for `lockstep test-roms`; stored by their path "
                    + "under the roms dir, which each worker resolves in its own roms dir).",
            footerHeading = "%nExamples:%n", footer = {"  lockstep farm submit test-roms --store farm.db nes-test-roms", "  lockstep farm submit test-roms --store postgresql://db/farm --frames 600 roms"})
    static final class SubmitTestRoms implements Callable<Integer> {
        @picocli.CommandLine.ParentCommand
        Submit parent;

        @picocli.CommandLine.Mixin
        FarmUrls urls = new FarmUrls();

        @Option(names = "--run", paramLabel = "NAME", description = "the run (batch) the jobs belong to (default: today's UTC date)")
        String run;

        @Parameters(paramLabel = "ROM", arity = "1..*", description = "ROM files or folders")
        List<String> roms;

        @Option(names = "--roms", paramLabel = "DIR", description = "test ROM folder (default: $LOCKSTEP_ROMS, else ../shared/roms)")
        Path romsDir;

        @Option(names = "--frames", paramLabel = "N", defaultValue = "3600",
                description = "frame limit for ROMs not in the manifest (default: ${DEFAULT-VALUE})")
        int frames;

        @Override
        public Integer call() throws BadInput {
            String url = Submit.store(parent, urls);
            if (frames < 1) {
                System.err.println("error: " + OptionRange.atLeast("--frames", 1, frames));
                return 2;
            }
            Path dir = RomsDir.locate(romsDir, System.getenv(), FarmCommand.class);
            List<RomEntry> entries;
            try {
                entries = RomSelection.select(Manifest.builtIn(), Files.isDirectory(dir) ? dir : null, roms, frames);
            } catch (RomSelection.BadPathException e) {
                System.err.println("error: " + e.getMessage());
                return 2;
            }
            List<String> specs = new ArrayList<>();
            for (RomEntry e : entries) {
                specs.add(TestRomsJob.spec(e.rom(), e.frames() != null ? e.frames() : frames));
            }
            return Farm.submit(url, TestRomsJob.KIND, specs, run != null ? run : parent != null ? parent.run : null,
                    System.out, System.err);
        }
    }

    @Command(name = "canary", mixinStandardHelpOptions = true,
            description = "One canary job: the ROM and movie through the baseline and candidate jars "
                    + "(paths every worker can read).",
            footerHeading = "%nExamples:%n", footer = {"  lockstep farm submit canary --store farm.db --rom game.nes \\", "      --baseline a.jar --candidate b.jar", "  lockstep farm submit canary --store farm.db --rom builtin:demo --frames 1000 \\", "      --baseline a.jar --candidate b.jar --movie run.fm2"})
    static final class SubmitCanary implements Callable<Integer> {
        @picocli.CommandLine.ParentCommand
        Submit parent;

        @picocli.CommandLine.Mixin
        FarmUrls urls = new FarmUrls();

        @Option(names = "--run", paramLabel = "NAME", description = "the run (batch) the job belongs to (default: today's UTC date)")
        String run;

        @Option(names = "--baseline", required = true, paramLabel = "A.jar", description = "the baseline build's jar (a path every worker can read)")
        Path baseline;

        @Option(names = "--candidate", required = true, paramLabel = "B.jar", description = "the candidate build's jar (a path every worker can read)")
        Path candidate;

        @Option(names = "--rom", required = true, paramLabel = "ROM", description = "iNES / NES 2.0 file, or " + CanaryJob.DEMO)
        String rom;

        @Option(names = "--movie", paramLabel = "FILE.fm2", description = "FCEUX movie fed to both builds")
        Path movie;

        @Option(names = "--frames", paramLabel = "N", defaultValue = "5000", description = "frames per job (default: ${DEFAULT-VALUE})")
        int frames;

        @Option(names = "--checkpoint-every", paramLabel = "K", defaultValue = "60",
                description = "frames between stored checkpoints (default: ${DEFAULT-VALUE})")
        int checkpointEvery;

        @Override
        public Integer call() throws BadInput {
            String url = Submit.store(parent, urls);
            try {
                CanaryCommand.checkJar(baseline, "--baseline");
                CanaryCommand.checkJar(candidate, "--candidate");
                if (frames < 1 || checkpointEvery < 1) {
                    throw new BadInput(frames < 1 ? OptionRange.atLeast("--frames", 1, frames)
                            : OptionRange.atLeast("--checkpoint-every", 1, checkpointEvery));
                }
                CanaryCommand.target(rom, movie, frames, null);
            } catch (BadInput e) {
                System.err.println("error: " + e.getMessage());
                return 2;
            }
            return Farm.submit(url, CanaryJob.KIND,
                    List.of(CanaryJob.spec(baseline, candidate, rom, movie, frames, checkpointEvery)),
                    run != null ? run : parent != null ? parent.run : null, System.out, System.err);
        }
    }

    @Command(name = "worker", mixinStandardHelpOptions = true,
            description = {"Claim and run jobs until stopped (or, with --exit-when-idle, until none is left).",
                "Without --partition each job is claimed with a lease (lock manager: --locks, default the store); "
                        + "with --partition i/n the worker runs only the jobs whose id mod n is i, each still under its lease, "
                        + "and holds the partition's own lease (a second worker given it is reported as DUPLICATE)."},
            footerHeading = "%nExamples:%n", footer = {"  lockstep farm worker --store farm.db --exit-when-idle", "  lockstep farm worker --store postgresql://db/farm --locks redis://cache:6379", "  lockstep farm worker --store farm.db --partition 0/4"})
    static final class WorkerCmd implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        FarmUrls urls = new FarmUrls();

        @picocli.CommandLine.Mixin
        FarmUrls.Locks locks = new FarmUrls.Locks();

        @Option(names = "--partition", paramLabel = "i/n", description = "static partition: run only jobs with id mod n = i")
        String partition;

        @Option(names = "--exit-when-idle", description = "exit once no job is queued or running")
        boolean exitWhenIdle;

        @Option(names = "--ttl", paramLabel = "MS", defaultValue = "15000", description = "lease TTL in ms (default: ${DEFAULT-VALUE})")
        long ttl;

        @Option(names = "--safety-margin", paramLabel = "MS", description = "stop this long before the lease's deadline (default: TTL/5)")
        Long margin;

        @Option(names = "--max-attempts", paramLabel = "N", defaultValue = "5",
                description = "failures of a job (a crash of the job, a bad input) before it goes to the dead-letter table "
                        + "(default: ${DEFAULT-VALUE})")
        int maxAttempts;

        @Option(names = "--max-abandoned", paramLabel = "N", defaultValue = "10",
                description = "claims of a job that end without an outcome (its worker killed, paused past its lease) "
                        + "before it goes to the dead-letter table (default: ${DEFAULT-VALUE})")
        int maxAbandoned;

        @Option(names = "--backoff", paramLabel = "MS", defaultValue = "1000",
                description = "base of the exponential retry backoff, full jitter (default: ${DEFAULT-VALUE})")
        long backoff;

        @Option(names = "--metrics-port", paramLabel = "PORT", description = "serve Prometheus /metrics on 127.0.0.1:PORT")
        Integer metricsPort;

        @Option(names = "--roms", paramLabel = "DIR", description = "test ROM folder (default: $LOCKSTEP_ROMS, else ../shared/roms)")
        Path romsDir;

        @Option(names = "--pause-before-commit", hidden = true, paramLabel = "MS")
        long pauseBeforeCommit;

        @Override
        public Integer call() throws BadInput {
            Ports.check(metricsPort, "--metrics-port");
            Farm.WorkerArgs a = new Farm.WorkerArgs();
            a.store = urls.store();
            a.locks = locks.locks();
            a.partition = partition;
            a.exitWhenIdle = exitWhenIdle;
            a.ttlMillis = ttl;
            a.marginMillis = margin;
            a.maxAttempts = maxAttempts;
            a.maxAbandoned = maxAbandoned;
            a.backoffBaseMillis = backoff;
            a.metricsPort = metricsPort;
            a.pauseBeforeCommitMillis = pauseBeforeCommit;
            if (romsDir != null && !Files.isDirectory(romsDir)) {
                throw new BadInput(romsDir + ": no such folder (--roms)");
            }
            a.moreRunners.put(TestRomsJob.KIND, new TestRomsJob(RomsDir.locate(romsDir, System.getenv(), FarmCommand.class)));
            return Farm.worker(a, System.out, System.err);
        }
    }

    @Command(name = "coordinator", mixinStandardHelpOptions = true,
            description = "Campaign for leadership; the leader requeues jobs whose lease expired and marks the nightly "
                    + "run finished, every write fenced by its term.",
            footerHeading = "%nExamples:%n", footer = {"  lockstep farm coordinator --store farm.db", "  lockstep farm coordinator --store postgresql://db/farm --metrics-port 9401"})
    static final class CoordinatorCmd implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        FarmUrls urls = new FarmUrls();

        @picocli.CommandLine.Mixin
        FarmUrls.Locks locks = new FarmUrls.Locks();

        @Option(names = "--ttl", paramLabel = "MS", defaultValue = "15000", description = "leader lease TTL in ms (default: ${DEFAULT-VALUE})")
        long ttl;

        @Option(names = "--period", paramLabel = "MS", defaultValue = "2000", description = "ms between rounds (default: ${DEFAULT-VALUE})")
        long period;

        @Option(names = "--metrics-port", paramLabel = "PORT", description = "serve Prometheus /metrics on 127.0.0.1:PORT")
        Integer metricsPort;

        @Override
        public Integer call() throws BadInput {
            Ports.check(metricsPort, "--metrics-port");
            Farm.CoordinatorArgs a = new Farm.CoordinatorArgs();
            a.store = urls.store();
            a.locks = locks.locks();
            a.ttlMillis = ttl;
            a.periodMillis = period;
            a.metricsPort = metricsPort;
            return Farm.coordinator(a, System.out, System.err);
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Jobs by state, results, the coordinator's term and the dead letters.",
            footerHeading = "%nExamples:%n", footer = {"  lockstep farm status --store farm.db", "  lockstep farm status --store postgresql://db/farm"})
    static final class Status implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        FarmUrls urls = new FarmUrls();

        @Override
        public Integer call() throws BadInput {
            return Farm.status(urls.store(), System.out, System.err);
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true, description = "The nightly report: one row per job.",
            footerHeading = "%nExamples:%n", footer = {"  lockstep farm report --store farm.db", "  lockstep farm report --store farm.db --json"})
    static final class Report implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        FarmUrls urls = new FarmUrls();

        @Option(names = "--run", paramLabel = "NAME", description = "only this run's jobs")
        String run;

        @Option(names = "--json", description = "print {\"run\",\"jobs\":[{\"job_id\",\"run\",\"kind\",\"rom\",\"status\",\"outcome\","
                + "\"result\",\"attempts\",\"failed_attempts\",\"abandoned_attempts\",\"fencing_token\",\"duration_ms\",\"last_error\"}]}")
        boolean json;

        @Override
        public Integer call() throws BadInput {
            return Farm.report(urls.store(), run, json, System.out, System.err);
        }
    }

    /** A command on chosen jobs of a store: their ids, or {@code --all} (each command says which it takes). */
    abstract static class OnJobs implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        FarmUrls urls = new FarmUrls();

        @Parameters(paramLabel = "JOB", arity = "0..*", description = "job ids")
        List<String> ids = new ArrayList<>();
    }

    @Command(name = "requeue", mixinStandardHelpOptions = true,
            description = "Queue dead-lettered jobs again (with --failed, also finished jobs whose result is not a pass).",
            footerHeading = "%nExamples:%n", footer = {"  lockstep farm requeue --store farm.db 12 17", "  lockstep farm requeue --store farm.db --all --failed"})
    static final class Requeue extends OnJobs {
        @Option(names = "--all", description = "every dead-lettered (and with --failed, failed) job")
        boolean all;

        @Option(names = "--failed", description = "also finished jobs whose result is not a pass (their result is removed)")
        boolean failed;

        @Override
        public Integer call() throws BadInput {
            return Farm.requeue(urls.store(), ids, all, failed, System.out, System.err);
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Cancel queued or running jobs: they go to the dead letters as cancelled (requeue brings them back).",
            footerHeading = "%nExamples:%n", footer = {"  lockstep farm cancel --store farm.db 12", "  lockstep farm cancel --store farm.db --all"})
    static final class Cancel extends OnJobs {
        @Option(names = "--all", description = "every queued or running job")
        boolean all;

        @Override
        public Integer call() throws BadInput {
            return Farm.cancel(urls.store(), ids, all, System.out, System.err);
        }
    }
}
