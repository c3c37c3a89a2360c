package lockstep.nes.core.arch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import lockstep.nes.archfixture.BadClock;
import lockstep.nes.archfixture.BadFloatState;
import lockstep.nes.archfixture.BadHashOrder;
import lockstep.nes.archfixture.BadRandom;
import lockstep.nes.archfixture.BadSetOf;
import lockstep.nes.archfixture.BadThread;
import lockstep.nes.archfixture.GoodEngineCode;
import org.junit.jupiter.api.Test;

/** Enforces the determinism rule over the engine modules, and proves each rule can fail. */
class DeterminismTest {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("lockstep.nes.ppu", "lockstep.nes.state", "lockstep.nes.core");

    @Test
    void engineClassesWereImported() {
        assertTrue(ENGINE.contain(lockstep.nes.core.Console.class));
        assertTrue(ENGINE.contain(lockstep.nes.ppu.Ppu.class));
        assertTrue(ENGINE.contain(lockstep.nes.state.StateVisitor.class));
    }

    @Test
    void engineObeysEveryRule() {
        for (ArchRule rule : DeterminismRules.ALL) {
            rule.check(ENGINE);
        }
    }

    @Test
    void clockRuleCatchesAClock() {
        assertViolates(DeterminismRules.NO_WALL_CLOCK, BadClock.class);
    }

    @Test
    void randomRuleCatchesUnseededRandom() {
        assertViolates(DeterminismRules.NO_UNSEEDED_RANDOM, BadRandom.class);
    }

    @Test
    void threadRuleCatchesAThread() {
        assertViolates(DeterminismRules.NO_THREADS, BadThread.class);
    }

    @Test
    void hashOrderRuleCatchesHashMapAndSetOf() {
        assertViolates(DeterminismRules.NO_HASH_ORDER, BadHashOrder.class);
        assertViolates(DeterminismRules.NO_HASH_ORDER, BadSetOf.class);
    }

    @Test
    void floatRuleCatchesFloatState() {
        assertViolates(DeterminismRules.NO_FLOAT_STATE, BadFloatState.class);
    }

    @Test
    void deterministicCodePassesEveryRule() {
        JavaClasses good = new ClassFileImporter().importClasses(GoodEngineCode.class);
        for (ArchRule rule : DeterminismRules.ALL) {
            EvaluationResult r = rule.allowEmptyShould(true).evaluate(good);
            assertFalse(r.hasViolation(), () -> r.getFailureReport().toString());
        }
    }

    private static void assertViolates(ArchRule rule, Class<?> fixture) {
        EvaluationResult r = rule.evaluate(new ClassFileImporter().importClasses(fixture));
        assertTrue(r.hasViolation(), rule.getDescription() + " did not catch " + fixture.getSimpleName());
    }
}
