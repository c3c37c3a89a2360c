package lockstep.nes.app.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import lockstep.nes.core.arrowfixture.EngineReachingForTheChain;
import lockstep.nes.ppu.arrowfixture.PpuReachingForTheEngine;
import lockstep.nes.state.arrowfixture.StateReachingForThePpu;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The module arrows: {@code state <- ppu <- emulator-core <- verifier <- (farm, roms-test,
 * benchmarks, netplay <- desktop) <- app}; the desktop hosts and joins through netplay; the farm runs test-roms jobs through a runner the app hands
 * it. Checked twice: in the bytecode (each module's packages use only the packages of the modules below it) and in the
 * poms (each module declares only modules below it). Inside emulator-core, the engine does not
 * depend on the lockstep chain ({@code lockstep.nes.core.chain}), which depends on the engine.
 * Each check is shown to fail on a fixture that breaks it.
 */
class ModuleArrowsTest {
    /** Module name, its packages, the modules it may use; bottom first. */
    private static final String[][] MODULES = {
        {"state", "lockstep.nes.state.."},
        {"ppu", "lockstep.nes.ppu..", "state"},
        {"emulator-core", "lockstep.nes.core..", "ppu", "state"},
        {"verifier", "lockstep.nes.verifier..", "emulator-core", "ppu", "state"},
        {"roms-test", "lockstep.nes.roms..", "verifier", "emulator-core", "ppu", "state"},
        {"benchmarks", "lockstep.nes.bench..", "verifier", "emulator-core", "ppu", "state"},
        {"netplay", "lockstep.nes.netplay..", "verifier", "emulator-core", "ppu", "state"},
        {"desktop", "lockstep.nes.desktop..", "netplay", "verifier", "emulator-core", "ppu", "state"},
        {"farm", "lockstep.nes.farm..", "verifier", "emulator-core", "ppu", "state"},
        {"app", "lockstep.nes.app..", "farm", "desktop", "roms-test", "netplay", "verifier", "emulator-core", "ppu", "state"},
    };

    /** The main classes of every module on this test's class path (no test classes or test jars). */
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(location -> !location.contains("/test-classes/") && !location.contains("-tests.jar"))
            .importPackages("lockstep.nes");

    private static final ArchRule LAYERS = layers();

    private static final ArchRule ENGINE_DOES_NOT_USE_THE_CHAIN = noClasses()
            .that().resideInAPackage("lockstep.nes.core..")
            .and().resideOutsideOfPackages("lockstep.nes.core.chain..", "lockstep.nes.core.digest..")
            .should().dependOnClassesThat().resideInAPackage("lockstep.nes.core.chain..")
            .as("the engine does not depend on the lockstep chain (the chain depends on the engine)");

    private static final ArchRule CHAIN_DOES_NOT_USE_THE_DIGEST = noClasses()
            .that().resideInAPackage("lockstep.nes.core.chain..")
            .should().dependOnClassesThat().resideInAPackage("lockstep.nes.core.digest..")
            .as("the chain does not depend on the cycle digest (the digest uses the chain's representation term)");

    private static ArchRule layers() {
        var arch = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (String[] m : MODULES) {
            // Nothing uses the benchmarks, so they are not on this class path: their pom is
            // checked, and a module's code can reach only what its pom puts on its class path.
            arch = (m[0].equals("benchmarks") ? arch.optionalLayer(m[0]) : arch.layer(m[0])).definedBy(m[1]);
        }
        for (String[] m : MODULES) {
            String[] below = Arrays.copyOfRange(m, 2, m.length);
            arch = below.length == 0 ? arch.whereLayer(m[0]).mayNotAccessAnyLayer()
                    : arch.whereLayer(m[0]).mayOnlyAccessLayers(below);
        }
        return arch;
    }

    @Test
    void everyModuleOnTheClassPathWasImported() {
        for (Class<?> c : new Class<?>[] {lockstep.nes.state.StateVisitor.class, lockstep.nes.ppu.Ppu.class,
                lockstep.nes.core.Console.class, lockstep.nes.core.chain.PairStepper.class,
                lockstep.nes.verifier.Lockstep.class, lockstep.nes.roms.RomRunner.class,
                lockstep.nes.desktop.DesktopApp.class, lockstep.nes.farm.Worker.class, lockstep.nes.app.Main.class}) {
            assertTrue(MAIN.contain(c), c.getName() + " was not imported");
        }
        assertFalse(MAIN.contain(EngineReachingForTheChain.class), "test classes are not the modules' code");
    }

    @Test
    void everyPackageBelongsToAModule() {
        String[] packages = new String[MODULES.length];
        for (int i = 0; i < MODULES.length; i++) {
            packages[i] = MODULES[i][1];
        }
        classes().that().resideInAPackage("lockstep.nes..").should().resideInAnyPackage(packages).check(MAIN);
    }

    @Test
    void packagesUseOnlyTheModulesBelowThem() {
        LAYERS.check(MAIN);
    }

    @Test
    void theEngineDoesNotUseTheChain() {
        ENGINE_DOES_NOT_USE_THE_CHAIN.check(MAIN);
        CHAIN_DOES_NOT_USE_THE_DIGEST.check(MAIN);
    }

    @Test
    void anArrowUpwardsFails() {
        assertViolates(LAYERS, StateReachingForThePpu.class, lockstep.nes.ppu.Ppu.class);
        assertViolates(LAYERS, PpuReachingForTheEngine.class, lockstep.nes.core.Console.class);
        assertViolates(ENGINE_DOES_NOT_USE_THE_CHAIN, EngineReachingForTheChain.class,
                lockstep.nes.core.chain.PairStepper.class);
    }

    private static void assertViolates(ArchRule rule, Class<?>... fixture) {
        EvaluationResult r = rule.evaluate(new ClassFileImporter().importClasses(fixture));
        assertTrue(r.hasViolation(), rule.getDescription() + " did not catch " + fixture[0].getSimpleName());
    }

    // ---- the poms ----

    /** The declared module dependencies of every module whose pom breaks an arrow, as messages. */
    static List<String> pomArrowProblems(Map<String, String> poms) throws Exception {
        List<String> problems = new ArrayList<>();
        for (String[] m : MODULES) {
            String pom = poms.get(m[0]);
            if (pom == null) {
                problems.add(m[0] + ": no pom");
                continue;
            }
            List<String> allowed = List.of(m).subList(2, m.length);
            for (String dep : ourDependencies(pom)) {
                if (!allowed.contains(dep)) {
                    problems.add(m[0] + " depends on " + dep + " (it may use only " + allowed + ")");
                }
            }
        }
        return problems;
    }

    /** The artifactIds of a pom's dependencies in group lockstep.nes, whatever their scope. */
    private static List<String> ourDependencies(String pom) throws Exception {
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(pom.getBytes(StandardCharsets.UTF_8)));
        NodeList deps = doc.getElementsByTagName("dependency");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            if ("lockstep.nes".equals(text(d, "groupId"))) {
                out.add(text(d, "artifactId"));
            }
        }
        return out;
    }

    private static String text(Element e, String tag) {
        NodeList n = e.getElementsByTagName(tag);
        return n.getLength() == 0 ? null : n.item(0).getTextContent().trim();
    }

    /** The reactor root: the directory above this module's (where Maven runs the tests). */
    private static Path root() {
        Path here = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        return Files.exists(here.resolve("state/pom.xml")) ? here : here.getParent();
    }

    @Test
    void pomsDeclareOnlyTheModulesBelowThem() throws Exception {
        Map<String, String> poms = poms();
        assertEquals(List.of(), pomArrowProblems(poms));
    }

    @Test
    void aPomArrowUpwardsFails() throws Exception {
        Map<String, String> poms = poms();
        poms.put("ppu", poms.get("ppu").replace("<artifactId>state</artifactId>",
                "<artifactId>state</artifactId></dependency><dependency><groupId>lockstep.nes</groupId>"
                        + "<artifactId>emulator-core</artifactId>"));
        assertEquals(List.of("ppu depends on emulator-core (it may use only [state])"), pomArrowProblems(poms));
    }

    /** Every module's pom as it is in the reactor, by module name. */
    private static Map<String, String> poms() throws IOException {
        Map<String, String> poms = new TreeMap<>();
        for (String[] m : MODULES) {
            poms.put(m[0], Files.readString(root().resolve(m[0]).resolve("pom.xml")));
        }
        return poms;
    }
}
