package lockstep.nes.farm;

import java.util.ArrayList;
import java.util.List;

/**
 * A minimal entry point for one worker or coordinator process without the app (the farm's tests
 * start workers with it): {@code java -cp ... lockstep.nes.farm.FarmMain worker|coordinator
 * --store URL [options]}. The supported command line is {@code lockstep farm ...}.
 */
public final class FarmMain {
    private FarmMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: FarmMain worker|coordinator|submit-noop --store URL [options]");
            return 2;
        }
        List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
        try {
            switch (args[0]) {
                case "worker" -> {
                    Farm.WorkerArgs a = new Farm.WorkerArgs();
                    a.store = take(rest, "--store");
                    a.locks = take(rest, "--locks");
                    a.partition = take(rest, "--partition");
                    a.exitWhenIdle = flag(rest, "--exit-when-idle");
                    a.ttlMillis = num(rest, "--ttl-ms", a.ttlMillis);
                    String m = take(rest, "--margin-ms");
                    a.marginMillis = m == null ? null : Long.parseLong(m);
                    a.maxAttempts = (int) num(rest, "--max-attempts", a.maxAttempts);
                    a.maxAbandoned = (int) num(rest, "--max-abandoned", a.maxAbandoned);
                    a.backoffBaseMillis = num(rest, "--backoff-ms", a.backoffBaseMillis);
                    a.backoffCapMillis = num(rest, "--backoff-cap-ms", a.backoffCapMillis);
                    a.pauseBeforeCommitMillis = num(rest, "--pause-before-commit-ms", 0);
                    a.idlePollMillis = num(rest, "--idle-poll-ms", a.idlePollMillis);
                    done(rest);
                    return Farm.worker(a, System.out, System.err);
                }
                case "coordinator" -> {
                    Farm.CoordinatorArgs a = new Farm.CoordinatorArgs();
                    a.store = take(rest, "--store");
                    a.locks = take(rest, "--locks");
                    a.ttlMillis = num(rest, "--ttl-ms", a.ttlMillis);
                    String m = take(rest, "--margin-ms");
                    a.marginMillis = m == null ? null : Long.parseLong(m);
                    a.periodMillis = num(rest, "--period-ms", a.periodMillis);
                    a.pauseBeforeWriteMillis = num(rest, "--pause-before-write-ms", 0);
                    a.periods = (int) num(rest, "--periods", 0);
                    done(rest);
                    return Farm.coordinator(a, System.out, System.err);
                }
                case "submit-noop" -> {
                    String store = take(rest, "--store");
                    int count = (int) num(rest, "--count", 1);
                    done(rest);
                    List<String> specs = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        specs.add("{\"by\":" + ProcessHandle.current().pid() + ",\"n\":" + i + "}");
                    }
                    return Farm.submit(store, "noop", specs, System.out, System.err);
                }
                default -> {
                    System.err.println("error: unknown command " + args[0]);
                    return 2;
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
    }

    private static String take(List<String> args, String name) {
        int i = args.indexOf(name);
        if (i < 0) {
            return null;
        }
        if (i + 1 >= args.size()) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        String v = args.get(i + 1);
        args.remove(i + 1);
        args.remove(i);
        return v;
    }

    private static boolean flag(List<String> args, String name) {
        return args.remove(name);
    }

    private static long num(List<String> args, String name, long def) {
        String v = take(args, name);
        try {
            return v == null ? def : Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, not " + v);
        }
    }

    private static void done(List<String> rest) {
        if (!rest.isEmpty()) {
            throw new IllegalArgumentException("unknown argument " + rest.get(0));
        }
    }
}
