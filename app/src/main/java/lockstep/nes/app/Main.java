package lockstep.nes.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code lockstep} command. */
@Command(name = "lockstep", mixinStandardHelpOptions = true, version = "lockstep 0.1.0",
        description = {"Cycle-accurate NES emulator with a lockstep verifier.",
            "'lockstep ROM' is short for 'lockstep run ROM' (play it in a window)."},
        subcommands = {
            NestestCommand.class,
            HeadlessCommand.class,
            StateCommand.class,
            InfoCommand.class,
            TestRomsCommand.class,
            VerifyCommand.class,
            BenchCommand.class,
            CanaryCommand.class,
            EngineHostCommand.class,
            RunCommand.class,
            FarmCommand.class,
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
        CommandLine cl = new CommandLine(new Main());
        args = RunCommand.implicit(args, cl.getSubcommands().keySet());
        // The one place exceptions become exit codes (ExitCodes): a bad option or argument is
        // one line saying what is wrong and where to look, exit 2.
        cl.setParameterExceptionHandler((ex, a) -> {
            CommandLine cmd = ex.getCommandLine();
            cmd.getErr().println("error: " + ex.getMessage() + " (see: " + cmd.getCommandSpec().qualifiedName()
                    + " --help)");
            return ExitCodes.BAD_INPUT;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof BadInput) {
                cmd.getErr().println("error: " + ex.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            // Anything else is a bug: one line with its cause, never a stack trace.
            cmd.getErr().println("error: internal error: " + (ex.getMessage() != null ? ex.getMessage() : ex.toString()));
            return ExitCodes.INTERNAL;
        });
        return cl.execute(args);
    }
}
