package lockstep.nes.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code lockstep} command. */
@Command(name = "lockstep", mixinStandardHelpOptions = true, version = "lockstep 0.1.0",
        description = {"Cycle-accurate NES emulator with a lockstep verifier.",
            "'lockstep ROM' is short for 'lockstep run ROM' (play it in a window)."},
        footerHeading = "%nExamples:%n", footer = {"  lockstep headless", "  lockstep run game.nes", "  lockstep verify game.nes --frames 300", "  lockstep test-roms"},
        subcommands = {
            NestestCommand.class,
            TraceCommand.class,
            HeadlessCommand.class,
            StateCommand.class,
            InfoCommand.class,
            NsfCommand.class,
            TestRomsCommand.class,
            VerifyCommand.class,
            BenchCommand.class,
            CanaryCommand.class,
            EngineHostCommand.class,
            RunCommand.class,
            FarmCommand.class,
            NetplayCommand.class,
        })
public final class Main implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** A command run without its subcommand: its usage on stderr, and exit code 2 (bad input). */
    static int usageError(CommandSpec spec) {
        spec.commandLine().getErr().println("error: " + spec.qualifiedName() + " needs a command");
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    public static void main(String[] args) {
        int code = run(args);
        Interrupt.release();
        System.exit(code);
    }

    /** Runs the command line and returns the exit code (for tests). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        HelpText.install(cl);
        args = RunCommand.implicit(args, cl.getSubcommands().keySet());
        // The one place exceptions become exit codes (ExitCodes): a bad option or argument is
        // one line saying what is wrong and where to look, exit 2.
        cl.setParameterExceptionHandler((ex, a) -> {
            CommandLine cmd = ex.getCommandLine();
            cmd.getErr().println("error: " + ex.getMessage() + suggestion(ex) + " (see: "
                    + cmd.getCommandSpec().qualifiedName() + " --help)");
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

    /** For a mistyped command or option, the nearest one picocli knows: " (did you mean 'lockstep verify'?)". */
    private static String suggestion(CommandLine.ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException u) || u.getSuggestions().isEmpty()) {
            return "";
        }
        String nearest = u.getSuggestions().get(0);
        String name = nearest.startsWith("-") ? nearest
                : ex.getCommandLine().getCommandSpec().qualifiedName() + " " + nearest;
        return " (did you mean '" + name + "'?)";
    }
}
