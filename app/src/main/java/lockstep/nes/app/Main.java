package lockstep.nes.app;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code lockstep} command. */
@Command(name = "lockstep", mixinStandardHelpOptions = true, version = "lockstep 0.1.0",
        description = {"Cycle-accurate NES emulator with a lockstep verifier.",
            "'lockstep ROM' is short for 'lockstep run ROM' (play it in a window)."},
        footerHeading = "%nExamples:%n", footer = {"  lockstep headless", "  lockstep run game.nes", "  lockstep verify game.nes --frames 300", "  lockstep test-roms"})
public final class Main implements Runnable {
    /**
     * The commands, in the order help lists them. Only the one named on the command line is
     * built (picocli reads every option of a command by reflection, about 0.2 s for all of them
     * at start-up, which an engine host, a canary's hosts' start and every short run wait for);
     * all are built for the top-level help, a mistyped name (to suggest the nearest) and no name.
     */
    private static final List<Class<?>> COMMANDS = List.of(
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
            NetplayCommand.class);

    /** The commands' names, read from their annotations without building them. */
    static Set<String> commandNames() {
        Set<String> names = new LinkedHashSet<>();
        for (Class<?> c : COMMANDS) {
            names.add(c.getAnnotation(Command.class).name());
        }
        return names;
    }

    /**
     * The {@code lockstep} command line with the command named {@code command} under it, or with
     * every command when {@code command} names none (null included).
     */
    static CommandLine commandLine(String command) {
        CommandLine cl = new CommandLine(new Main());
        boolean one = command != null && commandNames().contains(command);
        for (Class<?> c : COMMANDS) {
            if (!one || c.getAnnotation(Command.class).name().equals(command)) {
                cl.addSubcommand(c);
            }
        }
        HelpText.install(cl);
        return cl;
    }

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
        args = RunCommand.implicit(args, commandNames());
        CommandLine cl = commandLine(args.length > 0 ? args[0] : null);
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
