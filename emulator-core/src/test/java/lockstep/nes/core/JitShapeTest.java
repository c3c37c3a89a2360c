package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.chain.ChainedRun;
import lockstep.nes.core.chain.PairStepper;
import lockstep.nes.core.demo.DemoRom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hot loops' shape as HotSpot's C2 compiles it, read from a {@code -XX:+LogCompilation} log
 * of a JVM that runs one engine and two chained ones: the whole-instruction path of
 * {@link Console#runFrame} and {@link ChainedRun#resume} is inlined in every C2 compile of them,
 * and {@code WholeInstruction.run} parses its most used bus pattern first (after its default
 * case, the opcode fetch alone), each in every compile whose profile has reached it. C2 inlines
 * in bytecode order until a compile's budget is spent, so this holds by the loops' layout and
 * the patterns' numbering, whatever order the compiler threads work in
 * (docs/design/performance.md, "The chained loop's shape"; docs/design/cpu.md).
 */
class JitShapeTest {
    @TempDir
    Path tmp;

    /**
     * The JVM under the log: the demo on one engine, and the IRQ loop program (DMC writes and
     * interrupt sequences, so the chain folds often) on two chained engines in lockstep, every
     * loop iteration run.
     */
    static final class Workload {
        public static void main(String[] args) throws Exception {
            final Console single = Console.createWithoutSpinSkip(Cartridge.parse("demo", DemoRom.bytes()));
            final Cartridge irqs = IrqLoopProgram.cartridge();
            final PairStepper pair = new PairStepper(Console.createWithoutSpinSkip(irqs),
                    Console.createWithoutSpinSkip(irqs));
            long sum = 0;
            for (int frame = 0; frame < Integer.parseInt(args[0]); frame++) {
                single.runFrame();
                sum += pair.stepStretch(Long.MAX_VALUE);
            }
            System.out.println(sum);
        }
    }

    /** One call in a compile's inlining tree: the callee and whether C2 inlined it. */
    record Call(String method, boolean inlined, String reason) {
    }

    @Test
    void theWholeInstructionPathIsInlinedInEveryC2CompileOfTheLoops() throws Exception {
        String vm = System.getProperty("java.vm.name", "");
        assumeTrue(vm.contains("HotSpot") || vm.contains("OpenJDK"), "a HotSpot JVM logs its compiles: " + vm);
        Path log = tmp.resolve("compilation.xml");
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation", "-XX:LogFile=" + log,
                "-cp", System.getProperty("java.class.path"), Workload.class.getName(), "4000");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the workload did not end");
        assertEquals(0, p.exitValue(), out);
        String text = Files.readString(log, StandardCharsets.ISO_8859_1);

        List<List<Call>> runFrame = compiles(text, "lockstep.nes.core.Console runFrame ");
        List<List<Call>> resume = compiles(text, "lockstep.nes.core.chain.ChainedRun resume ");
        List<List<Call>> dispatch = compiles(text, "lockstep.nes.core.cpu.WholeInstruction run ");
        assertFalse(runFrame.isEmpty(), "C2 never compiled Console.runFrame");
        assertFalse(resume.isEmpty(), "C2 never compiled ChainedRun.resume");
        assertFalse(dispatch.isEmpty(), "C2 never compiled WholeInstruction.run");
        // A compile made before the profile reached a branch leaves it to an uncommon trap and
        // parses nothing beneath it; reaching it deoptimizes the compile, and the recompile
        // parses it. So each call must be inlined in every compile that parses it, and the last
        // compile, the one that stays, must parse it.
        for (String m : List.of("Console::wholeInstructionSafe", "Console::frameCannotEndWithin",
                "Cpu::runInstruction", "Cpu::pc", "Cpu::instructionPc", "Console::afterBackJump")) {
            assertInlinedWhereParsed(runFrame, m, "runFrame");
        }
        for (String m : List.of("Console::changeCount", "Console::wholeInstructionSafe",
                "Console::frameCannotEndWithin", "Console::runWholeInstruction",
                "Cpu::pc", "Cpu::instructionPc")) {
            assertInlinedWhereParsed(resume, m, "resume");
        }
        for (List<Call> tree : dispatch) {
            List<String> patterns = tree.stream().map(Call::method)
                    .filter(m -> m.startsWith("WholeInstruction::") && !m.equals("WholeInstruction::fetchOnly"))
                    .toList();
            if (patterns.contains("WholeInstruction::implied")) {
                assertEquals("WholeInstruction::implied", patterns.get(0),
                        "the first bus pattern WholeInstruction.run parses");
            }
        }
        assertTrue(dispatch.get(dispatch.size() - 1).stream()
                        .anyMatch(c -> c.method().equals("WholeInstruction::implied")),
                "the last C2 compile of WholeInstruction.run parses the implied pattern");
    }

    /** {@code method}'s first call inlined in each compile that parses it, and parsed in the last. */
    private static void assertInlinedWhereParsed(List<List<Call>> compiles, String method, String where) {
        for (List<Call> tree : compiles) {
            Call call = tree.stream().filter(c -> c.method().equals(method)).findFirst().orElse(null);
            assertTrue(call == null || call.inlined(), () -> method + " in a C2 compile of " + where
                    + ": left out of line (" + call.reason() + ")");
        }
        assertTrue(compiles.get(compiles.size() - 1).stream().anyMatch(c -> c.method().equals(method)),
                method + " is not called in the last C2 compile of " + where);
    }

    /**
     * The calls of each C2 compile (level 4, OSR compiles too) of a method, in parse order; the
     * compiles in the order they started (each compiler thread's log is appended whole).
     */
    static List<List<Call>> compiles(String log, String method) {
        List<Map.Entry<Double, List<Call>>> out = new ArrayList<>();
        Matcher task = Pattern.compile("<task ([^>]*)>(.*?)</task>", Pattern.DOTALL).matcher(log);
        while (task.find()) {
            String head = task.group(1);
            String level = attribute(head, "level");
            if (!attribute(head, "method").replace('/', '.').startsWith(method) || level != null && !level.equals("4")) {
                continue;
            }
            String body = task.group(2);
            Map<String, String> classes = new HashMap<>();
            Matcher k = Pattern.compile("<klass id='(\\d+)' name='([^']*)'").matcher(body);
            while (k.find()) {
                String name = k.group(2).replace('/', '.');
                classes.put(k.group(1), name.substring(name.lastIndexOf('.') + 1));
            }
            Map<String, String> methods = new HashMap<>();
            Matcher m = Pattern.compile("<method id='(\\d+)' holder='(\\d+)' name='([^']*)'").matcher(body);
            while (m.find()) {
                methods.put(m.group(1), classes.getOrDefault(m.group(2), "?") + "::" + m.group(3));
            }
            List<Call> calls = new ArrayList<>();
            String pending = null;
            Matcher e = Pattern.compile("<(call|inline_success|inline_fail|intrinsic)\\b([^>]*)>").matcher(body);
            while (e.find()) {
                if (e.group(1).equals("call")) {
                    pending = methods.getOrDefault(attribute(e.group(2), "method"), "?");
                } else if (pending != null) {
                    boolean inlined = !e.group(1).equals("inline_fail");
                    calls.add(new Call(pending, inlined, inlined ? "" : attribute(e.group(2), "reason")));
                    pending = null;
                }
            }
            String stamp = attribute(head, "stamp");
            out.add(Map.entry(stamp == null ? 0.0 : Double.parseDouble(stamp), calls));
        }
        out.sort(Map.Entry.comparingByKey());
        return out.stream().map(Map.Entry::getValue).toList();
    }

    private static String attribute(String element, String name) {
        Matcher m = Pattern.compile("\\b" + name + "='([^']*)'").matcher(element);
        return m.find() ? m.group(1) : null;
    }
}
