package lockstep.nes.core.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.Timer;
import java.util.UUID;
import java.util.WeakHashMap;
import lockstep.nes.state.Stateful;

/**
 * The determinism rule of DESIGN.md as ArchUnit rules: the engine ({@code ppu} and
 * {@code emulator-core}) must compute the same thing from the same inputs on every run, so it
 * may not read a clock, draw unseeded random numbers, iterate hash-ordered collections, start
 * threads, or keep floating point in hashed state.
 */
final class DeterminismRules {
    private DeterminismRules() {
    }

    static final ArchRule NO_WALL_CLOCK = noClasses()
            .should().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().dependOnClassesThat().resideInAPackage("java.time..")
            .as("the engine reads no clock");

    static final ArchRule NO_UNSEEDED_RANDOM = noClasses()
            .should().callMethod(Math.class, "random")
            .orShould().callMethod(StrictMath.class, "random")
            .orShould().callConstructor(Random.class)
            .orShould().dependOnClassesThat().belongToAnyOf(SecureRandom.class,
                    java.util.concurrent.ThreadLocalRandom.class)
            .orShould().callMethod(UUID.class, "randomUUID")
            .as("the engine uses no unseeded randomness (new Random(seed) is allowed)");

    static final ArchRule NO_THREADS = noClasses()
            .should().dependOnClassesThat().belongToAnyOf(Thread.class, Timer.class)
            .orShould().dependOnClassesThat().resideInAPackage("java.util.concurrent..")
            .as("the engine starts no threads");

    static final ArchRule NO_HASH_ORDER = noClasses()
            .should().dependOnClassesThat().belongToAnyOf(HashMap.class, HashSet.class,
                    Hashtable.class, IdentityHashMap.class, WeakHashMap.class)
            .orShould().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe(
                    "Set.of/Map.of (iteration order varies per JVM run)",
                    call -> (call.getTargetOwner().isEquivalentTo(Set.class)
                            || call.getTargetOwner().isEquivalentTo(Map.class))
                            && (call.getName().equals("of") || call.getName().equals("ofEntries")
                                || call.getName().equals("copyOf"))))
            .orShould().callMethod(System.class, "identityHashCode", Object.class)
            .as("the engine iterates no hash-ordered collection");

    static final ArchRule NO_FLOAT_STATE = fields()
            .that().areDeclaredInClassesThat().implement(Stateful.class)
            .and().areNotStatic()
            .should().notHaveRawType(float.class)
            .andShould().notHaveRawType(double.class)
            .andShould().notHaveRawType(float[].class)
            .andShould().notHaveRawType(double[].class)
            .as("stateful components keep no floating point fields");

    static final ArchRule[] ALL = {NO_WALL_CLOCK, NO_UNSEEDED_RANDOM, NO_THREADS, NO_HASH_ORDER, NO_FLOAT_STATE};
}
