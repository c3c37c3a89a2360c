package lockstep.nes.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code lockstep} command. */
@Command(name = "lockstep", mixinStandardHelpOptions = true, version = "lockstep 0.1.0",
        description = "Cycle-accurate NES emulator with a lockstep verifier.",
        subcommands = {
            NestestCommand.class,
            HeadlessCommand.class,
            StateCommand.class,
            InfoCommand.class,
            TestRomsCommand.class,
            VerifyCommand.class,
        })
public final class Main implements Runnable {
    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (for tests). */
    public static int run(String... args) {
        return new CommandLine(new Main()).execute(args);
    }
}
