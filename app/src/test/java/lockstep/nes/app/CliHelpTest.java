package lockstep.nes.app;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.nes.core.snapshot.SnapshotEdit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line's help and conventions, checked on every command. */
class CliHelpTest {
    @TempDir
    static Path tmp;

    /** Every visible command, as its argument list ("farm", "submit", "canary"). */
    private static List<List<String>> commands() {
        List<List<String>> out = new ArrayList<>();
        collect(Main.commandLine(null), new ArrayList<>(), out);
        return out;
    }

    private static void collect(CommandLine cl, List<String> path, List<List<String>> out) {
        out.add(List.copyOf(path));
        for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
            if (!e.getValue().getCommandSpec().usageMessage().hidden()) {
                List<String> sub = new ArrayList<>(path);
                sub.add(e.getKey());
                collect(e.getValue(), sub, out);
            }
        }
    }

    private static Cli.Result help(List<String> command) {
        List<String> args = new ArrayList<>(command);
        args.add("--help");
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void everyCommandsHelpEndsWithTwoToFourExamples() {
        List<List<String>> all = commands();
        assertTrue(all.size() >= 18, all.toString());
        for (List<String> c : all) {
            Cli.Result r = help(c);
            assertEquals(0, r.exit(), c + ": " + r.err());
            String out = r.out().stripTrailing();
            int at = out.lastIndexOf("\nExamples:\n");
            assertTrue(at > 0, c + " has no examples:\n" + out);
            // An example continued on the next line (" \\") counts once.
            List<String> examples = List.of(out.substring(at + "\nExamples:\n".length())
                    .replace(" \\\n", " ").split("\n"));
            assertTrue(examples.size() >= 2 && examples.size() <= 4, c + ": " + examples);
            String prefix = String.join(" ", List.of("  lockstep", String.join(" ", c))).stripTrailing();
            for (String e : examples) {
                assertTrue(e.startsWith(prefix), c + ": example '" + e + "' does not run " + prefix);
            }
        }
    }

    @Test
    void helpWrapsOnlyAtSpacesAndWithinTheWidth() {
        StringBuilder every = new StringBuilder();
        for (List<String> c : commands()) {
            String out = help(c).out();
            every.append(out);
            for (String line : out.lines().toList()) {
                boolean oneToken = line.strip().indexOf(' ') < 0;
                assertTrue(line.length() <= HelpText.WIDTH || oneToken, c + ": line too long: " + line);
                // A break inside a token leaves a line ending in a path or URL separator.
                assertFalse(line.endsWith("/") || line.endsWith(":") && !line.endsWith("Examples:")
                        && !line.endsWith("Commands:") && line.strip().indexOf(' ') < 0, c + ": " + line);
            }
        }
        String text = every.toString();
        for (String token : new String[] {"../shared/roms", "redis://[user:pass@]host:port", "postgresql://user:pass@host:port/db",
            "builtin:demo", "ram-bitflip@CYCLE:ENGINE[:ADDR:BIT]", "$XDG_CONFIG_HOME/lockstep/keys.json"}) {
            assertTrue(text.contains(token), token + " is broken across lines somewhere");
        }
    }

    @Test
    void everyHelpFormatsWithoutPicocliWarnings() {
        // A lone '%' in a description is a format specifier to picocli: it warns on stderr and
        // prints the raw text.
        PrintStream saved = System.err;
        ByteArrayOutputStream caught = new ByteArrayOutputStream();
        System.setErr(new PrintStream(caught, true, UTF_8));
        try {
            for (List<String> c : commands()) {
                Cli.Result r = help(c);
                assertFalse(r.out().contains("%n"), c + ": " + r.out());
                assertFalse(r.err().contains("WARN"), c + ": " + r.err());
            }
        } finally {
            System.setErr(saved);
        }
        assertFalse(caught.toString(UTF_8).contains("picocli WARN"),
                caught.toString(UTF_8));
    }

    @Test
    void theCommandListGivesOneFullSentencePerCommand() {
        String out = Cli.run("--help").out();
        String list = out.substring(out.indexOf("Commands:\n") + 10, out.indexOf("\nExamples:"));
        Matcher m = Pattern.compile("(?m)^  (\\S+)\\s+(.*(?:\\n {15}.*)*)").matcher(list);
        int n = 0;
        while (m.find()) {
            String sentence = m.group(2).replaceAll("\\s+", " ").strip();
            assertTrue(sentence.endsWith("."), m.group(1) + ": '" + sentence + "'");
            n++;
        }
        assertTrue(n >= 10, list);
    }

    @Test
    void oneMetavariablePerConcept() {
        for (List<String> c : commands()) {
            String out = help(c).out();
            out = out.substring(0, out.lastIndexOf("Examples:"));
            for (String[] want : new String[][] {{"--inject=", "SPEC"}, {"--metrics-port=", "PORT"},
                {"--movie=", "FILE.fm2"}, {"--json=", "FILE.json"}, {"--report=", "FILE.json"}, {"--rom=", "ROM"}}) {
                Matcher m = Pattern.compile(Pattern.quote(want[0]) + "(\\S+?)[\\]\\s]").matcher(out);
                while (m.find()) {
                    assertEquals(want[1], m.group(1), c + ": " + m.group());
                }
            }
        }
    }

    @Test
    void aCommandWithoutItsSubcommandPrintsUsageAndExitsTwo() {
        for (String[] c : new String[][] {{"state"}, {"farm"}}) {
            Cli.Result r = Cli.run(c);
            assertEquals(2, r.exit(), String.join(" ", c));
            assertTrue(r.err().contains("Usage: lockstep " + String.join(" ", c)), r.err());
        }
        // A submit without its job kind says which kinds there are, in one line.
        Cli.Result submit = Cli.run("farm", "submit");
        assertEquals(2, submit.exit(), submit.err());
        assertEquals(1, submit.err().strip().lines().count(), submit.err());
        assertTrue(submit.err().contains("needs a job kind: test-roms or canary"), submit.err());
    }

    @Test
    void aMistypedCommandOrOptionNamesTheNearest() {
        Cli.Result r = Cli.run("verfy");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("did you mean 'lockstep verify'?"), r.err());
        r = Cli.run("state", "dupm", "x.lss");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("did you mean 'lockstep state dump'?"), r.err());
        r = Cli.run("headless", "--frame", "3");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("did you mean '--frames'?"), r.err());
    }

    @Test
    void builtinDemoIsAcceptedWhereverARomIs() {
        for (String[] c : new String[][] {{"headless", "builtin:demo", "--frames", "1"},
            {"verify", "builtin:demo", "--frames", "1"}, {"info", "builtin:demo"},
            {"bench", "builtin:demo", "--frames", "1", "--warmup", "0", "--min-seconds", "0"}}) {
            Cli.Result r = Cli.run(c);
            assertEquals(0, r.exit(), String.join(" ", c) + ": " + r.err());
            assertTrue(c[0].equals("verify") || r.out().contains("lockstep-demo.nes"), String.join(" ", c) + ": " + r.out());
        }
    }

    @Test
    void headlessNamesItsRomAndWithoutOneSuggestsWhatNext() {
        Cli.Result r = Cli.run("headless", "--frames", "1");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().strip().endsWith(" rom=lockstep-demo.nes (built in)"), r.out());
        assertEquals("", r.err(), "a script's stderr stays empty on success");
        java.util.function.BooleanSupplier was = HeadlessCommand.onTerminal;
        HeadlessCommand.onTerminal = () -> true;
        try {
            Cli.Result person = Cli.run("headless", "--frames", "1");
            assertEquals(0, person.exit(), person.err());
            assertTrue(person.err().contains("lockstep run") && person.err().contains("lockstep verify"), person.err());
        } finally {
            HeadlessCommand.onTerminal = was;
        }
    }

    @Test
    void registersAreHexInAStateDiff() throws Exception {
        Path good = tmp.resolve("good.lss");
        assertEquals(0, Cli.run("headless", "--frames", "2", "--save-state", good.toString()).exit());
        byte[] g = Files.readAllBytes(good);
        Path a = tmp.resolve("a.lss");
        Path b = tmp.resolve("b.lss");
        Files.write(a, SnapshotEdit.plant(g, "cpu.a", 0x2a));
        Files.write(b, SnapshotEdit.plant(SnapshotEdit.plant(g, "cpu.a", 0x2b), "cpu.pc", 0xC123));
        Cli.Result r = Cli.run("state", "diff", a.toString(), b.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.out().contains("cpu.a: 0x2a -> 0x2b"), r.out());
        assertTrue(r.out().contains(" -> 0xc123"), r.out());
    }

    @Test
    void aRollbackToPowerOnIsNamedAndProgressIsPlainOffATerminal() {
        Cli.Result r = Cli.run("verify", "--frames", "3", "--inject", "reg@100:A:cpu.x=$99");
        String all = r.out() + r.err();
        assertEquals(1, r.exit(), all);
        assertTrue(all.contains("restored to frame 0 (power-on, before the first cycle)"), all);
        assertFalse(all.contains("cycle -1"), all);
        assertFalse(all.contains("\r"), "no carriage returns when stderr is not a terminal");
        assertTrue(all.contains("cpu.x: 0x"), all);
    }
}
